// An Ollama Qwen3.5 export against the llama.cpp-layout file of the same weights: a tiny
// checkpoint (2 key heads, 4 value heads, so the value-head order matters) is converted by the
// project's converter, rewritten the way Ollama's converter lays files out
// (native/qwen35/ollama_fixture.py, written apart from the reader), and both are run by the
// GGUF engine: the same greedy tokens, the Ollama file untouched, its copy made once.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SamplingParams } from '../../common/engine';
import { GgufEngine } from './gguf-engine';
import { readGgufLayout } from './gguf-layout';
import { groupedToTiled, ollamaLayoutSigns, readableByLlama } from './ollama-layout';

const NATIVE = join(import.meta.dirname, '..', '..', '..', 'native');
const PYTHON = join(NATIVE, '.venv', 'bin', 'python');
const GREEDY: SamplingParams = { temperature: 0, topK: 0, topP: 1, maxTokens: 24, seed: 0, stop: [] };
const folder = mkdtempSync(join(tmpdir(), 'worldloom-ollama-layout-'));
const cache = join(folder, 'cache');
const llamaFile = join(folder, 'llama.gguf');
const ollamaFile = join(folder, 'sha256-0123abcd');
const hash = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

async function greedy(path: string, prompts: number[][]): Promise<{ tokens: number[][]; notes: string[] }> {
  const engine = await GgufEngine.load(path, { device: 'cpu', sequences: 1, threads: 1, contextLength: 1024 });
  try {
    const tokens: number[][] = [];
    for (const promptIds of prompts) {
      const produced: number[] = [];
      const [result] = await engine.generateFromIds([{ id: 'o', promptIds, sampling: GREEDY }], (event) => {
        if (event.tokenId !== undefined) produced.push(event.tokenId);
      });
      expect(result!.finishReason).not.toBe('error');
      tokens.push(produced);
    }
    return { tokens, notes: engine.describe().notes };
  } finally {
    await engine.dispose();
  }
}

it('tiles value heads as llama.cpp does: tiled position m * k + k0 holds grouped head k0 * r + m', () => {
  expect(groupedToTiled(2, 4)).toEqual([0, 2, 1, 3]);
  expect(groupedToTiled(2, 2)).toEqual([0, 1]);
});

describe.skipIf(!existsSync(PYTHON))("an Ollama Qwen3.5 export, beside the llama.cpp-made file", () => {
  const previousCache = process.env.WORLDLOOM_CACHE_DIR;
  beforeAll(() => {
    process.env.WORLDLOOM_CACHE_DIR = cache;
    const run = (...args: string[]) => execFileSync(PYTHON, ['-m', ...args], { cwd: NATIVE, stdio: 'pipe' });
    run('qwen35.make_checkpoint', '--out', join(folder, 'hf'), '--seed', '7');
    run('qwen35.convert', '--to', 'gguf', '--from', join(folder, 'hf'), '--out', llamaFile);
    run('qwen35.ollama_fixture', '--from', llamaFile, '--out', ollamaFile);
  }, 180_000);
  afterAll(() => {
    if (previousCache === undefined) delete process.env.WORLDLOOM_CACHE_DIR;
    else process.env.WORLDLOOM_CACHE_DIR = previousCache;
    rmSync(folder, { recursive: true, force: true });
  });

  it("is recognised by Ollama's marks, and the llama.cpp file is read as it is", () => {
    expect(ollamaLayoutSigns(readGgufLayout(ollamaFile, statSync(ollamaFile).size))).toEqual([
      '3-entry rope.dimension_sections',
      'ssm_dt without .bias',
      'fused ssm_ba',
      'vision tensors (v.*)',
    ]);
    expect(readableByLlama(llamaFile)).toEqual({ path: llamaFile, notes: [] });
  });

  it('decodes the same greedy tokens through a cached copy, leaving the blob as it was', async () => {
    const before = hash(ollamaFile);
    const prompts = [[5, 17, 99, 4, 300, 21, 8, 640], Array.from({ length: 40 }, (_, i) => (i * 37) % 700 + 3)];
    const reference = await greedy(llamaFile, prompts);
    expect(reference.tokens.every((t) => t.length > 3)).toBe(true);
    const ollama = await greedy(ollamaFile, prompts);
    expect(ollama.tokens).toEqual(reference.tokens);
    expect(ollama.notes.join('\n')).toMatch(/Ollama's qwen35moe layout \(.*\): llama\.cpp opens a copy in its own layout, .* \(0\.\d\d GB\); the Ollama file is left as it is/);
    expect(hash(ollamaFile)).toBe(before);

    const [copy] = readdirSync(join(cache, 'llama-layout'));
    const written = statSync(join(cache, 'llama-layout', copy!)).mtimeMs;
    expect(readableByLlama(ollamaFile).path).toBe(join(cache, 'llama-layout', copy!));
    expect(statSync(join(cache, 'llama-layout', copy!)).mtimeMs).toBe(written);
    const layout = readGgufLayout(join(cache, 'llama-layout', copy!), statSync(join(cache, 'llama-layout', copy!)).size);
    expect(layout.tensors.some((t) => t.name.startsWith('v.'))).toBe(false);
    expect(layout.entries.find((e) => e.key === 'qwen35moe.rope.dimension_sections')?.value).toEqual([2, 1, 1, 0]);
  }, 180_000);
});
