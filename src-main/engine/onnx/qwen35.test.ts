// The in-process engine on the tiny Qwen3.5-MoE fixtures (native/qwen35: a checkpoint made by
// transformers' own classes, converted to the model builder's layout): every layout and
// precision decodes the golden tokens transformers produced, and batching and prefix reuse
// never change a row's tokens. GroupQueryAttention, the builder's attention operator, is what
// makes batches of different lengths worth testing: it reads row lengths from the mask.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError, type ChatMessage, type GenerateResult, type SamplingParams } from '../../common/engine';
import { OnnxEngine } from './onnx-engine';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'qwen35');
const FOLDERS = ['tokens-fp32', 'embeds-fp32', 'tokens-fp16', 'tokens-int4'] as const;
const greedy = (maxTokens: number): SamplingParams => ({ temperature: 0, topK: 0, topP: 1, maxTokens, seed: 0, stop: [] });

interface GoldenCase {
  promptIds: number[];
  reference: number[];
}

function golden(folder: string): GoldenCase[] {
  return (JSON.parse(readFileSync(join(FIXTURES, folder, 'golden.json'), 'utf8')) as { cases: GoldenCase[] }).cases;
}

/** transformers lists the end-of-sequence id it stopped at; the engine ends there without emitting it. */
function untilEos(tokens: readonly number[], eos: readonly number[]): number[] {
  const end = tokens.findIndex((id) => eos.includes(id));
  return end < 0 ? [...tokens] : tokens.slice(0, end);
}

async function fromIds(
  engine: OnnxEngine,
  prompts: readonly (readonly number[])[],
  sampling: SamplingParams | SamplingParams[],
): Promise<{ tokens: number[][]; results: GenerateResult[] }> {
  const tokens = prompts.map(() => [] as number[]);
  const results = await engine.generateFromIds(
    prompts.map((promptIds, i) => ({ id: String(i), promptIds, sampling: Array.isArray(sampling) ? sampling[i]! : sampling })),
    (event) => {
      if (event.tokenId !== undefined) tokens[Number(event.requestId)]!.push(event.tokenId);
    },
  );
  for (const result of results) expect(result.finishReason, result.error).not.toBe('error');
  return { tokens, results };
}

const eosOf = (folder: string): number[] =>
  (JSON.parse(readFileSync(join(FIXTURES, folder, 'genai_config.json'), 'utf8')) as { model: { eos_token_id: number | number[] } })
    .model.eos_token_id as number[];

describe.each(FOLDERS)('Qwen3.5-MoE fixture %s', (folder) => {
  let engine: OnnxEngine;
  beforeAll(async () => {
    engine = await OnnxEngine.load(join(FIXTURES, folder), { providers: ['cpu'], intraOpThreads: 1 });
  });
  afterAll(async () => {
    await engine.dispose();
  });

  it('decodes the golden tokens transformers produced, each prompt alone', async () => {
    const eos = [eosOf(folder)].flat();
    for (const c of golden(folder)) {
      const { tokens } = await fromIds(engine, [c.promptIds], greedy(c.reference.length));
      expect(tokens[0]).toEqual(untilEos(c.reference, eos));
    }
  });

  it('prompts of different lengths in one batch decode as they do alone', async () => {
    const eos = [eosOf(folder)].flat();
    const cases = golden(folder);
    expect(new Set(cases.map((c) => c.promptIds.length)).size).toBeGreaterThan(1);
    const longest = Math.max(...cases.map((c) => c.reference.length));
    const { tokens } = await fromIds(engine, cases.map((c) => c.promptIds), cases.map((c) => greedy(c.reference.length)));
    tokens.forEach((row, i) => expect(row, `case ${i}`).toEqual(untilEos(cases[i]!.reference, eos)));
    expect(longest).toBeGreaterThan(0);
  });
});

