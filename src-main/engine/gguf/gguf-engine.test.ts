// The GGUF engine on real llama.cpp (node-llama-cpp's CPU build) with the tiny Qwen3.5-MoE
// checkpoint converted to GGUF at test time: the same prompt as the ONNX engine, streaming with
// reasoning from the first event, K parallel samples equal to K sequential ones, prefix reuse
// equal to no reuse, cancel, and the model's own sampling recommendation.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, GenerateRequest, SamplingParams } from '../../common/engine';
import { ggufFixtureUnavailable, TINY_ONNX, tinyGguf } from '../../testing/gguf-fixtures';
import { ChatTokenizer } from '../onnx/chat-tokenizer';
import { GgufEngine } from './gguf-engine';

const unavailable = ggufFixtureUnavailable();
const HISTORY: ChatMessage[] = [
  { role: 'system', content: 'You are a simulated Linux terminal. Predict the output of each command.' },
  { role: 'user', content: '### Turn 1\n**Action:**\nls -la /home/user' },
  { role: 'assistant', content: '**Environment Observation:**\ntotal 24\ndrwxr-xr-x 3 user user 4096 project' },
];
const BRANCH_A: ChatMessage[] = [...HISTORY, { role: 'user', content: '### Turn 2\n**Action:**\ncat project/README.md' }];
const BRANCH_B: ChatMessage[] = [...HISTORY, { role: 'user', content: '### Turn 2\n**Action:**\nrm -rf project' }];
const GREEDY: SamplingParams = { temperature: 0, topK: 0, topP: 1, maxTokens: 12, seed: 0, stop: [] };
const SAMPLED: SamplingParams = { temperature: 0.9, topK: 20, topP: 0.95, maxTokens: 12, seed: 0, stop: [] };

const options = { device: 'cpu' as const, sequences: 4, threads: 1 };

