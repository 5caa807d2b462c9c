// Quantising worldloom-nano's shipped GGUF (f16) with node-llama-cpp's own llama.cpp: the files
// carry the type asked for, are smaller, open in the GGUF engine, and Q8_0 decodes the same greedy
// tokens as the f16 file; a file that is not GGUF is refused with llama.cpp's reason and leaves
// nothing behind.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';
import { afterAll, describe, expect, it } from 'vitest';
import type { SamplingParams } from '../../common/engine';
import { GgufEngine } from './gguf-engine';
import { quantizeGguf, shippedLibllama, type QuantizeProgress } from './quantize';

const NANO = join(import.meta.dirname, '..', '..', '..', 'resources', 'models', 'worldloom-nano', 'worldloom-nano.gguf');
const GREEDY: SamplingParams = { temperature: 0, topK: 0, topP: 1, maxTokens: 24, seed: 0, stop: [] };
const folder = mkdtempSync(join(tmpdir(), 'worldloom-quantize-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function greedyTokens(path: string): Promise<number[]> {
  const engine = await GgufEngine.load(path, { device: 'cpu', sequences: 1, threads: 1, contextLength: 1024 });
  try {
    const ids = await engine.tokenize('<|im_start|>user\nls -la<|im_end|>\n<|im_start|>assistant\n');
    const produced: number[] = [];
    const [result] = await engine.generateFromIds([{ id: 'q', promptIds: ids, sampling: GREEDY }], (event) => {
      if (event.tokenId !== undefined) produced.push(event.tokenId);
    });
    expect(result!.finishReason).not.toBe('error');
    return produced;
  } finally {
    await engine.dispose();
  }
}

describe('quantising a GGUF file with the shipped llama.cpp', () => {
  it('finds the libllama node-llama-cpp installed', () => {
    expect(existsSync(shippedLibllama())).toBe(true);
  });

  it.skipIf(!existsSync(NANO))('writes Q8_0 and Q4_K_M files that open, report each tensor, and Q8_0 decodes as f16 does', async () => {
    const progress: QuantizeProgress[] = [];
    const q8 = await quantizeGguf(NANO, join(folder, 'nano-q8_0.gguf'), 'q8_0', { threads: 1, onProgress: (p) => progress.push(p) });
    const q4 = await quantizeGguf(NANO, join(folder, 'nano-q4_k_m.gguf'), 'q4_k_m', { threads: 1 });

    const tensors = (await readGgufFileInfo(NANO)).tensorInfo!.length;
    expect(progress.at(-1)).toMatchObject({ tensor: tensors, tensors });
    expect(new Set(progress.map((p) => p.tensor)).size).toBe(tensors);
    // general.file_type is llama_ftype: 7 = MOSTLY_Q8_0, 15 = MOSTLY_Q4_K_M.
    expect((await readGgufFileInfo(q8.path)).metadata.general.file_type).toBe(7);
    expect((await readGgufFileInfo(q4.path)).metadata.general.file_type).toBe(15);
    expect(q8.bytes).toBe(statSync(q8.path).size);
    expect(q8.bytes).toBeLessThan(statSync(NANO).size * 0.6);
    expect(q4.bytes).toBeLessThan(q8.bytes);

    const reference = await greedyTokens(NANO);
    expect(reference.length).toBeGreaterThan(3);
    expect(await greedyTokens(q8.path)).toEqual(reference);
    expect((await greedyTokens(q4.path)).length).toBeGreaterThan(0);
  }, 300_000);

  it.skipIf(!existsSync(NANO))('writes a BF16 file (llama_ftype 32) that opens and decodes', async () => {
    const bf16 = await quantizeGguf(NANO, join(folder, 'nano-bf16.gguf'), 'bf16', { threads: 1 });
    const info = await readGgufFileInfo(bf16.path, { readTensorInfo: true });
    expect(info.metadata.general.file_type).toBe(32);
    // ggml type 30 is BF16: the matrices are stored in it, the norms stay f32.
    expect(info.tensorInfo!.find((tensor) => tensor.name === 'blk.0.ffn_gate_exps.weight')?.ggmlType).toBe(30);
    expect((await greedyTokens(bf16.path)).length).toBeGreaterThan(3);
  }, 300_000);

  it('refuses a file that is not GGUF with llama.cpp reason, writing nothing', async () => {
    const bad = join(folder, 'notes.gguf');
    writeFileSync(bad, 'these are notes, not weights');
    await expect(quantizeGguf(bad, join(folder, 'out.gguf'), 'q6_k')).rejects.toThrow(/invalid magic characters/);
    expect(readdirSync(folder).filter((name) => name.startsWith('out'))).toEqual([]);
  });

  it('refuses to write over its input', async () => {
    await expect(quantizeGguf(join(folder, 'nano-q8_0.gguf'), join(folder, 'nano-q8_0.gguf'), 'f16')).rejects.toThrow(/original is kept/);
  });
});
