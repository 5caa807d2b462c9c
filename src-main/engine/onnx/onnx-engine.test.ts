// Runs the real onnxruntime path on the committed tiny Qwen3.5-MoE chat model
// (python -m qwen35.make_fixtures --only tiny-chat): attention KV cache, conv and recurrent state.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError, type ChatMessage, type GenerateRequest, type SamplingParams } from '../../common/engine';
import { OnnxEngine } from './onnx-engine';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'qwen35', 'tiny-chat');
const GREEDY: SamplingParams = { temperature: 0, topK: 0, topP: 1, maxTokens: 24, seed: 0, stop: [] };
const SAMPLED: SamplingParams = { temperature: 0.9, topK: 40, topP: 0.95, maxTokens: 24, seed: 7, stop: [] };

const history: ChatMessage[] = [
  { role: 'system', content: 'You are a simulated Linux terminal. Predict the output of each command.' },
  { role: 'user', content: '## Turn 1\n**Action:** ls -la /home/user' },
];
const nextTurn = (action: string): ChatMessage[] => [
  ...history,
  { role: 'assistant', content: '**Environment Observation:**\ntotal 24\ndrwxr-xr-x 3 user user 4096 project' },
  { role: 'user', content: `## Turn 2\n**Action:** ${action}` },
];

interface Run {
  text: string;
  tokens: number[];
  finishReason: string;
  cachedPromptTokens: number;
  streamed: string;
}

async function run(engine: OnnxEngine, requests: GenerateRequest[], signal?: AbortSignal): Promise<Run[]> {
  const tokens = new Map<string, number[]>(requests.map((r) => [r.id, []]));
  const streamed = new Map<string, string>(requests.map((r) => [r.id, '']));
  const results = await engine.generate(
    requests,
    (event) => {
      if (event.tokenId !== undefined) tokens.get(event.requestId)!.push(event.tokenId);
      streamed.set(event.requestId, streamed.get(event.requestId)! + event.text);
    },
    signal,
  );
  return results.map((result) => ({
    text: result.text,
    tokens: tokens.get(result.id)!,
    finishReason: result.finishReason,
    cachedPromptTokens: result.cachedPromptTokens,
    streamed: streamed.get(result.id)!,
  }));
}

const request = (id: string, messages: ChatMessage[], sampling: SamplingParams): GenerateRequest => ({ id, messages, sampling });

/** A writable copy of the fixture, to break or re-configure. */
function fixtureCopy(): string {
  const folder = mkdtempSync(join(tmpdir(), 'worldloom-onnx-'));
  cpSync(FIXTURE, folder, { recursive: true });
  return folder;
}

function editGenaiConfig(folder: string, edit: (config: { model: Record<string, unknown> }) => void): void {
  const path = join(folder, 'genai_config.json');
  const config = JSON.parse(readFileSync(path, 'utf8'));
  edit(config);
  writeFileSync(path, JSON.stringify(config));
}

