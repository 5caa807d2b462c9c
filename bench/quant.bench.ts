// What each quantisation type gives against the f32 file of the same checkpoint, all in one run:
// the file's size, greedy tokens until the first one that differs from f32's (of DECODE_TOKENS,
// same prompt ids), decode and prompt-reading tokens/s (CPU, THREADS threads), each as a ratio
// to f32's. The smaller files are made from the f32 file by `worldloom quantize`'s code (the
// llama.cpp node-llama-cpp ships), as a user would make them.
//
// The f32 file: WORLDLOOM_QUANT_BENCH_GGUF, else with `--preset real-dims` one converted from a
// checkpoint made by make_checkpoint.py --preset real-dims (Qwen3.5-35B-A3B's per-layer sizes,
// 2 layers, 6.7 GB), else the tiny fixture (whose 64-wide rows K-quants cannot pack: llama.cpp
// falls back to other types there, so only the real-dims figures say what a type gives).
// Run: npm run bench -- quant [--preset real-dims]

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GgufEngine } from '../src-main/engine/gguf/gguf-engine';
import { quantizeGguf, type QuantType } from '../src-main/engine/gguf/quantize';
import { convertToGguf, tinyGguf } from '../src-main/testing/gguf-fixtures';
import type { BenchSuite, Figure } from './bench';
import { BENCH_PYTHON } from './transformers-peer';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TYPES: QuantType[] = ['f16', 'bf16', 'q8_0', 'q6_k', 'q5_k_m', 'q4_k_m'];
const THREADS = 2;
const PROMPT_TOKENS = 256;
const DECODE_TOKENS = 64;

interface Measured {
  bytes: number;
  tokens: number[];
  promptRate: number;
  decodeRate: number;
}

async function measure(file: string, prompt: number[]): Promise<Measured> {
  const engine = await GgufEngine.load(file, { device: 'cpu', sequences: 1, threads: THREADS, contextLength: 2048, prefixReuse: false });
  try {
    const kept: Measured[] = [];
    // A warm-up, then the best of two runs for each rate (the machine is shared; the better run is the one less disturbed).
    for (let round = 0; round < 3; round++) {
      const tokens: number[] = [];
      const times: number[] = [];
      const [result] = await engine.generateFromIds(
        [{ id: 'quant', promptIds: prompt, sampling: { temperature: 0, topK: 0, topP: 1, maxTokens: DECODE_TOKENS, seed: 0, stop: [] } }],
        (event) => {
          if (event.tokenId === undefined) return;
          tokens.push(event.tokenId);
          times.push(performance.now());
        },
      );
      if (result!.finishReason === 'error') throw new Error(`generation on ${file} failed: ${result!.error}`);
      const run = {
        bytes: statSync(file).size,
        tokens,
        promptRate: (1000 * (prompt.length - 1)) / result!.timings.prefillMs,
        decodeRate: (1000 * (times.length - 1)) / (times.at(-1)! - times[0]!),
      };
      if (round > 0) kept.push(run);
    }
    return { ...kept[0]!, decodeRate: Math.max(...kept.map((r) => r.decodeRate)), promptRate: Math.max(...kept.map((r) => r.promptRate)) };
  } finally {
    await engine.dispose();
  }
}

function realDimsF32(scratch: string): string {
  const hf = join(scratch, 'real-dims-hf');
  const made = spawnSync(BENCH_PYTHON, ['-m', 'qwen35.make_checkpoint', '--out', hf, '--seed', '7', '--layers', '2', '--preset', 'real-dims'], {
    cwd: join(ROOT, 'native'),
    encoding: 'utf8',
    timeout: 900_000,
  });
  if (made.status !== 0) throw new Error(`make_checkpoint --preset real-dims failed: ${made.stderr.slice(-800)}`);
  return convertToGguf(hf, join(scratch, 'real-dims-f32.gguf'), 'f32');
}

const firstDifference = (a: number[], b: number[]): number => {
  const at = a.findIndex((id, i) => id !== b[i]);
  return at === -1 ? Math.min(a.length, b.length) : at;
};

export const quantSuite: BenchSuite = {
  name: 'quant',
  async run(): Promise<Figure[]> {
    const preset = process.argv[process.argv.indexOf('--preset') + 1];
    const scratch = mkdtempSync(join(tmpdir(), 'wl-quant-bench-'));
    try {
      const source = process.env.WORLDLOOM_QUANT_BENCH_GGUF ?? (preset === 'real-dims' && process.argv.includes('--preset') ? realDimsF32(scratch) : tinyGguf('f32'));
      const label = process.env.WORLDLOOM_QUANT_BENCH_GGUF ? 'given file' : preset === 'real-dims' ? 'real-dims' : 'tiny fixture';
      // Seeded ids over the vocabulary's first 600 entries: the same prompt for every file.
      let seed = 7;
      const prompt = Array.from({ length: PROMPT_TOKENS }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), 3 + (seed % 600)));
      const f32 = await measure(source, prompt);
      const figures: Figure[] = [
        { name: `f32 (${label}): size`, value: f32.bytes / 1e6, unit: 'MB' },
        { name: `f32 (${label}): decode`, value: f32.decodeRate, unit: 'tok/s' },
        { name: `f32 (${label}): prompt reading`, value: f32.promptRate, unit: 'tok/s' },
      ];
      for (const type of TYPES) {
        const file = (await quantizeGguf(source, join(scratch, `${type}.gguf`), type)).path;
        const m = await measure(file, prompt);
        const same = firstDifference(m.tokens, f32.tokens);
        figures.push(
          { name: `${type}: size against f32`, value: m.bytes / 1e6, unit: 'MB', ratio: m.bytes / f32.bytes },
          { name: `${type}: greedy tokens equal to f32's`, value: same, unit: `of ${f32.tokens.length}`, ratio: same / f32.tokens.length, higherIsBetter: true },
          { name: `${type}: decode against f32`, value: m.decodeRate, unit: 'tok/s', ratio: m.decodeRate / f32.decodeRate, higherIsBetter: true },
          { name: `${type}: prompt reading against f32`, value: m.promptRate, unit: 'tok/s', ratio: m.promptRate / f32.promptRate, higherIsBetter: true },
        );
        rmSync(file, { force: true });
      }
      return figures;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
