// The GPU bench: GGUF files with Qwen3.5-35B-A3B's per-layer sizes (made by bench/gpu-pack/run.sh,
// which also carries this file, bundled, to a machine with no Node) measured through the app's GGUF
// engine on each device asked for: prompt reading, aggregate decode at several parallel sequences,
// memory; each decode rate against the rate the GPU's memory bandwidth allows for the bytes its
// steps read; the full 40-layer model's rates projected from two depths of the same layers.
// Writes one JSON (--out) and prints a summary. Never part of CI: see docs/models.md "GPU figures".
//
// Usage: bench/gpu.ts --model A.gguf [--model B.gguf …] [--device vulkan --device cpu] --out FILE.json
//        [--quantize q8_0,q4_k_m [--drop-inputs]] [--deadline-seconds 420] [--bandwidth-gbs N] [--prompt-lengths 512,8192] [--parallel 1,8,32]
//        [--decode-tokens 64] [--cpu-decode-tokens 16] [--checkpoint TEXT]

import { spawnSync } from 'node:child_process';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { DEVICE_CHOICES, type DeviceChoice } from '../src-main/common/device';
import { isQuantType, quantizeGguf, type QuantType } from '../src-main/engine/gguf/quantize';
import { usableCores } from '../src-main/engine/usable-cores';
import { REFERENCE_MODEL } from './gpu/figures';
import { readGgufSummary } from './gpu/gguf-weights';
import { measureModel } from './gpu/measure';
import { decodeRows, goals, project, summaryLines, type Bandwidth, type MeasuredModel, type Projection } from './gpu/report';

/** Peak memory bandwidth, GB/s, of GPUs the lent machines and users are likely to have. */
const BANDWIDTH_GBS: [RegExp, number][] = [
  [/H200/i, 4800], [/H100.*PCIe/i, 2000], [/H100/i, 3350], [/A100.*80/i, 2039], [/A100/i, 1555], [/L40S/i, 864], [/L4\b/i, 300],
  [/RTX 5090/i, 1792], [/RTX 4090/i, 1008], [/RTX 4080/i, 717], [/RTX 3090/i, 936], [/Arc.*B580/i, 456], [/Arc.*A770/i, 560],
];
/** The machine the pack is made for; a run with no GPU still gives its rates as fractions of it. */
const REFERENCE_GPU = { name: 'NVIDIA H200', gbs: 4800 };

function numbers(text: string, flag: string): number[] {
  const values = text.split(',').map(Number);
  if (values.some((value) => !Number.isInteger(value) || value < 1)) throw new Error(`${flag} takes whole numbers separated by commas, not ${text}`);
  return values;
}

function gpuName(): string | null {
  const smi = spawnSync('nvidia-smi', ['--query-gpu=name', '--format=csv,noheader'], { encoding: 'utf8' });
  return smi.status === 0 ? smi.stdout.trim().split('\n')[0]! : null;
}

function bandwidthOf(gpu: string | null, override: string | undefined): Bandwidth {
  if (override) {
    const gbs = Number(override);
    if (!(gbs > 0)) throw new Error(`--bandwidth-gbs takes a positive number of GB/s, not ${override}`);
    return { bytesPerSecond: gbs * 1e9, source: `${gbs} GB/s as given (--bandwidth-gbs)` };
  }
  const known = gpu ? BANDWIDTH_GBS.find(([pattern]) => pattern.test(gpu))?.[1] : undefined;
  if (gpu && known) return { bytesPerSecond: known * 1e9, source: `${gpu}: ${known} GB/s peak` };
  return {
    bytesPerSecond: REFERENCE_GPU.gbs * 1e9,
    source: `${REFERENCE_GPU.name}'s ${REFERENCE_GPU.gbs} GB/s peak, the machine this bench is made for (${gpu ? `${gpu} is not in the table; set --bandwidth-gbs` : 'no NVIDIA GPU here'})`,
  };
}

interface Quantized { from: string; type: string; file?: string; seconds?: number; error?: string }

/**
 * Each model written in each type with the llama.cpp node-llama-cpp ships (`worldloom quantize`'s
 * code): the files measured instead of the inputs (f16 from the converter, which writes no K-quants).
 */