describe('OnnxEngine on the tiny Qwen3.5-MoE chat model', () => {
  let engine: OnnxEngine;
  let noReuse: OnnxEngine;
  const copies: string[] = [];

  beforeAll(async () => {
    engine = await OnnxEngine.load(FIXTURE, { providers: ['cpu'], intraOpThreads: 1 });
    noReuse = await OnnxEngine.load(FIXTURE, { providers: ['cpu'], intraOpThreads: 1, prefixReuse: false });
  });
  afterAll(async () => {
    await engine.dispose();
    await noReuse.dispose();
    for (const folder of copies) rmSync(folder, { recursive: true, force: true });
  });

  it('describes the model: device, context, cache layout and why each provider was (not) used', () => {
    const description = engine.describe();
    expect(description.kind).toBe('onnx');
    expect(description.device).toBe('cpu');
    expect(description.contextLength).toBe(4096);
    expect(description.memoryBytes).toBeGreaterThan(500_000);
    expect(description.providers.at(-1)).toMatchObject({ name: 'cpu', used: true });
    expect(description.notes[0]).toMatch(/2 key\/value cache tensors and 6 conv\/recurrent state tensors/);
    expect(description.notes).toContain('onnxruntime on 1 CPU thread');
  });

  it('greedy decoding gives the same tokens every time', async () => {
    const [first] = await run(noReuse, [request('a', history, GREEDY)]);
    const [second] = await run(noReuse, [request('a', history, GREEDY)]);
    // The fixture's greedy reply to this history ends with <|im_end|> after 20 tokens.
    expect(first!.tokens.length).toBe(20);
    expect(first!.finishReason).toBe('eos');
    expect(second!.finishReason).toBe('eos');
    expect(second!.tokens).toEqual(first!.tokens);
    expect(first!.streamed).toBe(first!.text);
  });

  it('sampling with the same seed repeats; another seed differs', async () => {
    const [a] = await run(noReuse, [request('a', history, SAMPLED)]);
    const [b] = await run(noReuse, [request('b', history, SAMPLED)]);
    const [c] = await run(noReuse, [request('c', history, { ...SAMPLED, seed: 8 })]);
    const [greedy] = await run(noReuse, [request('g', history, GREEDY)]);
    expect(b!.tokens).toEqual(a!.tokens);
    expect(c!.tokens).not.toEqual(a!.tokens);
    expect(a!.tokens).not.toEqual(greedy!.tokens);
  });

  it('a batch of K requests gives each the tokens it gets alone', async () => {
    const requests = [
      request('s0', history, SAMPLED),
      request('s1', history, { ...SAMPLED, seed: 8 }),
      request('s2', history, { ...SAMPLED, seed: 9, maxTokens: 5 }),
      request('other', nextTurn('cat project/README.md'), SAMPLED),
      request('greedy', nextTurn('pwd'), GREEDY),
    ];
    const batch = await run(noReuse, requests);
    for (const [i, single] of requests.entries()) {
      const [alone] = await run(noReuse, [single]);
      expect(batch[i]!.tokens, single.id).toEqual(alone!.tokens);
      expect(batch[i]!.text).toBe(alone!.text);
    }
    expect(batch[2]!.tokens).toHaveLength(5);
  });

  it('prefix reuse computes only the new part and gives the same tokens as no reuse', async () => {
    const reused = await OnnxEngine.load(FIXTURE, { providers: ['cpu'], intraOpThreads: 1 });
    try {
      const [parent] = await run(reused, [request('parent', history, GREEDY)]);
      expect(parent!.cachedPromptTokens).toBe(0);
      // A child turn: the parent's prompt is an exact prefix, so the state is reusable there.
      const [child] = await run(reused, [request('child', nextTurn('cat project/README.md'), SAMPLED)]);
      const [childFresh] = await run(noReuse, [request('child', nextTurn('cat project/README.md'), SAMPLED)]);
      expect(child!.cachedPromptTokens).toBeGreaterThan(0);
      expect(child!.tokens).toEqual(childFresh!.tokens);
      // A sibling action: shares the history up to the last user turn (kept as a snapshot).
      const [sibling] = await run(reused, [request('sibling', nextTurn('whoami'), SAMPLED)]);
      const [siblingFresh] = await run(noReuse, [request('sibling', nextTurn('whoami'), SAMPLED)]);
      expect(sibling!.cachedPromptTokens).toBeGreaterThan(child!.cachedPromptTokens);
      expect(sibling!.tokens).toEqual(siblingFresh!.tokens);
      // Resample ×3 of the same prompt: entirely served from the cache.
      const resampled = await run(reused, [0, 1, 2].map((seed) => request(`r${seed}`, nextTurn('whoami'), { ...SAMPLED, seed })));
      const resampledFresh = await run(noReuse, [0, 1, 2].map((seed) => request(`r${seed}`, nextTurn('whoami'), { ...SAMPLED, seed })));
      expect(resampled.map((r) => r.tokens)).toEqual(resampledFresh.map((r) => r.tokens));
      expect(resampled.every((r) => r.cachedPromptTokens > sibling!.cachedPromptTokens)).toBe(true);
      expect(resampledFresh.every((r) => r.cachedPromptTokens === 0)).toBe(true);
    } finally {
      await reused.dispose();
    }
  });

  it('cancel stops every request within one step and keeps the text made so far', async () => {
    const controller = new AbortController();
    let seen = 0;
    const results = await noReuse.generate(
      [request('a', history, { ...GREEDY, maxTokens: 200 }), request('b', history, { ...SAMPLED, maxTokens: 200 })],
      () => {
        seen++;
        if (seen === 6) controller.abort();
      },
      controller.signal,
    );
    for (const result of results) {
      expect(result.finishReason).toBe('cancelled');
      expect(result.completionTokens).toBeLessThanOrEqual(3);
      expect(result.completionTokens).toBeGreaterThan(0);
    }
    const early = new AbortController();
    early.abort();
    const [none] = await noReuse.generate([request('c', history, GREEDY)], () => {}, early.signal);
    expect(none!.finishReason).toBe('cancelled');
    expect(none!.completionTokens).toBe(0);
  });

  it('stops at a stop string, which is never streamed', async () => {
    const [full] = await run(noReuse, [request('a', history, { ...GREEDY, maxTokens: 40 })]);
    const text = full!.text;
    // A stop string from the middle of what the model would have written.
    const stop = text.slice(Math.floor(text.length / 2), Math.floor(text.length / 2) + 3);
    const [stopped] = await run(noReuse, [request('a', history, { ...GREEDY, maxTokens: 40, stop: ['never-there', stop] })]);
    expect(stopped!.finishReason).toBe('stop');
    expect(stopped!.text).toBe(text.slice(0, text.indexOf(stop)));
    expect(stopped!.streamed).toBe(stopped!.text);
  });

  it('ends at an EOS id named by genai_config.json', async () => {
    const [first] = await run(noReuse, [request('a', history, GREEDY)]);
    const folder = fixtureCopy();
    copies.push(folder);
    editGenaiConfig(folder, (config) => {
      config.model.eos_token_id = [first!.tokens[3]];
    });
    const eosEngine = await OnnxEngine.load(folder, { providers: ['cpu'] });
    try {
      const [ended] = await run(eosEngine, [request('a', history, GREEDY)]);
      expect(ended!.finishReason).toBe('eos');
      expect(ended!.tokens).toEqual(first!.tokens.slice(0, 3));
    } finally {
      await eosEngine.dispose();
    }
  });

  it('refuses a prompt longer than the context, naming both lengths', async () => {
    const folder = fixtureCopy();
    copies.push(folder);
    editGenaiConfig(folder, (config) => {
      config.model.context_length = 16;
    });
    const small = await OnnxEngine.load(folder, { providers: ['cpu'] });
    try {
      const [result] = await small.generate([request('a', history, GREEDY)], () => {});
      expect(result!.finishReason).toBe('error');
      expect(result!.error).toMatch(/prompt has \d+ tokens but the model's context holds 16/);
    } finally {
      await small.dispose();
    }
  });
});

describe('OnnxEngine.load errors', () => {
  const expectEngineError = async (folder: string, code: EngineError['code'], message: RegExp): Promise<void> => {
    const error = await OnnxEngine.load(folder, { providers: ['cpu'] }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe(code);
    expect((error as EngineError).message).toMatch(message);
  };
  const copies: string[] = [];
  const copy = (): string => {
    const folder = fixtureCopy();
    copies.push(folder);
    return folder;
  };
  afterAll(() => {
    for (const folder of copies) rmSync(folder, { recursive: true, force: true });
  });

  it('a folder that does not exist', async () => {
    await expectEngineError('/no/such/model-folder', 'model-missing', /Model folder not found: \/no\/such\/model-folder/);
  });

  it('a folder without the tokenizer or the graph', async () => {
    const noTokenizer = copy();
    rmSync(join(noTokenizer, 'tokenizer.json'));
    await expectEngineError(noTokenizer, 'model-missing', /missing tokenizer\.json/);
    const noGraph = copy();
    rmSync(join(noGraph, 'model.onnx'));
    await expectEngineError(noGraph, 'model-missing', /has no model\.onnx/);
  });

  it('a corrupt model.onnx or external data file', async () => {
    const garbage = copy();
    writeFileSync(join(garbage, 'model.onnx'), 'this is not a protobuf');
    await expectEngineError(garbage, 'model-corrupt', /could not be loaded by onnxruntime/);
    const truncated = copy();
    const data = readFileSync(join(truncated, 'model.onnx.data'));
    writeFileSync(join(truncated, 'model.onnx.data'), data.subarray(0, 1000));
    await expectEngineError(truncated, 'model-corrupt', /could not be loaded by onnxruntime/);
  });

  it('a genai_config.json that is not JSON or not a decoder configuration', async () => {
    const notJson = copy();
    writeFileSync(join(notJson, 'genai_config.json'), '{ "model": ');
    await expectEngineError(notJson, 'model-corrupt', /genai_config\.json .* is not valid JSON/);
    const noContext = copy();
    editGenaiConfig(noContext, (config) => {
      delete config.model.context_length;
    });
    await expectEngineError(noContext, 'model-corrupt', /model\.context_length/);
  });
});
