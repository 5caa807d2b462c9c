import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxEngine } from '../engine/onnx/onnx-engine';
import { startFakeVllm, type FakeServer } from '../testing/fake-vllm-server';
import { OpenAiCompatibleEngine } from '../engine/openai/openai-engine';
import { RUBRIC } from '../common/judge-reply';
import { loadJudgeTemplate } from './judge';
import { RESULT_FILES } from './result-files';
import { runEvaluation } from './run-evaluation';
import { normalize } from './scores';

const DATA = fileURLToPath(new URL('./fixtures/bench', import.meta.url));
const TEST_MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/qwen35/tiny-chat', import.meta.url));
const TEMPLATE = loadJudgeTemplate(fileURLToPath(new URL('../../resources/judge/rubric.md', import.meta.url)));
/** The benchmark records in the order the public script reads them (files sorted by name). */
const RECORDS = ['mcp_test.jsonl', 'terminal_test.jsonl'].flatMap((f) =>
  readFileSync(join(DATA, f), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>),
);
const KEYS = ['mcp/m1/1', 'mcp/m1/2', 'terminal/t1/1', 'terminal/t1/2', 'terminal/t2/1'];
const JUDGE_FIELDS = ['total_score', ...RUBRIC, 'failed', 'strengths', 'weaknesses', 'extracted_output', 'judge_raw_output', 'error_message'];

let model: OnnxEngine;
let judgeServer: FakeServer;
let judgeEngine: OpenAiCompatibleEngine;

/** A judge in the public reply shape: terminal cases 4 (quality 5), MCP cases 2 (quality 3); it refuses "cat nope". */
function judgeReply(messages: { content: string }[]): { reasoning: string; content: string } {
  const prompt = messages[0]!.content;
  if (prompt.includes('cat nope')) return { reasoning: '', content: 'I refuse.' };
  const s = prompt.includes('(mcp domain)') ? 2 : 4;
  const scores = { format: s, factuality: s, consistency: s, realism: s, quality: s + 1 };
  return { reasoning: 'grading', content: `<final_evaluation>${JSON.stringify({ strengths: ['shape'], weaknesses: ['detail'], scores })}</final_evaluation>` };
}

const readLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const withoutKeys = (line: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(line).filter(([k]) => !keys.includes(k)));
const judgedPrompts = (server: FakeServer) => server.stats.bodies.map((b) => (b.messages as { content: string }[])[0]!.content);

beforeAll(async () => {
  model = await OnnxEngine.load(TEST_MODEL);
  judgeServer = await startFakeVllm({ reply: judgeReply, models: [{ id: 'judge-1', max_model_len: 131_072 }] });
  judgeEngine = new OpenAiCompatibleEngine({ baseUrl: judgeServer.url, model: 'judge-1', retry: { attempts: 1, baseDelayMs: 1 } });
  await judgeEngine.load();
});
afterAll(async () => {
  await model.dispose();
  await judgeServer.close();
});

