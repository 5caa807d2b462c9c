// Many simulations at once (simulation/fan-out.ts), in one run:
// - against the project's stand-in OpenAI server answering each request after a fixed latency:
//   throughput of a policy expansion (K=4, depth 4: 340 simulations) and of a replay (64 recorded
//   steps) at concurrency 16, as a fraction of 16 ÷ latency (goal ≥ 0.8), and the same paths at
//   concurrency 1 as a fraction of 1 ÷ latency (goal ≥ 0.8, i.e. ≈ 1 ÷ latency);
// - the GGUF engine's aggregate decode rate with 8 steps in flight (8 generate calls at once,
//   each its own sequence of one llama.cpp context) against one at a time (goal ≥ 2×), on the
//   tiny fixture and, with `--preset real-dims` (or WORLDLOOM_FANOUT_GGUF=FILE), on a checkpoint
//   with Qwen3.5-35B-A3B's per-layer sizes.
//
// Expansion runs level by level, and its first levels hold fewer steps than the limit (4, then
// 16, 64, 256), so its best possible throughput at 16 is 340 ÷ 22 latencies = 0.966 of
// 16 ÷ latency (at depth 2 it would be 0.625); the figure's note says so.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GgufEngine } from '../src-main/engine/gguf/gguf-engine';
import { studioWithModel } from '../src-main/testing/contract-studio';
import { startFakeVllm, type FakeServer } from '../src-main/testing/fake-vllm-server';
import { convertToGguf, tinyGguf } from '../src-main/testing/gguf-fixtures';
import type { BenchSuite, Figure } from './bench';
import { BENCH_PYTHON } from './transformers-peer';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LATENCY_MS = 250;
const DECODE_TOKENS = 48;

/** Simulations per second of an expansion (K actions, D levels) and of a replay of `steps` recorded steps. */
async function pathsPerSecond(server: FakeServer, dir: string, concurrency: number, expansion: { k: number; depth: number }, steps: number) {
  const { studio, call, store } = await studioWithModel(dir, `c${concurrency}`, { kind: 'openai', baseUrl: server.url, concurrency });
  try {
    const root = store.createTrajectory({ title: 'bench', domain: 'terminal', systemPrompt: '', initialState: 'agent@sandbox:~$' });
    const script = Array.from({ length: expansion.k * expansion.depth }, (_, i) => `echo step-${i}`).join('\n');
    let started = performance.now();
    const expanded = await call('agents.expand', {
      jobId: 'bench-expand',
      nodeId: root.nodes[0]!.id,
      policy: { kind: 'script', name: 'bench', text: script },
      actions: expansion.k,
      samples: 1,
      depth: expansion.depth,
      sampling: { maxTokens: 64 },
    });
    const expandSeconds = (performance.now() - started) / 1000;
    const recorded = store.createTrajectory({ title: 'recorded', domain: 'terminal', systemPrompt: '', initialState: 'agent@sandbox:~$' });
    let parentId = recorded.nodes[0]!.id;
    for (let i = 0; i < steps; i++) parentId = store.addNode({ parentId, action: `ls dir-${i}`, observation: `file-${i}\nagent@sandbox:~$`, origin: 'real' }).id;
    started = performance.now();
    const replay = await call('reality.replay', { jobId: 'bench-replay', trajectoryId: recorded.trajectory.id, sampling: { maxTokens: 64 } });
    const replaySeconds = (performance.now() - started) / 1000;
    if (replay.failures.length || expanded.failures.length) throw new Error(`steps failed: ${JSON.stringify([...replay.failures, ...expanded.failures])}`);
    return { expansion: expanded.nodes.length / expandSeconds, expansionSteps: expanded.nodes.length, replay: replay.nodes.length / replaySeconds };
  } finally {
    await studio.dispose();
  }
}

/**
 * Aggregate decode tokens/s of `parallel` generate calls at once, one request each, on one
 * engine. Each prompt is read once before the timed round, so the timed round reuses it (prefix
 * reuse) and measures decoding, not prompt reading.
 */