describe.skipIf(unavailable)('GgufEngine on the tiny Qwen3.5-MoE GGUF', () => {
  let file: string;
  let engine: GgufEngine;

  beforeAll(async () => {
    file = tinyGguf('f32');
    engine = await GgufEngine.load(file, options);
  }, 600_000);
  afterAll(async () => {
    await engine?.dispose();
  });

  const tokensOf = async (target: GgufEngine, requests: GenerateRequest[], signal?: AbortSignal) => {
    const ids = new Map<string, number[]>();
    const results = await target.generate(requests, (event) => {
      if (event.tokenId !== undefined) ids.set(event.requestId, [...(ids.get(event.requestId) ?? []), event.tokenId]);
    }, signal);
    return { results, ids: requests.map((request) => ids.get(request.id) ?? []) };
  };

  it('describes itself from the file: llama.cpp on the CPU, the sampling the file recommends, reasoning', () => {
    const described = engine.describe();
    expect(described.kind).toBe('gguf');
    expect(described.device).toBe('cpu');
    expect(described.providers.find((p) => p.used)?.name).toBe('cpu');
    // The fixture's generation_config.json (temperature 0.6, top-k 20, top-p 0.95), carried into general.sampling.*.
    expect(described.recommendedSampling).toMatchObject({ temperature: 0.6, topK: 20, topP: 0.95 });
    expect(described.reasoning).toEqual({ reasons: true, canDisable: true });
    expect(described.notes.join('\n')).toMatch(/all \d+ layers on the CPU, 1 CPU thread$/m);
    expect(described.memoryBytes).toBeGreaterThan(1_000_000);
    expect(described.identity).toMatch(/^gguf:[0-9a-f]{32}$/);
  });

  it('renders the exact prompt the ONNX engine renders, and llama.cpp tokenizes it to the same ids', async () => {
    const onnx = ChatTokenizer.load(join(TINY_ONNX, 'tokenizer.json'), join(TINY_ONNX, 'tokenizer_config.json'));
    try {
      for (const kwargs of [undefined, { enable_thinking: false }]) {
        const theirs = (await onnx.promptText(BRANCH_A, { templateKwargs: kwargs })).text;
        const ours = await engine.renderPrompt(BRANCH_A, kwargs);
        expect(Buffer.from(ours)).toEqual(Buffer.from(theirs));
        expect(await engine.tokenize(ours)).toEqual(onnx.encode(theirs));
      }
    } finally {
      await onnx.close();
    }
  });

  it('streams reasoning from the first event, and the events add up to the result', async () => {
    const events: { text: string; tokenId?: number }[] = [];
    const [result] = await engine.generate([{ id: 'a', messages: BRANCH_A, sampling: GREEDY }], (event) => events.push(event));
    expect(events[0]).toEqual({ requestId: 'a', text: '<think>\n' });
    expect(result!.text.startsWith('<think>\n')).toBe(true);
    expect(events.map((e) => e.text).join('')).toBe(result!.text);
    expect(events.filter((e) => e.tokenId !== undefined)).toHaveLength(12);
    // Out of tokens before the observation: the caller never stores such a sample.
    expect(result!.finishReason).toBe('length');
    expect(result!.completionTokens).toBe(12);
  });

  it('runs K samples in parallel with the same tokens as one at a time', async () => {
    const requests = [0, 1, 2].map((seed): GenerateRequest => ({ id: `s${seed}`, messages: BRANCH_A, sampling: { ...SAMPLED, seed } }));
    const together = await tokensOf(engine, requests);
    const alone: number[][] = [];
    for (const request of requests) alone.push((await tokensOf(engine, [request])).ids[0]!);
    expect(together.ids).toEqual(alone);
    // Different seeds, different samples: the parallel sequences do not share a sampler.
    expect(new Set(together.ids.map((ids) => ids.join(','))).size).toBeGreaterThan(1);
  });

  it('reuses the shared prefix of a sibling path and gives the tokens a fresh evaluation gives', async () => {
    const fresh = await GgufEngine.load(file, { ...options, prefixReuse: false });
    try {
      await tokensOf(engine, [{ id: 'a', messages: BRANCH_A, sampling: GREEDY }]);
      const reused = await tokensOf(engine, [{ id: 'b', messages: BRANCH_B, sampling: GREEDY }]);
      const scratch = await tokensOf(fresh, [{ id: 'b', messages: BRANCH_B, sampling: GREEDY }]);
      expect(reused.results[0]!.cachedPromptTokens).toBeGreaterThan(20);
      expect(scratch.results[0]!.cachedPromptTokens).toBe(0);
      expect(reused.ids[0]).toEqual(scratch.ids[0]);
      // Resampling the same node: every prompt token but the last comes from the sequence.
      const again = await tokensOf(engine, [{ id: 'b2', messages: BRANCH_B, sampling: GREEDY }]);
      expect(again.results[0]!.cachedPromptTokens).toBe(again.results[0]!.promptTokens - 1);
      expect(again.ids[0]).toEqual(scratch.ids[0]);
    } finally {
      await fresh.dispose();
    }
  });

  it('cancels within a step: results come back cancelled with what was made', async () => {
    const controller = new AbortController();
    let seen = 0;
    const results = await engine.generate(
      [0, 1].map((seed) => ({ id: String(seed), messages: BRANCH_A, sampling: { ...SAMPLED, seed, maxTokens: 500 } })),
      (event) => {
        if (event.tokenId !== undefined && ++seen === 3) controller.abort();
      },
      controller.signal,
    );
    for (const result of results) {
      expect(result.finishReason).toBe('cancelled');
      expect(result.completionTokens).toBeLessThan(10);
    }
  });

  it('stops at a stop string and at the token budget', async () => {
    const [first] = await tokensOf(engine, [{ id: 'a', messages: BRANCH_A, sampling: GREEDY }]).then((r) => r.results);
    const visible = first!.text.slice('<think>\n'.length);
    const stop = visible.slice(2, 5);
    if (stop.length === 3) {
      const [stopped] = await engine.generate([{ id: 'a', messages: BRANCH_A, sampling: { ...GREEDY, stop: [stop] } }], () => {});
      expect(stopped!.finishReason).toBe('stop');
      expect(stopped!.text).toBe(`<think>\n${visible.slice(0, visible.indexOf(stop))}`);
    }
    const [short] = await engine.generate([{ id: 'a', messages: BRANCH_A, sampling: { ...GREEDY, maxTokens: 3 } }], () => {});
    expect(short!.finishReason).toBe('length');
    expect(short!.completionTokens).toBe(3);
  });

  it('decodes greedily token for token as transformers does (the fixture\'s golden cases, all prompts in parallel)', async () => {
    const golden = JSON.parse(readFileSync(join(TINY_ONNX, 'golden.json'), 'utf8')) as { cases: { promptIds: number[]; reference: number[] }[] };
    const out = golden.cases.map(() => [] as number[]);
    const results = await engine.generateFromIds(
      golden.cases.map((c, i) => ({ id: String(i), promptIds: c.promptIds, sampling: { ...GREEDY, maxTokens: c.reference.length } })),
      (event) => {
        if (event.tokenId !== undefined) out[Number(event.requestId)]!.push(event.tokenId);
      },
    );
    expect(results.map((r) => r.finishReason)).not.toContain('error');
    // The longest prompt (1,609 tokens) crosses several batches and the linear-attention chunking.
    expect(Math.max(...golden.cases.map((c) => c.promptIds.length))).toBeGreaterThan(1024);
    golden.cases.forEach((c, i) => {
      // transformers lists the end-of-sequence id; the engine ends there without emitting it.
      const end = c.reference.findIndex((id) => id === 2 || id === 0);
      expect(out[i]).toEqual(end < 0 ? c.reference : c.reference.slice(0, end));
    });
  });

  it('refuses a prompt longer than the context', async () => {
    const long = [{ role: 'user' as const, content: 'word '.repeat(3000) }];
    const small = await GgufEngine.load(file, { ...options, sequences: 1, contextLength: 1024 });
    try {
      const [result] = await small.generate([{ id: 'x', messages: long, sampling: GREEDY }], () => {});
      expect(result!.finishReason).toBe('error');
      expect(result!.error).toMatch(/context holds 1024/);
    } finally {
      await small.dispose();
    }
  });
});

if (unavailable) it.skip(`GgufEngine tests need the converted fixture: ${unavailable}`, () => {});
