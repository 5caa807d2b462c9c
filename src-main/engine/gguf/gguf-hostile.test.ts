// Hostile GGUF files, made at test time from the converted tiny Qwen3.5-MoE fixture with one field
// changed (src-main/testing/gguf-variants.ts). Each must be refused with the field, the value and
// the limit, before llama.cpp sees it: several of them end the process that loads them (llama.cpp
// asserts, or divides by zero). The child-process probe is shown catching such a file on its own
// (the checks bypassed) and keeping its verdict by the file's size and modification time.

import { mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../common/engine';
import { ggufFixtureUnavailable, tinyGguf } from '../../testing/gguf-fixtures';
import { ggufVariant, type GgufEdit } from '../../testing/gguf-variants';
import { ensureProbed, probeInChild } from '../model-probe';
import { GgufEngine } from './gguf-engine';
import { readGgufModel } from './gguf-file';

const unavailable = ggufFixtureUnavailable();
let scratch: string;
let good: string;
const savedCacheDir = process.env.WORLDLOOM_CACHE_DIR;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'wl-gguf-hostile-'));
  process.env.WORLDLOOM_CACHE_DIR = join(scratch, 'cache');
  if (!unavailable) good = tinyGguf('f32');
}, 600_000);
afterAll(() => {
  if (savedCacheDir === undefined) delete process.env.WORLDLOOM_CACHE_DIR;
  else process.env.WORLDLOOM_CACHE_DIR = savedCacheDir;
  rmSync(scratch, { recursive: true, force: true });
});

const variant = (name: string, ...edits: GgufEdit[]) => ggufVariant(good, join(scratch, `${name}.gguf`), ...edits);

async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(EngineError);
  expect((error as EngineError).code).toBe('model-corrupt');
  return error as EngineError;
}