async function quantizeAll(inputs: string[], types: string[], dropInputs: boolean): Promise<Quantized[]> {
  const done: Quantized[] = [];
  for (const from of inputs) {
    for (const type of types) {
      if (!isQuantType(type)) throw new Error(`--quantize: ${type} is not a type worldloom quantize writes`);
      const file = from.replace(/(-f16|-f32)?\.gguf$/, `-${type}.gguf`);
      try {
        const result = await quantizeGguf(from, file, type as QuantType);
        done.push({ from, type, file, seconds: result.seconds });
        process.stderr.write(`bench:gpu: wrote ${file} (${type}) in ${result.seconds.toFixed(1)} s\n`);
      } catch (error) {
        done.push({ from, type, error: (error as Error).message });
        process.stderr.write(`bench:gpu: ${type} of ${from} not written: ${(error as Error).message}\n`);
      }
    }
    if (dropInputs) rmSync(from, { force: true });
  }
  return done;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      model: { type: 'string', multiple: true, default: [] },
      device: { type: 'string', multiple: true, default: [] },
      out: { type: 'string' },
      'deadline-seconds': { type: 'string', default: '420' },
      'bandwidth-gbs': { type: 'string' },
      'prompt-lengths': { type: 'string', default: '512,8192' },
      parallel: { type: 'string', default: '1,8,32' },
      'decode-tokens': { type: 'string', default: '64' },
      'cpu-decode-tokens': { type: 'string', default: '16' },
      checkpoint: { type: 'string', default: '' },
      quantize: { type: 'string', default: '' },
      'drop-inputs': { type: 'boolean', default: false },
    },
  });
  if (values.model.length === 0 || !values.out) throw new Error('give --model FILE.gguf (one or more) and --out FILE.json; bench/gpu-pack/run.sh makes the models');
  const devices = (values.device.length ? values.device : ['vulkan', 'cpu']) as DeviceChoice[];
  for (const device of devices) if (!DEVICE_CHOICES.includes(device)) throw new Error(`--device ${device}: choose among ${DEVICE_CHOICES.join(', ')}`);
  const deadline = Date.now() + 1000 * numbers(values['deadline-seconds'], '--deadline-seconds')[0]!;
  const promptLengths = numbers(values['prompt-lengths'], '--prompt-lengths');
  const parallel = numbers(values.parallel, '--parallel');
  const gpu = gpuName();
  const bandwidth = bandwidthOf(gpu, values['bandwidth-gbs']);

  const quantized = values.quantize ? await quantizeAll(values.model, values.quantize.split(','), values['drop-inputs']) : [];
  const measured = values.quantize ? quantized.flatMap((entry) => (entry.file ? [entry.file] : [])) : values.model;
  if (measured.length === 0) throw new Error(`no model to measure: ${quantized.map((entry) => entry.error).join('; ')}`);
  const files = await Promise.all(measured.map(async (file) => ({ file, bytes: statSync(file).size, ...(await readGgufSummary(file)) })));
  // Deepest first, smallest encoding first: if time runs out, the figures closest to what people run are kept.
  files.sort((a, b) => b.weights.layers - a.weights.layers || a.bytes - b.bytes);
  const models: MeasuredModel[] = [];
  for (const device of devices) {
    for (const file of files) {
      const model: MeasuredModel = { file: file.file, fileType: file.fileType, fileBytes: file.bytes, weights: file.weights, requestedDevice: device, measurement: null };
      models.push(model);
      if (Date.now() > deadline) { model.error = 'out of time'; continue; }
      try {
        model.measurement = await measureModel(file.file, file.vocabulary, {
          device,
          promptLengths,
          parallel,
          decodeTokens: numbers(device === 'cpu' ? values['cpu-decode-tokens'] : values['decode-tokens'], '--decode-tokens')[0]!,
          decodePromptTokens: 32,
          deadline,
        });
      } catch (error) {
        model.error = (error as Error).message;
      }
      process.stderr.write(`${summaryLines([model], [], bandwidth).join('\n')}\n`);
    }
  }
  const projections: Projection[] = [];
  for (const device of devices) {
    const measured = models.filter((model) => model.requestedDevice === device && model.measurement);
    for (const fileType of new Set(measured.map((model) => model.fileType))) {
      const same = measured.filter((model) => model.fileType === fileType).sort((a, b) => a.weights.layers - b.weights.layers);
      const projection = same.length >= 2 ? project(same[0]!, same.at(-1)!, bandwidth) : null;
      if (projection) projections.push(projection);
    }
  }
  const report = {
    bench: 'gpu',
    date: new Date().toISOString(),
    runtime: { node: process.version, execPath: process.execPath },
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, usableCores: usableCores(), memoryBytes: totalmem(), gpu },
    bandwidth,
    referenceModel: REFERENCE_MODEL,
    checkpoint: values.checkpoint,
    quantized,
    method:
      'prompt reading: one sequence, greedy, the engine\'s prefill time; decode: N sequences of one llama.cpp context with distinct 32-token ' +
      'prompts, greedy, tokens counted while all N were decoding; bytes a step reads: every weight but the embedding table, the routed ' +
      'experts at the share N tokens reach on uniform routing (random weights route about uniformly)',
    models: models.map((model) => ({ ...model, decodeVsLimit: decodeRows(model, bandwidth) })),
    projections,
    goals: models.filter((model) => model.requestedDevice !== 'cpu').flatMap((model) => goals(model, bandwidth)),
  };
  writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`bandwidth: ${bandwidth.source}\n${summaryLines(models, projections, bandwidth).join('\n')}\nwrote ${values.out}\n`);
  if (!models.some((model) => model.measurement)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:gpu: ${(error as Error).message}\n`);
  process.exit(1);
});