describe('evaluation on an AgentWorldBench directory', () => {
  it('writes predictions and judgements in the public script layout and scores them as it does', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wl-eval-'));
    const progress: string[] = [];
    const result = await runEvaluation({
      dataDir: DATA,
      outDir: out,
      engine: model,
      judgeEngine,
      judgeTemplate: TEMPLATE,
      concurrency: 2,
      sampling: { maxTokens: 8 },
      onProgress: (p) => progress.push(`${p.phase} ${p.done}/${p.total}`),
    });
    expect(result.problems).toEqual([]);
    expect(progress).toContain('predict 5/5');
    expect(progress).toContain('judge 5/5');

    // predictions.jsonl: each benchmark record unchanged, in input order, plus `gen`; Worldloom's extras nested.
    const predictions = readLines(join(out, RESULT_FILES.predictions));
    expect(predictions.map((p) => withoutKeys(p, ['gen', 'worldloom']))).toEqual(RECORDS);
    for (const [i, p] of predictions.entries()) {
      expect(Object.keys(p)).toEqual([...Object.keys(RECORDS[i]!), 'gen', 'worldloom']);
      expect(typeof p.gen).toBe('string');
      expect(p.worldloom).toMatchObject({ key: KEYS[i], model: 'tiny-chat', finish_reason: expect.any(String), metrics: expect.any(Object) });
    }
    expect((predictions[4]!.worldloom as Record<string, unknown>).reference).toBe('cat: nope: No such file or directory');

    // judged.jsonl: each predictions line plus the judge's fields.
    const judged = readLines(join(out, RESULT_FILES.judged));
    expect(judged.map((j) => withoutKeys(j, [...JUDGE_FIELDS, 'worldloom']))).toEqual(predictions.map((p) => withoutKeys(p, ['worldloom'])));
    const scored = judged[2]!;
    expect(scored).toMatchObject({ format: 4, factuality: 4, consistency: 4, realism: 4, quality: 5, failed: 0, strengths: ['shape'], weaknesses: ['detail'] });
    expect(scored.total_score).toBeCloseTo(4.2, 10);
    expect(scored.extracted_output).toBe((predictions[2]!.worldloom as Record<string, unknown>).prediction);
    expect(scored.judge_raw_output).toContain('<final_evaluation>');
    expect(scored.worldloom).toMatchObject({ judge: { model: 'judge-1', attempts: 1 } });
    const refused = judged[4]!;
    expect(refused).toMatchObject({ total_score: 0, failed: 1, error_message: 'Judge scoring failed', extracted_output: expect.any(String) });
    expect(refused).not.toHaveProperty('format');
    expect(refused.worldloom).toMatchObject({ judge: { attempts: 3, reply: expect.stringContaining('I refuse.') } });

    const s = result.summary;
    expect(s.domains.terminal).toMatchObject({ display: 'Terminal', total: 3, valid: 2, failed: 1, format: normalize(4), quality: normalize(5) });
    expect(s.domains.terminal!.total_score).toBeCloseTo(normalize(4.2), 10);
    expect(s.domains.mcp).toMatchObject({ display: 'MCP', total: 2, valid: 2, failed: 0 });
    expect(s.domains.mcp!.total_score).toBeCloseTo(normalize(2.2), 10);
    expect(s).toMatchObject({ total_samples: 5, valid: 4, failed: 1 });
    expect(s.overall).toBeCloseTo(normalize(3.2), 10);
    expect(s.worldloom).toMatchObject({
      unjudged: 0,
      external_predictions: 0,
      judges: ['judge-1'],
      // The model's own recommendation (its genai_config says do_sample false: greedy), the budget given.
      sampling: [{ temperature: 0, top_p: 0.95, top_k: 20, max_tokens: 8, seed: 0 }],
    });
    expect(s.worldloom.domains.mcp!.rule_based).toHaveProperty('editSimilarity');
    expect(JSON.parse(readFileSync(join(out, RESULT_FILES.scores), 'utf8'))).toEqual(JSON.parse(JSON.stringify(s)));
  });

  it('resumes an interrupted run to the same final scores and files', async () => {
    const full = mkdtempSync(join(tmpdir(), 'wl-eval-full-'));
    const base = { dataDir: DATA, engine: model, judgeEngine, judgeTemplate: TEMPLATE, concurrency: 1, sampling: { maxTokens: 8 } };
    const reference = (await runEvaluation({ ...base, outDir: full })).summary;

    const out = mkdtempSync(join(tmpdir(), 'wl-eval-resume-'));
    const controller = new AbortController();
    const first = await runEvaluation({
      ...base,
      outDir: out,
      signal: controller.signal,
      onProgress: (p) => p.phase === 'predict' && p.done === 2 && controller.abort(),
    });
    expect(first.interrupted).toBe(true);
    expect(first.summary.total_samples).toBe(2);
    expect(first.summary.worldloom.unjudged).toBe(2);

    const second = await runEvaluation({ ...base, outDir: out });
    expect(second.resumed).toBe(2);
    expect(second.predicted).toBe(3);
    expect(second.summary).toEqual(reference);
    for (const file of [RESULT_FILES.predictions, RESULT_FILES.judged]) {
      expect(readFileSync(join(out, file), 'utf8')).toBe(readFileSync(join(full, file), 'utf8'));
    }
  });

  it('fails an empty generation as "No model generation" without asking the judge', async () => {
    // A world model that answers nothing for "cat nope".
    const world = await startFakeVllm({
      reasoningField: true,
      reply: (messages) => (messages[messages.length - 1]!.content.includes('cat nope') ? { reasoning: '', content: '' } : { reasoning: '', content: 'ok' }),
    });
    const judgeOnly = await startFakeVllm({ reply: judgeReply, models: [{ id: 'judge-1', max_model_len: 131_072 }] });
    try {
      const worldEngine = new OpenAiCompatibleEngine({ baseUrl: world.url });
      const judgeEngine2 = new OpenAiCompatibleEngine({ baseUrl: judgeOnly.url, model: 'judge-1' });
      await Promise.all([worldEngine.load(), judgeEngine2.load()]);
      const out = mkdtempSync(join(tmpdir(), 'wl-eval-empty-'));
      const result = await runEvaluation({ dataDir: DATA, outDir: out, engine: worldEngine, judgeEngine: judgeEngine2, judgeTemplate: TEMPLATE });
      const empty = readLines(join(out, RESULT_FILES.judged))[4]!;
      expect(empty).toMatchObject({ gen: '', failed: 1, error_message: 'No model generation' });
      expect(empty).not.toHaveProperty('total_score');
      expect(judgedPrompts(judgeOnly)).toHaveLength(4);
      expect(judgedPrompts(judgeOnly).some((p) => p.includes('cat nope'))).toBe(false);
      expect(result.summary.domains.terminal).toMatchObject({ total: 3, valid: 2, failed: 1 });
    } finally {
      await world.close();
      await judgeOnly.close();
    }
  });

  it('counts a domain whose inferences all failed as failed, with the reason, even without a judge', async () => {
    const broken = await startFakeVllm({ breakAfter: 4, chunkDelayMs: 5, reply: () => ({ reasoning: '', content: 'a long listing of many files' }) });
    try {
      const engine = new OpenAiCompatibleEngine({ baseUrl: broken.url, retry: { attempts: 1, baseDelayMs: 1 } });
      await engine.load();
      const out = mkdtempSync(join(tmpdir(), 'wl-eval-nojudge-'));
      const { summary } = await runEvaluation({ dataDir: DATA, outDir: out, engine, judgeTemplate: TEMPLATE, concurrency: 1 });
      expect(summary.domains.mcp).toMatchObject({ total: 2, valid: 0, failed: 2 });
      expect(summary.domains.terminal).toMatchObject({ total: 3, valid: 0, failed: 3 });
      expect(summary).toMatchObject({ total_samples: 5, valid: 0, failed: 5 });
      expect(summary.worldloom.unjudged).toBe(0);
      const reasons = Object.entries(summary.worldloom.failure_reasons);
      expect(reasons.reduce((n, [, count]) => n + count, 0)).toBe(5);
      for (const [reason] of reasons) expect(reason).toMatch(/^inference failed: .+/);
      expect(summary.worldloom.domains.mcp!.failure_reasons).toEqual(expect.any(Object));
    } finally {
      await broken.close();
    }
  });

  it('keeps the reason of every judge failure in the summary', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wl-eval-reasons-'));
    // The judge refuses "cat nope" (judgeReply): its reason must reach the summary, not only "Judge scoring failed".
    const { summary } = await runEvaluation({ dataDir: DATA, outDir: out, engine: model, judgeEngine, judgeTemplate: TEMPLATE, concurrency: 2, sampling: { maxTokens: 8 } });
    const reasons = summary.worldloom.failure_reasons;
    const judgeFailures = Object.keys(reasons).filter((r) => r.startsWith('Judge scoring failed: '));
    expect(judgeFailures.length).toBeGreaterThan(0);
    expect(judgeFailures[0]!.length).toBeGreaterThan('Judge scoring failed: '.length);
    expect(Object.values(reasons).reduce((a, b) => a + b, 0)).toBe(summary.failed);
  });

  it('records an inference error as an empty gen and predicts that case again on the next run', async () => {
    // A server that drops every answer mid-stream, then (restarted) one that answers.
    const broken = await startFakeVllm({ breakAfter: 4, chunkDelayMs: 5, reply: () => ({ reasoning: '', content: 'a long listing of many files' }) });
    const healthy = await startFakeVllm({ reasoningField: true, reply: () => ({ reasoning: '', content: 'listing' }) });
    try {
      const out = mkdtempSync(join(tmpdir(), 'wl-eval-retry-'));
      const run = async (url: string) => {
        const engine = new OpenAiCompatibleEngine({ baseUrl: url, retry: { attempts: 1, baseDelayMs: 1 } });
        await engine.load();
        return runEvaluation({ dataDir: DATA, outDir: out, engine, judgeEngine, judgeTemplate: TEMPLATE, concurrency: 1 });
      };
      const first = await run(broken.url);
      const failedLines = readLines(join(out, RESULT_FILES.predictions));
      expect(failedLines.map((l) => [l.gen, (l.worldloom as Record<string, unknown>).finish_reason])).toEqual(KEYS.map(() => ['', 'error']));
      expect(readLines(join(out, RESULT_FILES.judged)).every((j) => j.error_message === 'No model generation')).toBe(true);
      expect(first.summary).toMatchObject({ valid: 0, failed: 5 });

      const second = await run(healthy.url);
      expect(second.predicted).toBe(5);
      const predictions = readLines(join(out, RESULT_FILES.predictions));
      const judged = readLines(join(out, RESULT_FILES.judged));
      // One line per case, in benchmark order; the failed attempts and their judgements are gone.
      expect(predictions.map((p) => (p.worldloom as Record<string, unknown>).key)).toEqual(KEYS);
      expect(predictions.map((p) => p.gen)).toEqual(KEYS.map(() => 'listing'));
      expect(judged.map((j) => [(j.worldloom as Record<string, unknown>).key, j.gen])).toEqual(KEYS.map((k) => [k, 'listing']));
      expect(second.summary).toMatchObject({ total_samples: 5, valid: 4, failed: 1 });
    } finally {
      await broken.close();
      await healthy.close();
    }
  });

  it("resumes from the public script's files: predicts nothing, judges only what is missing, keeps their lines", async () => {
    const out = mkdtempSync(join(tmpdir(), 'wl-eval-public-'));
    // The public `infer` step's output: every record plus `gen` ("" where inference failed).
    const publicPredictions = RECORDS.map((r, i) => ({ ...r, gen: i === 1 ? '' : '<predicted_observation>\nsomething\n</predicted_observation>' }));
    // Its `judge` step had finished two cases (Python writes 0.0 and 1.0).
    const judgedBefore = [
      JSON.stringify({ ...publicPredictions[0], total_score: 2.0, format: 2, factuality: 2, consistency: 2, realism: 2, quality: 2, failed: 0, strengths: [], weaknesses: [], extracted_output: 'something', judge_raw_output: '' }).replace('"failed":0', '"failed": 0.0'),
      JSON.stringify({ ...publicPredictions[2], total_score: 3.0, format: 3, factuality: 3, consistency: 3, realism: 3, quality: 3, failed: 0, strengths: [], weaknesses: [], extracted_output: 'something', judge_raw_output: '' }).replace('"failed":0', '"failed": 0.0'),
    ];
    const predictionsText = publicPredictions.map((p) => JSON.stringify(p) + '\n').join('');
    writeFileSync(join(out, RESULT_FILES.predictions), predictionsText);
    writeFileSync(join(out, RESULT_FILES.judged), judgedBefore.map((l) => l + '\n').join(''));
    const judgeCalls = judgeServer.stats.bodies.length;

    const result = await runEvaluation({ dataDir: DATA, outDir: out, engine: model, judgeEngine, judgeTemplate: TEMPLATE });
    expect(result.predicted).toBe(0);
    expect(result.resumed).toBe(5);
    expect(readFileSync(join(out, RESULT_FILES.predictions), 'utf8')).toBe(predictionsText);
    const judgedText = readFileSync(join(out, RESULT_FILES.judged), 'utf8').trim().split('\n');
    // Their lines kept byte for byte, the new ones in benchmark order around them.
    expect(judgedText[0]).toBe(judgedBefore[0]);
    expect(judgedText[2]).toBe(judgedBefore[1]);
    const judged = judgedText.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(judged[1]).toMatchObject({ gen: '', failed: 1, error_message: 'No model generation' });
    expect(judged[3]).toMatchObject({ format: 4, quality: 5, failed: 0 });
    expect(judged[4]).toMatchObject({ failed: 1, error_message: 'Judge scoring failed' });
    // Judged now: terminal/t1/2 once, terminal/t2/1 three times (refused); nothing else.
    const asked = judgedPrompts(judgeServer).slice(judgeCalls);
    expect(asked).toHaveLength(4);
    expect(asked.filter((p) => p.includes('cat nope'))).toHaveLength(3);

    const s = result.summary;
    expect(s.domains.mcp).toMatchObject({ total: 2, valid: 1, failed: 1, total_score: normalize(2) });
    expect(s.domains.terminal).toMatchObject({ total: 3, valid: 2, failed: 1, format: normalize(3.5) });
    expect(s.domains.terminal!.total_score).toBeCloseTo(normalize((3 + 4.2) / 2), 10);
    expect(s.overall).toBeCloseTo(normalize((2 + 3 + 4.2) / 3), 10);
    expect(s.worldloom).toMatchObject({ external_predictions: 5, models: [], sampling: [], judges: ['judge-1'] });

    // Run again: every verdict is kept; only the judgement that failed is asked again (three tries; still refused).
    const again = await runEvaluation({ dataDir: DATA, outDir: out, engine: model, judgeEngine, judgeTemplate: TEMPLATE });
    expect(judgedPrompts(judgeServer).slice(judgeCalls + 4)).toEqual([0, 1, 2].map(() => expect.stringContaining('cat nope')));
    expect(again.summary).toEqual(s);
  });

  it('asks the judge again, on the next run, for every line whose judging failed', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wl-eval-rejudge-'));
    const silent = await startFakeVllm({ noStream: 'empty', models: [{ id: 'judge-1', max_model_len: 131_072 }] });
    try {
      const failing = new OpenAiCompatibleEngine({ baseUrl: silent.url, model: 'judge-1', retry: { attempts: 1, baseDelayMs: 1 } });
      await failing.load();
      const base = { dataDir: DATA, outDir: out, engine: model, judgeTemplate: TEMPLATE, concurrency: 2, sampling: { maxTokens: 8 } };
      const first = await runEvaluation({ ...base, judgeEngine: failing });
      const reasons = Object.keys(first.summary.worldloom.failure_reasons);
      // The reason says what went wrong, not that the server was busy.
      expect(reasons.some((r) => /Judge scoring failed: .*sent no stream events/.test(r))).toBe(true);
      expect(reasons.join('\n')).not.toMatch(/overloaded/);
      const before = judgeServer.stats.bodies.length;

      const second = await runEvaluation({ ...base, judgeEngine });
      const judged = readLines(join(out, RESULT_FILES.judged));
      expect(judged.map((j) => (j.worldloom as Record<string, unknown>).key)).toEqual(KEYS);
      // Only the case this judge always refuses ("cat nope") is still failed, now with its own reason.
      const stillFailed = judged.filter((j) => j.error_message === 'Judge scoring failed');
      expect(stillFailed).toHaveLength(1);
      expect(JSON.stringify(stillFailed[0]!.worldloom)).toMatch(/unreadable judge reply/);
      expect(judgeServer.stats.bodies.length).toBeGreaterThan(before);
      expect(second.summary.valid).toBeGreaterThan(first.summary.valid);
    } finally {
      await silent.close();
    }
  });

  it('says clearly when the data folder is wrong', async () => {
    await expect(runEvaluation({ dataDir: '/nonexistent', outDir: mkdtempSync(join(tmpdir(), 'x')), engine: model, judgeTemplate: TEMPLATE })).rejects.toThrow(
      /not a readable directory/,
    );
  });
});
