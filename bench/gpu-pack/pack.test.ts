// The GPU bench's pack, proven on this machine before any GPU machine sees it: the archive
// `npm run bench:gpu:pack` wrote, copied alone into an empty folder (no node_modules, no repository
// above it), unpacks and runs `run.sh --device cpu --small`, and its JSON holds every figure. The
// device run then only adds the GPU. Run by `npm run test:gpu-pack` after the pack is made (CI does
// both); not part of `npm run test:unit`, which has no pack to read.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PACK_ARCHIVE, PACK_LIMIT_BYTES } from './pack-layout';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACK_DIR = join(ROOT, 'dist', 'gpu-pack');
const ARCHIVE = join(PACK_DIR, PACK_ARCHIVE);
const PYTHON = join(ROOT, 'native', '.venv', 'bin', 'python');

/** No node_modules and no package.json in `dir` or any folder above it: nothing but the pack can serve the run. */
function nothingAbove(dir: string): string[] {
  const found: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    for (const name of ['node_modules', 'package.json']) if (existsSync(join(at, name))) found.push(join(at, name));
    if (at === dirname(at)) return found;
  }
}

interface Report {
  runtime: { execPath: string };
  quantized: { type: string; error?: string }[];
  bandwidth: { bytesPerSecond: number; source: string };
  models: {
    requestedDevice: string;
    fileType: string;
    weights: { layers: number };
    error?: string;
    measurement: {
      device: string;
      prefill: { tokens: number; tokensPerSecond: number }[];
      decode: { sequences: number; tokensPerSecond: number }[];
      memory: { engineBytes: number; processRssBytes: number };
    } | null;
    decodeVsLimit: { sequences: number; fractionOfLimit: number; bytesPerStep: number }[];
  }[];
  projections: { note: string }[];
}

describe('the GPU bench pack', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'worldloom-gpu-pack-test-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('fits the 60 MiB a lent machine leaves it', () => {
    if (!existsSync(ARCHIVE)) throw new Error(`${ARCHIVE} is missing: run npm run bench:gpu:pack first`);
    expect(statSync(ARCHIVE).size).toBeLessThanOrEqual(PACK_LIMIT_BYTES);
  });

  it('unpacked alone in an empty folder, runs on the CPU and writes every figure', () => {
    if (!existsSync(ARCHIVE)) throw new Error(`${ARCHIVE} is missing: run npm run bench:gpu:pack first`);
    const alone = join(scratch, 'alone');
    const unpacked = join(scratch, 'unpacked');
    const out = join(scratch, 'out');
    for (const dir of [alone, unpacked, out]) spawnSync('mkdir', ['-p', dir]);
    expect(nothingAbove(alone)).toEqual([]);
    copyFileSync(ARCHIVE, join(alone, PACK_ARCHIVE));
    copyFileSync(join(PACK_DIR, 'run.sh'), join(alone, 'run.sh'));

    const run = spawnSync('bash', [join(alone, 'run.sh'), '--device', 'cpu', '--small', '--out', out], {
      cwd: alone,
      encoding: 'utf8',
      // The test machine's Python with torch and transformers (the lent machine's python3 has its own).
      env: { PATH: process.env.PATH, HOME: scratch, PYTHON, UNPACK_DIR: unpacked, TMPDIR: scratch },
      timeout: 540_000,
    });
    expect(run.status, `run.sh failed:\n${run.stderr.slice(-3000)}`).toBe(0);
    // The pack's own Node, bench and Python sources ran, not the repository's.
    expect(run.stderr).toContain(`qwen35 from ${join(unpacked, 'worldloom-gpu-pack', 'python', 'qwen35')}`);
    // WORLDLOOM_GPU_PACK_KEEP=FILE keeps the run's JSON (the figures docs/models.md quotes).
    if (process.env.WORLDLOOM_GPU_PACK_KEEP) copyFileSync(join(out, 'gpu-bench.json'), process.env.WORLDLOOM_GPU_PACK_KEEP);
    const report = JSON.parse(readFileSync(join(out, 'gpu-bench.json'), 'utf8')) as Report;
    expect(report.runtime.execPath).toBe(join(unpacked, 'worldloom-gpu-pack', 'bin', 'node'));
    expect(report.bandwidth.bytesPerSecond).toBe(4.8e12);

    // The converter's f16 files, quantised by the pack's llama.cpp to what people run.
    expect(report.quantized.map((entry) => [entry.type, entry.error ?? 'written'])).toEqual([
      ['q4_k_m', 'written'], ['q8_0', 'written'], ['q4_k_m', 'written'], ['q8_0', 'written'],
    ]);
    expect(report.models.map((model) => `${model.requestedDevice} ${model.fileType} ${model.weights.layers}`).sort()).toEqual(
      ['cpu q4_k_m 4', 'cpu q4_k_m 8', 'cpu q8_0 4', 'cpu q8_0 8'],
    );
    for (const model of report.models) {
      expect(model.error, model.error).toBeUndefined();
      const measured = model.measurement!;
      expect(measured.device).toBe('cpu');
      expect(measured.prefill.map((figure) => figure.tokens)).toEqual([512, 8192]);
      expect(measured.decode.map((figure) => figure.sequences)).toEqual([1, 8, 32]);
      for (const figure of [...measured.prefill, ...measured.decode]) expect(figure.tokensPerSecond).toBeGreaterThan(0);
      expect(measured.memory.engineBytes).toBeGreaterThan(0);
      expect(measured.memory.processRssBytes).toBeGreaterThan(0);
      expect(model.decodeVsLimit.map((row) => row.sequences)).toEqual([1, 8, 32]);
      for (const row of model.decodeVsLimit) expect(row.fractionOfLimit).toBeGreaterThan(0);
      // 32 tokens reach more experts in a step than 1 does.
      expect(model.decodeVsLimit[2]!.bytesPerStep).toBeGreaterThan(model.decodeVsLimit[0]!.bytesPerStep);
    }
    for (const projection of report.projections) expect(projection.note).toMatch(/PROJECTION, not a measurement/);
  });
});
