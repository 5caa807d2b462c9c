// Evaluating a reasoning world model as the public script (QwenLM/Qwen-AgentWorld
// eval/eval.py) does: predictions sampled at 0.6 with 32,768 new tokens unless the model
// says otherwise; a generation that ends inside its reasoning, or writes nothing after it,
// is what a server with a reasoning parser returns as empty content, so it fails with
// "No model generation", is never judged, and is left out of the means; the judge gets the
// public per-domain system prompts with --judge-prompts.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeVllm, type FakeServer } from '../testing/fake-vllm-server';
import { OpenAiCompatibleEngine } from '../engine/openai/openai-engine';
import { loadJudgeSystemPrompts, loadJudgeTemplate } from './judge';
import { RESULT_FILES } from './result-files';
import { runEvaluation } from './run-evaluation';
import { normalize } from './scores';

const DATA = fileURLToPath(new URL('./fixtures/bench', import.meta.url));
const TEMPLATE = loadJudgeTemplate(fileURLToPath(new URL('../../resources/judge/rubric.md', import.meta.url)));
const readLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const thoughts = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`).join(' ');

let world: FakeServer;
let judgeServer: FakeServer;
let engine: OpenAiCompatibleEngine;
let judgeEngine: OpenAiCompatibleEngine;

beforeAll(async () => {
  // "cat nope" makes the model think 3,000 tokens; "cat a.txt" makes it close its reasoning and write nothing.
  world = await startFakeVllm({
    models: [{ id: 'agentworld', max_model_len: 262_144 }],
    reasoningIn: 'reasoning',
    reply: (messages) => {
      const action = messages.at(-1)!.content;
      if (action.includes('cat nope')) return { reasoning: thoughts(3000), content: '<predicted_observation>\ncat: nope: No such file or directory\n</predicted_observation>' };
      if (action.includes('cat a.txt')) return { reasoning: thoughts(20), content: '' };
      return { reasoning: thoughts(200), content: '<predicted_observation>\nsomething\n</predicted_observation>' };
    },
  });
  judgeServer = await startFakeVllm({
    models: [{ id: 'judge', max_model_len: 262_144 }],
    reply: () => ({ reasoning: 'weighing', content: `<final_evaluation>${JSON.stringify({ strengths: [], weaknesses: [], scores: { format: 3, factuality: 3, consistency: 3, realism: 3, quality: 3 } })}</final_evaluation>` }),
  });
  engine = new OpenAiCompatibleEngine({ baseUrl: world.url });
  judgeEngine = new OpenAiCompatibleEngine({ baseUrl: judgeServer.url });
  await Promise.all([engine.load(), judgeEngine.load()]);
});
afterAll(async () => {
  await world.close();
  await judgeServer.close();
});

describe('evaluating a reasoning model as the public script scores it', () => {
  it('predicts at 0.6 with 32,768 tokens and the judge’s public budget, by default', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wl-eval-defaults-'));
    const judgeCalls = judgeServer.stats.bodies.length;
    await runEvaluation({ dataDir: DATA, outDir: out, engine, judgeEngine, judgeTemplate: TEMPLATE, limit: 1 });
    expect(world.stats.bodies.at(-1)).toMatchObject({ max_tokens: 32_768, temperature: 0.6 });
    expect(world.stats.bodies.at(-1)).not.toHaveProperty('chat_template_kwargs');
    expect(judgeServer.stats.bodies.slice(judgeCalls)[0]).toMatchObject({ max_tokens: 32_768 });
    expect(readLines(join(out, RESULT_FILES.predictions))[0]).toMatchObject({ gen: expect.stringContaining('something'), worldloom: { sampling: { temperature: 0.6, max_tokens: 32_768 } } });
  });

  it('fails a line cut inside the reasoning, and one with nothing after it, with "No model generation", unjudged and left out', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wl-eval-cut-'));
    const judgeCalls = judgeServer.stats.bodies.length;
    const result = await runEvaluation({ dataDir: DATA, outDir: out, engine, judgeEngine, judgeTemplate: TEMPLATE, sampling: { maxTokens: 1000 } });
    const predictions = readLines(join(out, RESULT_FILES.predictions));
    const cut = predictions[4]!;
    expect(cut.current_prompt).toContain('cat nope');
    // As the public infer step writes it: a server's content for such a generation is empty.
    expect(cut).toMatchObject({ gen: '', worldloom: { finish_reason: 'length', prediction: '' } });
    expect(((cut.worldloom as Record<string, unknown>).raw_output as string).split(' ')).toHaveLength(1000);
    const empty = predictions[3]!;
    expect(empty.current_prompt).toContain('cat a.txt');
    // Reasoning closed, then nothing: the engine closes the think block the server's parser ended.
    expect(empty).toMatchObject({ gen: '', worldloom: { finish_reason: 'eos', raw_output: expect.stringMatching(/^<think>t0 [\s\S]*t19<\/think>$/) } });

    const judged = readLines(join(out, RESULT_FILES.judged));
    for (const line of [judged[3]!, judged[4]!]) {
      expect(line).toMatchObject({ gen: '', failed: 1, error_message: 'No model generation' });
      expect(line).not.toHaveProperty('total_score');
    }
    const asked = judgeServer.stats.bodies.slice(judgeCalls).map((b) => JSON.stringify(b.messages));
    expect(asked).toHaveLength(3);
    expect(asked.some((m) => m.includes('cat nope') || m.includes('cat a.txt'))).toBe(false);
    // The public score step: failed lines count as failed and stay out of every mean.
    expect(result.summary.domains.terminal).toMatchObject({ total: 3, valid: 1, failed: 2, total_score: normalize(3) });
    expect(result.summary).toMatchObject({ total_samples: 5, valid: 3, failed: 2 });
  });

  it('sends each domain’s public judge system prompt first with --judge-prompts', async () => {
    const prompts = mkdtempSync(join(tmpdir(), 'wl-judge-prompts-'));
    mkdirSync(join(prompts, 'terminal'));
    writeFileSync(join(prompts, 'terminal', 'judge_system_prompt.txt'), 'You grade terminal simulations.');
    const out = mkdtempSync(join(tmpdir(), 'wl-eval-prompts-'));
    const judgeCalls = judgeServer.stats.bodies.length;
    await runEvaluation({ dataDir: DATA, outDir: out, engine, judgeEngine, judgeTemplate: TEMPLATE, judgeSystemPrompts: loadJudgeSystemPrompts(prompts), limit: 3 });
    const systems = judgeServer.stats.bodies.slice(judgeCalls).map((b) => (b.messages as { role: string; content: string }[])[0]!);
    // mcp/m1/1, mcp/m1/2 (no mcp file: an empty system message, as the public script sends), terminal/t1/1.
    expect(systems).toEqual([
      { role: 'system', content: '' },
      { role: 'system', content: '' },
      { role: 'system', content: 'You grade terminal simulations.' },
    ]);
    expect(() => loadJudgeSystemPrompts(out)).toThrow(/holds no judge_system_prompt\.txt in any domain folder/);
  });
});