async function aggregateDecode(engine: GgufEngine, parallel: number): Promise<number> {
  const prompt = Array.from({ length: 64 }, (_, i) => 10 + ((i * 7) % 50));
  const round = (maxTokens: number) =>
    Promise.all(
      Array.from({ length: parallel }, (_, i) =>
        engine.generateFromIds([{ id: `s${i}`, promptIds: [...prompt, 11 + i], sampling: { temperature: 0, topK: 0, topP: 1, maxTokens, seed: i, stop: [] } }], () => {}),
      ),
    );
  await round(1);
  const started = performance.now();
  const results = await round(DECODE_TOKENS);
  const tokens = results.flat().reduce((n, r) => n + r.completionTokens, 0);
  return tokens / ((performance.now() - started) / 1000);
}

async function ggufFigures(file: string, label: string): Promise<Figure[]> {
  const engine = await GgufEngine.load(file, { device: 'cpu', sequences: 8 });
  try {
    await aggregateDecode(engine, 1); // warm-up: first-use allocations are not the steady rate
    const one = await aggregateDecode(engine, 1);
    const eight = await aggregateDecode(engine, 8);
    return [
      { name: `${label} GGUF decode, 1 step at a time`, value: one, unit: 'tok/s' },
      {
        name: `${label} GGUF aggregate decode, 8 steps at once vs 1`,
        value: eight,
        unit: 'tok/s',
        ratio: eight / one,
        goal: 2,
        higherIsBetter: true,
        note: `8 concurrent generate calls as 8 sequences of one context (${engine.describe().notes[1]})`,
      },
    ];
  } finally {
    await engine.dispose();
  }
}

/** A real-dims GGUF (make_checkpoint --preset real-dims, 2 layers), made in a scratch folder. */
function realDimsGguf(scratch: string): string {
  const hf = join(scratch, 'hf');
  const made = spawnSync(BENCH_PYTHON, ['-m', 'qwen35.make_checkpoint', '--out', hf, '--seed', '7', '--layers', '2', '--preset', 'real-dims'], { cwd: join(ROOT, 'native'), encoding: 'utf8', timeout: 600_000 });
  if (made.status !== 0) throw new Error(`make_checkpoint --preset real-dims failed: ${made.stderr}`);
  return convertToGguf(hf, join(scratch, 'real-dims-f32.gguf'), 'f32');
}

export const fanoutSuite: BenchSuite = {
  name: 'fanout',
  async run() {
    const figures: Figure[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'wl-bench-fanout-'));
    process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
    const server = await startFakeVllm({ firstChunkDelayMs: LATENCY_MS, models: [{ id: 'bench-world', max_model_len: 262_144 }] });
    try {
      const limit = 1000 / LATENCY_MS;
      const many = await pathsPerSecond(server, dir, 16, { k: 4, depth: 4 }, 64);
      figures.push(
        { name: 'expansion K=4 D=4 at concurrency 16 vs 16 ÷ latency', value: many.expansion, unit: 'sims/s', ratio: many.expansion / (16 * limit), goal: 0.8, higherIsBetter: true, note: `${many.expansionSteps} simulations, ${LATENCY_MS} ms a request; the level sizes allow at most 0.966` },
        { name: 'replay of 64 steps at concurrency 16 vs 16 ÷ latency', value: many.replay, unit: 'steps/s', ratio: many.replay / (16 * limit), goal: 0.8, higherIsBetter: true },
      );
      const one = await pathsPerSecond(server, dir, 1, { k: 4, depth: 2 }, 16);
      figures.push(
        { name: 'expansion K=4 D=2 at concurrency 1 vs 1 ÷ latency', value: one.expansion, unit: 'sims/s', ratio: one.expansion / limit, goal: 0.8, higherIsBetter: true },
        { name: 'replay of 16 steps at concurrency 1 vs 1 ÷ latency', value: one.replay, unit: 'steps/s', ratio: one.replay / limit, goal: 0.8, higherIsBetter: true },
      );
    } finally {
      await server.close();
    }
    figures.push(...(await ggufFigures(tinyGguf('f32'), 'tiny')));
    const preset = process.argv.includes('--preset') ? process.argv[process.argv.indexOf('--preset') + 1] : undefined;
    const realDims = process.env.WORLDLOOM_FANOUT_GGUF ?? (preset === 'real-dims' ? realDimsGguf(dir) : undefined);
    if (realDims) figures.push(...(await ggufFigures(realDims, 'real-dims')));
    rmSync(dir, { recursive: true, force: true });
    return figures;
  },
};
