// What opening a model file in a child process first (src-main/engine/model-probe.ts) adds to
// loading it: GgufEngine.load on a file never opened before (probe, then load) against the same
// load once the verdict is kept (load only), each the median of three rounds with a fresh verdict
// cache. On the tiny fixture, and on a real-dims checkpoint (Qwen3.5-35B-A3B's per-layer sizes,
// 2 layers, f32) with WORLDLOOM_PROBE_GGUF=FILE or `--preset real-dims` (made in a scratch folder).
// The probe runs once per file (per size and modification time), so this is a first-open cost.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GgufEngine } from '../src-main/engine/gguf/gguf-engine';
import { convertToGguf, tinyGguf } from '../src-main/testing/gguf-fixtures';
import type { BenchSuite, Figure } from './bench';
import { BENCH_PYTHON } from './transformers-peer';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 3;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timedLoad(path: string): Promise<number> {
  const started = performance.now();
  const engine = await GgufEngine.load(path, { device: 'cpu', sequences: 1, threads: 1, contextLength: 1024 });
  const ms = performance.now() - started;
  await engine.dispose();
  return ms;
}

async function probeFigures(path: string, label: string, scratch: string): Promise<Figure[]> {
  const first: number[] = [];
  const kept: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    process.env.WORLDLOOM_CACHE_DIR = join(scratch, `cache-${label}-${round}`);
    first.push(await timedLoad(path));
    kept.push(await timedLoad(path));
  }
  const withProbe = median(first);
  const without = median(kept);
  const gib = (statSync(path).size / 2 ** 30).toFixed(2);
  return [
    { name: `${label}: load on first open (child probe, then load)`, value: withProbe, unit: 'ms', note: `${gib} GiB file` },
    { name: `${label}: load with the verdict kept (load only)`, value: without, unit: 'ms' },
    { name: `${label}: first open vs a kept verdict`, value: withProbe - without, unit: 'ms added', ratio: withProbe / without },
  ];
}

function realDimsGguf(scratch: string): string {
  const hf = join(scratch, 'hf');
  const made = spawnSync(BENCH_PYTHON, ['-m', 'qwen35.make_checkpoint', '--out', hf, '--seed', '7', '--layers', '2', '--preset', 'real-dims'], { cwd: join(ROOT, 'native'), encoding: 'utf8', timeout: 600_000 });
  if (made.status !== 0) throw new Error(`make_checkpoint --preset real-dims failed: ${made.stderr}`);
  return convertToGguf(hf, join(scratch, 'real-dims-f32.gguf'), 'f32');
}

export const probeSuite: BenchSuite = {
  name: 'probe',
  async run() {
    const scratch = mkdtempSync(join(tmpdir(), 'wl-bench-probe-'));
    const saved = process.env.WORLDLOOM_CACHE_DIR;
    try {
      const figures = await probeFigures(tinyGguf('f32'), 'tiny', scratch);
      const preset = process.argv.includes('--preset') ? process.argv[process.argv.indexOf('--preset') + 1] : undefined;
      const realDims = process.env.WORLDLOOM_PROBE_GGUF ?? (preset === 'real-dims' ? realDimsGguf(scratch) : undefined);
      if (realDims) figures.push(...(await probeFigures(realDims, 'real-dims', scratch)));
      return figures;
    } finally {
      if (saved === undefined) delete process.env.WORLDLOOM_CACHE_DIR;
      else process.env.WORLDLOOM_CACHE_DIR = saved;
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
