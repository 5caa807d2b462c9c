// `npm run bench:gpu`: decode and prefill of a checkpoint with Qwen3.5-35B-A3B's per-layer
// dimensions (make_checkpoint.py --preset real-dims, two layers, random weights) on this
// machine's GPU, through the GGUF engine (CUDA, Vulkan) and the ONNX engine (WebGPU, CUDA),
// each decode rate also given as a fraction of the memory-bandwidth limit: the bytes one
// decoded token must read (every weight but the experts, plus top-k of the experts) against
// the GPU's bandwidth. One prepared run of at most 8 minutes; never part of CI.
//
// WORLDLOOM_GPU_BENCH_HF: an existing checkpoint (else one is made with native/.venv);
// WORLDLOOM_GPU_BENCH_ONNX: its ONNX folder (else the ONNX rows are skipped with the reason);
// WORLDLOOM_GPU_BANDWIDTH_GBS: the GPU's memory bandwidth when nvidia-smi's name is not in the table.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGgufFileInfo } from 'node-llama-cpp';
import type { DeviceChoice } from '../src-main/common/device';
import { GgufEngine } from '../src-main/engine/gguf/gguf-engine';
import { OnnxEngine } from '../src-main/engine/onnx/onnx-engine';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = join(ROOT, 'native', '.venv', 'bin', 'python');
const DEADLINE = Date.now() + 8 * 60_000;
const DECODE_TOKENS = 128;
const PROMPT_TOKENS = 512;

/** Peak memory bandwidth, GB/s, of GPUs the lent machines and users are likely to have. */
const BANDWIDTH_GBS: [RegExp, number][] = [
  [/H200/i, 4800], [/H100.*PCIe/i, 2000], [/H100/i, 3350], [/A100.*80/i, 2039], [/A100/i, 1555], [/L40S/i, 864], [/L4\b/i, 300],
  [/RTX 5090/i, 1792], [/RTX 4090/i, 1008], [/RTX 4080/i, 717], [/RTX 3090/i, 936], [/Arc.*B580/i, 456], [/Arc.*A770/i, 560],
];

interface Row { engine: string; device: string; decode?: number; prefill?: number; fraction?: number; note: string }

function gpuBandwidth(): { name: string; gbs: number | null } {
  const smi = spawnSync('nvidia-smi', ['--query-gpu=name', '--format=csv,noheader'], { encoding: 'utf8' });
  const name = smi.status === 0 ? smi.stdout.trim().split('\n')[0]! : 'unknown GPU';
  const fromEnv = Number(process.env.WORLDLOOM_GPU_BANDWIDTH_GBS);
  if (fromEnv > 0) return { name, gbs: fromEnv };
  return { name, gbs: BANDWIDTH_GBS.find(([pattern]) => pattern.test(name))?.[1] ?? null };
}