/** Hostile variants and what their refusal must say. */
const CASES: { name: string; edits: GgufEdit[]; says: RegExp; damaged?: boolean }[] = [
  { name: 'layers-100000', edits: [{ key: 'qwen35moe.block_count', value: 100_000 }], says: /qwen35moe\.block_count is 100000; llama\.cpp takes 1 to 512 layers/ },
  { name: 'layers-0', edits: [{ key: 'qwen35moe.block_count', value: 0 }], says: /qwen35moe\.block_count is 0; llama\.cpp takes 1 to 512 layers/ },
  { name: 'experts-1000000', edits: [{ key: 'qwen35moe.expert_count', value: 1_000_000 }], says: /qwen35moe\.expert_count is 1000000; llama\.cpp takes at most 1024 experts/ },
  { name: 'experts-used-9', edits: [{ key: 'qwen35moe.expert_used_count', value: 9 }], says: /qwen35moe\.expert_used_count is 9, more than the 8 experts it has/ },
  { name: 'experts-used-0', edits: [{ key: 'qwen35moe.expert_used_count', value: 0 }], says: /expert_used_count is 0: a model with 8 experts must use at least 1/ },
  // llama.cpp reads full_attention_interval only where the file has no recurrent_layers list.
  { name: 'interval-0', edits: [{ hideKey: 'qwen35moe.attention.recurrent_layers' }, { key: 'qwen35moe.full_attention_interval', value: 0 }], says: /qwen35moe\.full_attention_interval is 0; it must be at least 1/ },
  { name: 'heads-0', edits: [{ key: 'qwen35moe.attention.head_count', value: 0 }], says: /qwen35moe\.attention\.head_count is 0; it must be at least 1/ },
  { name: 'kv-heads-3', edits: [{ key: 'qwen35moe.attention.head_count_kv', value: 3 }], says: /head_count 4 is not a multiple of qwen35moe\.attention\.head_count_kv 3/ },
  { name: 'key-length-0', edits: [{ key: 'qwen35moe.attention.key_length', value: 0 }], says: /qwen35moe\.attention\.key_length is 0; it must be at least 1/ },
  { name: 'ssm-groups-0', edits: [{ key: 'qwen35moe.ssm.group_count', value: 0 }], says: /qwen35moe\.ssm\.group_count is 0; it must be at least 1/ },
  { name: 'rope-sections', edits: [{ key: 'qwen35moe.rope.dimension_sections', item: 0, value: 100 }], says: /rope\.dimension_sections is \[100, 1, 1, 0\], 102 in all; the sections must share the rotary half, 4/ },
  { name: 'rope-odd', edits: [{ key: 'qwen35moe.rope.dimension_count', value: 9 }], says: /rope\.dimension_count is 9; it must be even and at most the head size 32/ },
  { name: 'vocab-rows', edits: [{ tensor: 'token_embd.weight', dim: 1, value: 700 }], says: /tensor 'token_embd\.weight' has 700 rows but the vocabulary \(tokenizer\.ggml\.tokens\) has 768 tokens/ },
  { name: 'expert-stack', edits: [{ tensor: 'blk.0.ffn_up_exps.weight', dim: 2, value: 4 }], says: /tensor 'blk\.0\.ffn_up_exps\.weight' holds 4 experts but qwen35moe\.expert_count is 8/ },
  { name: 'tensor-type', edits: [{ tensor: 'output_norm.weight', type: 99 }], says: /tensor 'output_norm\.weight' is stored as tensor type 99, which the llama\.cpp Worldloom ships does not know \(it knows F32, F16,/ },
  { name: 'key-length-2^62', edits: [{ keyLength: 'qwen35moe.block_count', value: 2n ** 62n }], says: /the length of metadata key #\d+ \(after 'qwen35moe\.embedding_length'\) is 4611686018427387904, but the \d+ bytes left in the file can hold at most \d+/, damaged: true },
  { name: 'tensor-count', edits: [{ count: 'tensors', value: 2n ** 40n }], says: /the tensor count is 1099511627776, but the \d+ bytes left in the file can hold at most \d+/, damaged: true },
  { name: 'key-count', edits: [{ count: 'keys', value: 2n ** 40n }], says: /the metadata key count is 1099511627776/, damaged: true },
  { name: 'rank', edits: [{ tensor: 'output_norm.weight', rank: 0x7fff_ffff }], says: /tensor 'output_norm\.weight' has 2147483647 dimensions; llama\.cpp takes 1 to 4/, damaged: true },
  { name: 'overflow', edits: [{ tensor: 'token_embd.weight', dim: 1, value: 2 ** 60 }], says: /tensor 'token_embd\.weight' has dimension 1 of 1152921504606846976, \d+ elements so far, more than ggml can count/, damaged: true },
];

describe.skipIf(unavailable)(`hostile GGUF files are refused before llama.cpp sees them${unavailable ? ` — skipped: ${unavailable}` : ''}`, () => {
  for (const { name, edits, says, damaged } of CASES) {
    it(`${name}: refused with the field, its value and the limit`, async () => {
      const error = await refusal(readGgufModel(variant(name, ...edits)));
      expect(error.message).toMatch(says);
      // "Damaged" only where a length or count runs past what the file holds; never "too large for memory".
      if (!damaged) expect(error.message).not.toMatch(/damaged|cut short|too large/);
      if (!damaged && !/tensor type/.test(error.message)) expect(error.message).toMatch(/llama\.cpp cannot run a model with this value: convert the model again, or download another copy\.$/);
      expect(error.message).not.toMatch(/too large for this machine/);
      expect(error.message).not.toMatch(/out of range|RangeError|"size"/);
    });
  }

  it('refuses through the engine too, and still loads a good file in the same process afterwards', async () => {
    for (const name of ['layers-100000', 'experts-1000000', 'experts-used-9', 'interval-0', 'heads-0']) {
      const edits = CASES.find((c) => c.name === name)!.edits;
      await refusal(GgufEngine.load(variant(`engine-${name}`, ...edits), { device: 'cpu', sequences: 1, threads: 1 }));
    }
    const engine = await GgufEngine.load(good, { device: 'cpu', sequences: 1, threads: 1 });
    try {
      const [result] = await engine.generate([{ id: 'a', messages: [{ role: 'user', content: 'ls' }], sampling: { temperature: 0, topK: 0, topP: 1, maxTokens: 3, seed: 0, stop: [] } }], () => undefined);
      expect(result!.finishReason).not.toBe('error');
      expect(result!.completionTokens).toBeGreaterThan(0);
    } finally {
      await engine.dispose();
    }
  }, 120_000);
});

describe.skipIf(unavailable)('the child-process probe', () => {
  it('reports a file that ends llama.cpp with an assert: the signal and what llama.cpp printed (the checks bypassed)', async () => {
    const verdict = await probeInChild('gguf', variant('probe-layers', { key: 'qwen35moe.block_count', value: 100_000 }), 'probe-layers.gguf');
    expect(verdict).toMatchObject({ ok: false, crashed: true });
    expect(verdict.message).toMatch(/Opening probe-layers\.gguf in a separate process, llama\.cpp was ended by SIGABRT; in the app it would have ended the app\./);
    expect(verdict.message).toMatch(/The last thing it printed: .*GGML_ASSERT\(hparams\.n_layer_all > 0 && hparams\.n_layer_all <= LLAMA_MAX_LAYERS\) failed/);
  }, 60_000);

  it('reports a file that ends llama.cpp with a division by zero', async () => {
    const file = variant('probe-interval', { hideKey: 'qwen35moe.attention.recurrent_layers' }, { key: 'qwen35moe.full_attention_interval', value: 0 });
    const verdict = await probeInChild('gguf', file, 'probe-interval.gguf');
    expect(verdict).toMatchObject({ ok: false, crashed: true });
    expect(verdict.message).toMatch(/llama\.cpp was ended by SIGFPE/);
  }, 60_000);

  it('tells a refusal llama.cpp itself gives (safe to repeat in the app) from a crash, with the cause it printed', async () => {
    // ssm.group_count 2 → 4 leaves every size positive but the recurrent tensors the wrong shape.
    const verdict = await probeInChild('gguf', variant('probe-shape', { key: 'qwen35moe.ssm.group_count', value: 4 }), 'probe-shape.gguf');
    expect(verdict).toMatchObject({ ok: false, crashed: false });
    expect(verdict.message).toMatch(/llama\.cpp could not load probe-shape\.gguf \(qwen35moe, \d+ bytes\): check_tensor_dims: tensor 'blk\.0\.attn_qkv\.weight' has wrong shape; expected 64, \d+, got 64, 128, 1, 1\. Its metadata and its tensors disagree/);
  }, 60_000);

  it('keeps a verdict by path, size and modification time: a second open does not start a child, a changed file does', async () => {
    const file = variant('probe-cache');
    const first = await ensureProbed('gguf', file, [file], 'probe-cache.gguf');
    expect(first).toMatchObject({ ok: true });
    expect(await ensureProbed('gguf', file, [file], 'probe-cache.gguf')).toBeNull();
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(await ensureProbed('gguf', file, [file], 'probe-cache.gguf')).toMatchObject({ ok: true });
  }, 60_000);

  it('keeps a refusal too: the second open is refused from the kept verdict, with the same words', async () => {
    const file = variant('probe-refused', { key: 'qwen35moe.block_count', value: 100_000 });
    const first = await refusal(ensureProbed('gguf', file, [file], 'probe-refused.gguf'));
    expect(first.message).toMatch(/SIGABRT/);
    const kept = JSON.parse(readFileSync(join(process.env.WORLDLOOM_CACHE_DIR!, 'model-checks.json'), 'utf8')) as Record<string, { ok: boolean; message?: string }>;
    expect(Object.values(kept)).toContainEqual({ ok: false, message: first.message });
    const second = await refusal(ensureProbed('gguf', file, [file], 'probe-refused.gguf'));
    expect(second.message).toBe(first.message);
  }, 60_000);
});