describe('Qwen3.5-MoE batches and prefix reuse (tokens-fp32, its own chat template)', () => {
  const folder = join(FIXTURES, 'tokens-fp32');
  let reuse: OnnxEngine;
  let noReuse: OnnxEngine;
  beforeAll(async () => {
    reuse = await OnnxEngine.load(folder, { providers: ['cpu'], intraOpThreads: 1 });
    noReuse = await OnnxEngine.load(folder, { providers: ['cpu'], intraOpThreads: 1, prefixReuse: false });
  });
  afterAll(async () => {
    await reuse.dispose();
    await noReuse.dispose();
  });

  const sampled = (seed: number): SamplingParams => ({ temperature: 0.9, topK: 20, topP: 0.95, maxTokens: 12, seed, stop: [] });

  it('decodes with key/value buffers updated in place, as the converted graph allows', () => {
    expect(reuse.describe().notes.join('\n')).toMatch(/key\/value buffers are updated in place/);
  });

  it('buffers that fill up grow without changing a token', async () => {
    const growing = await OnnxEngine.load(folder, { providers: ['cpu'], intraOpThreads: 1, kvBufferGrowth: 3 });
    try {
      const cases = golden('tokens-fp32');
      const eos = [eosOf('tokens-fp32')].flat();
      const { tokens } = await fromIds(growing, cases.map((c) => c.promptIds), cases.map((c) => greedy(c.reference.length)));
      tokens.forEach((row, i) => expect(row, `case ${i}`).toEqual(untilEos(cases[i]!.reference, eos)));
    } finally {
      await growing.dispose();
    }
  });

  it('K samples of one prompt in one batch each match their run alone', async () => {
    const prompt = golden('tokens-fp32')[0]!.promptIds;
    const seeds = [1, 2, 3, 4];
    const batch = await fromIds(reuse, seeds.map(() => prompt), seeds.map(sampled));
    for (const [i, seed] of seeds.entries()) {
      const alone = await fromIds(noReuse, [prompt], sampled(seed));
      expect(batch.tokens[i], `seed ${seed}`).toEqual(alone.tokens[0]);
    }
    expect(new Set(batch.tokens.map((t) => t.join(','))).size).toBeGreaterThan(1);
  });

  const system: ChatMessage = { role: 'system', content: 'You are a simulated Linux terminal. Predict what each command prints.' };
  const turn = (n: number, action: string): ChatMessage => ({ role: 'user', content: `### Turn ${n}\n**Action:**\n${action}` });
  const seen = (text: string): ChatMessage => ({ role: 'assistant', content: `<think>\nThe listing.\n</think>\n\n**Environment Observation:**\n${text}` });
  const history: ChatMessage[] = [system, turn(1, 'ls -la'), seen('total 8\ndrwxr-xr-x 2 user user 4096 .'), turn(2, 'pwd'), seen('/home/user')];

  async function chat(engine: OnnxEngine, conversations: ChatMessage[][], sampling: SamplingParams[]): Promise<{ tokens: number[][]; results: GenerateResult[] }> {
    const tokens = conversations.map(() => [] as number[]);
    const results = await engine.generate(
      conversations.map((messages, i) => ({ id: String(i), messages, sampling: sampling[i]! })),
      (event) => {
        if (event.tokenId !== undefined) tokens[Number(event.requestId)]!.push(event.tokenId);
      },
    );
    for (const result of results) expect(result.finishReason, result.error).not.toBe('error');
    return { tokens, results };
  }

  it('siblings and children reuse the history up to where they diverge, in tokens, under the Qwen3.5 template', async () => {
    const first = [...history, turn(3, 'cat notes.txt')];
    const sibling = [...history, turn(3, 'whoami')];
    const child = [...first, seen('buy milk'), turn(4, 'date')];
    const withReuse: Awaited<ReturnType<typeof chat>>[] = [];
    const without: Awaited<ReturnType<typeof chat>>[] = [];
    for (const conversation of [first, sibling, child]) {
      withReuse.push(await chat(reuse, [conversation], [greedy(10)]));
      without.push(await chat(noReuse, [conversation], [greedy(10)]));
    }
    withReuse.forEach((run, i) => expect(run.tokens, `conversation ${i}`).toEqual(without[i]!.tokens));
    expect(withReuse[0]!.results[0]!.cachedPromptTokens).toBe(0);
    // The sibling shares everything up to its action's text: far more than the system prompt.
    const siblingCached = withReuse[1]!.results[0]!.cachedPromptTokens;
    expect(siblingCached).toBeGreaterThan(withReuse[1]!.results[0]!.promptTokens * 0.8);
    expect(without[1]!.results[0]!.cachedPromptTokens).toBe(0);
    // The child (the first turn answered, then another action) shares the first prompt up to
    // where the answer starts: all but the think block the generation prompt opened.
    const firstTokens = withReuse[0]!.results[0]!.promptTokens;
    const childCached = withReuse[2]!.results[0]!.cachedPromptTokens;
    expect(childCached).toBeGreaterThan(siblingCached);
    expect(childCached).toBeGreaterThanOrEqual(firstTokens - 3);
    expect(childCached).toBeLessThan(firstTokens);
  });

  it('different prompts and K samples in one call match one-at-a-time runs, reuse on and off', async () => {
    const conversations = [
      [...history, turn(3, 'echo hello')],
      [...history, turn(3, 'echo hello')],
      [system, turn(1, 'uname -a')],
      [...history, turn(3, 'ls /tmp && df -h')],
    ];
    const sampling = [sampled(5), sampled(6), sampled(7), greedy(12)];
    const together = await chat(reuse, conversations, sampling);
    const togetherNoReuse = await chat(noReuse, conversations, sampling);
    for (const [i, conversation] of conversations.entries()) {
      const alone = await chat(noReuse, [conversation], [sampling[i]!]);
      expect(together.tokens[i], `request ${i}`).toEqual(alone.tokens[0]);
      expect(togetherNoReuse.tokens[i], `request ${i} without reuse`).toEqual(alone.tokens[0]);
    }
  });
});

describe('Qwen3.5-MoE folder checks', () => {
  it('takes the symbolic head-size axis of the key/value cache from head_size, and says so when it is missing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'worldloom-qwen35-'));
    try {
      cpSync(join(FIXTURES, 'tokens-fp32'), folder, { recursive: true });
      const path = join(folder, 'genai_config.json');
      const config = JSON.parse(readFileSync(path, 'utf8')) as { model: { decoder: Record<string, unknown> } };
      delete config.model.decoder.head_size;
      writeFileSync(path, JSON.stringify(config));
      const error = await OnnxEngine.load(folder, { providers: ['cpu'] }).then(() => null, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).message).toMatch(
        /Cache input 'past_key_values\.3\.key' has free axes \[batch_size, 2, past_sequence_length, kv_cache_dim\].*head_size, which is missing: add it/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
