// The adapter lora-fixture.ts writes is one llama.cpp really applies: over worldloom-nano it
// loads through the GGUF engine, names itself, and moves nano's greedy tokens; with B zero it
// adds nothing and the tokens are nano's own.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SamplingParams } from '../common/engine';
import { buildWorldModelMessages } from '../common/prompt/world-model-messages';
import { GgufEngine } from '../engine/gguf/gguf-engine';
import { readLoraAdapter } from '../engine/gguf/lora-adapter';
import { NANO_GGUF, NANO_LORA_TARGETS, writeLoraAdapter } from './lora-fixture';

const GREEDY: SamplingParams = { temperature: 0, topK: 0, topP: 1, maxTokens: 24, seed: 0, stop: [] };
const MESSAGES = buildWorldModelMessages({ systemPrompt: 'A bash terminal as user agent.', history: [], action: 'ls -la', initialState: 'agent@sandbox:~$', domain: 'terminal' });
const scratch = mkdtempSync(join(tmpdir(), 'wl-lora-fixture-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function greedyTokens(adapter?: string): Promise<{ tokens: number[]; name: string; notes: string[] }> {
  const engine = await GgufEngine.load(NANO_GGUF, { device: 'cpu', sequences: 1, threads: 1, contextLength: 2048, ...(adapter ? { adapter } : {}) });
  try {
    const tokens: number[] = [];
    const [result] = await engine.generate([{ id: 'a', messages: MESSAGES, sampling: GREEDY }], (event) => {
      if (event.tokenId !== undefined) tokens.push(event.tokenId);
    });
    expect(result!.finishReason).not.toBe('error');
    const described = engine.describe();
    return { tokens, name: described.name ?? '', notes: described.notes };
  } finally {
    await engine.dispose();
  }
}

describe.skipIf(!existsSync(NANO_GGUF))('a LoRA adapter written for worldloom-nano', () => {
  let nano: number[];
  beforeAll(async () => {
    nano = (await greedyTokens()).tokens;
  }, 120_000);

  it('has the header the adapter reader accepts: qwen35moe, alpha, one pair per adapted weight', async () => {
    const { path, tensors } = writeLoraAdapter(join(scratch, 'header.gguf'), { alpha: 8 });
    expect(tensors).toEqual(NANO_LORA_TARGETS.flatMap((t) => [`${t}.lora_a`, `${t}.lora_b`]));
    expect(await readLoraAdapter(path, { name: 'nano', architecture: 'qwen35moe' })).toMatchObject({ name: 'nano-test-lora', architecture: 'qwen35moe', alpha: 8, weights: 2 });
  });

  it('loads over nano on llama.cpp and changes its greedy tokens', async () => {
    const { path } = writeLoraAdapter(join(scratch, 'moves.gguf'));
    const adapted = await greedyTokens(path);
    expect(adapted.name).toMatch(/ \+ nano-test-lora$/);
    expect(adapted.notes.join('\n')).toMatch(/LoRA adapter nano-test-lora \(2 weights, alpha 4\)/);
    expect(nano.length).toBeGreaterThan(3);
    expect(adapted.tokens.length).toBeGreaterThan(0);
    expect(adapted.tokens).not.toEqual(nano);
  }, 120_000);

  it('changes nothing when B is zero: the tokens are nano\'s own', async () => {
    const { path } = writeLoraAdapter(join(scratch, 'zero.gguf'), { zeroB: true });
    expect((await greedyTokens(path)).tokens).toEqual(nano);
  }, 120_000);

  it('refuses to write a pair for a weight the base does not have', () => {
    expect(() => writeLoraAdapter(join(scratch, 'none.gguf'), { targets: ['blk.0.attn_q.weight'] })).toThrow(/has no 2-D tensor blk\.0\.attn_q\.weight/);
  });
});