function python(args: string[]): void {
  const result = spawnSync(PYTHON, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed (${result.status})`);
}

/** Bytes one decoded token reads from a GGUF: all weights except the embedding table, experts at top-k / count. */
async function bytesPerToken(file: string): Promise<number> {
  const info = await readGgufFileInfo(file, { readTensorInfo: true });
  const arch = (info.metadata as unknown as Record<string, Record<string, unknown>>)[String(info.metadata.general.architecture)] ?? {};
  const share = Number(arch.expert_used_count ?? 1) / Number(arch.expert_count ?? 1);
  const bytesPerElement: Record<number, number> = { 0: 4, 1: 2, 8: 34 / 32, 30: 2 };
  let total = 0;
  for (const tensor of info.tensorInfo ?? []) {
    if (tensor.name === 'token_embd.weight') continue;
    const elements = tensor.dimensions.reduce<number>((product, d) => product * Number(d), 1);
    const bytes = elements * (bytesPerElement[tensor.ggmlType] ?? 4);
    total += /_exps\./.test(tensor.name) ? bytes * share : bytes;
  }
  return total;
}

type Timed = { decode: number; prefill: number };

async function measure(engine: Pick<GgufEngine, 'generateFromIds'>, vocabulary: number): Promise<Timed> {
  const prompt = Array.from({ length: PROMPT_TOKENS }, (_, i) => 3 + ((i * 7919) % (vocabulary - 3)));
  const once = async (): Promise<Timed> => {
    const times: number[] = [];
    const [result] = await engine.generateFromIds(
      [{ id: 'g', promptIds: prompt, sampling: { temperature: 0, topK: 0, topP: 1, maxTokens: DECODE_TOKENS, seed: 0, stop: [] } }],
      (event) => { if (event.tokenId !== undefined) times.push(performance.now()); },
    );
    if (result!.finishReason === 'error') throw new Error(result!.error);
    return { decode: (1000 * (times.length - 1)) / (times.at(-1)! - times[0]!), prefill: result!.timings.prefillMs };
  };
  await once();
  return once();
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'worldloom-bench-gpu-'));
  const rows: Row[] = [];
  try {
    let hf = process.env.WORLDLOOM_GPU_BENCH_HF ? resolve(process.env.WORLDLOOM_GPU_BENCH_HF) : '';
    if (!hf) {
      if (!existsSync(PYTHON)) throw new Error(`Set WORLDLOOM_GPU_BENCH_HF or run npm run python:setup (${PYTHON} is missing).`);
      hf = join(scratch, 'hf');
      python(['-m', 'qwen35.make_checkpoint', '--out', hf, '--seed', '7', '--layers', '2', '--preset', 'real-dims']);
    }
    const files: Record<string, string> = {};
    for (const type of ['f32', 'q8_0'] as const) {
      files[type] = join(scratch, `real-dims-${type}.gguf`);
      python(['-m', 'qwen35.convert', '--to', 'gguf', '--from', hf, '--out', files[type]!, '--type', type]);
    }
    const gpu = gpuBandwidth();
    for (const device of ['cuda', 'vulkan'] as DeviceChoice[]) {
      for (const [type, file] of Object.entries(files)) {
        if (Date.now() > DEADLINE - 60_000) { rows.push({ engine: `gguf ${type}`, device, note: 'skipped: out of time' }); continue; }
        let engine: GgufEngine;
        try {
          engine = await GgufEngine.load(file, { device, sequences: 1, contextLength: 2048 });
        } catch (error) {
          rows.push({ engine: `gguf ${type}`, device, note: `not run: ${(error as Error).message}` });
          continue;
        }
        try {
          const vocabulary = Number((await readGgufFileInfo(file)).metadata.tokenizer?.ggml?.tokens?.length ?? 1000);
          const timed = await measure(engine, vocabulary);
          const limit = gpu.gbs ? (gpu.gbs * 1e9) / (await bytesPerToken(file)) : null;
          rows.push({ engine: `gguf ${type}`, device: engine.describe().device, ...timed, fraction: limit ? timed.decode / limit : undefined,
            note: engine.describe().notes[1] ?? '' });
        } finally {
          await engine.dispose();
        }
      }
    }
    const onnx = process.env.WORLDLOOM_GPU_BENCH_ONNX ? resolve(process.env.WORLDLOOM_GPU_BENCH_ONNX) : null;
    for (const device of ['webgpu', 'cuda'] as DeviceChoice[]) {
      if (!onnx) { rows.push({ engine: 'onnx fp32', device, note: 'not run: set WORLDLOOM_GPU_BENCH_ONNX to the checkpoint\'s ONNX folder' }); continue; }
      if (Date.now() > DEADLINE - 60_000) { rows.push({ engine: 'onnx fp32', device, note: 'skipped: out of time' }); continue; }
      try {
        const engine = await OnnxEngine.load(onnx, { device, prefixReuse: false });
        try {
          const timed = await measure(engine, 1000);
          const limit = gpu.gbs ? (gpu.gbs * 1e9) / (await bytesPerToken(files.f32!)) : null;
          rows.push({ engine: 'onnx fp32', device: engine.describe().device, ...timed, fraction: limit ? timed.decode / limit : undefined, note: '' });
        } finally {
          await engine.dispose();
        }
      } catch (error) {
        rows.push({ engine: 'onnx fp32', device, note: `not run: ${(error as Error).message}` });
      }
    }
    process.stdout.write(`GPU: ${gpu.name}, ${gpu.gbs ? `${gpu.gbs} GB/s` : 'bandwidth unknown (set WORLDLOOM_GPU_BANDWIDTH_GBS)'}\n`);
    process.stdout.write(`checkpoint: ${hf}; prompt ${PROMPT_TOKENS} tokens, ${DECODE_TOKENS} greedy tokens\n`);
    for (const row of rows) {
      const figures = row.decode === undefined ? '' :
        `decode ${row.decode.toFixed(1)} tok/s${row.fraction === undefined ? '' : ` (${(100 * row.fraction).toFixed(1)}% of the bandwidth limit)`}, ` +
        `prefill ${row.prefill!.toFixed(0)} ms; `;
      process.stdout.write(`${row.engine.padEnd(10)} ${row.device.padEnd(28)} ${figures}${row.note}\n`);
    }
    process.stdout.write(`${JSON.stringify({ gpu, rows })}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:gpu: ${(error as Error).message}\n`);
  process.exit(1);
});
