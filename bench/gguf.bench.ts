// The GGUF engine (llama.cpp through node-llama-cpp, CPU build) beside transformers and the
// ONNX engine on the same checkpoint, all in one run:
// - decode tokens/s against transformers (PyTorch, CPU), greedy, same prompt ids, same thread
//   count, identical tokens required (f32 file, F32 key/value cache); goal ≥ 3×
// - prompt reading tokens/s beside it, against transformers' (goal ≥ 1×: a world model's prompt is
//   the whole history, so reading it is most of a step) and the ONNX engine's, for the f32 file and
//   for the bf16 and q8_0 files (llama.cpp's CPU routed-expert product has no tiled f32 kernel;
//   bf16 and q8_0 have denser dot products: docs/models.md, "Prompt reading")
// - prompt reading at each batch size llama.cpp could be given (n_batch, which node-llama-cpp
//   also makes the micro-batch n_ubatch) against the engine's default (PROMPT_BATCH)
// - decode against the ONNX engine's fp32 folder, when there is one (the faster engine is the
//   one the goal above is for)
// - the q8_0 file's decode against the f32 file's (a quantised file should be faster); goal > 1
// - resample ×8 from ≥ 1,500 tokens of history under the model's template: prefix reuse vs none
//
// - the bytes of weights each decoded token reads (the file's tensors: all but the routed experts
//   whole, experts_used of experts of those, one row of the embedding) and this machine's memory
//   bandwidth (a one-thread copy loop, measured in the same run), so every decode rate is also
//   printed as a fraction of the rate that bandwidth allows (bandwidth / bytes per token)
//
// The checkpoint: WORLDLOOM_GGUF_BENCH_HF, else with `--preset real-dims` one made in a scratch
// folder by make_checkpoint.py --preset real-dims (Qwen3.5-35B-A3B's per-layer sizes, 2 layers,
// 6.7 GB of fp32), else the tiny fixture; its ONNX folder: WORLDLOOM_GGUF_BENCH_ONNX, else the tiny
// fixture's tokens-fp32 when benching the fixture. A figure whose runs did not produce
// identical tokens gets ratio 0, so it shows as missed.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGgufFileInfo } from 'node-llama-cpp';
import type { GenerateRequest } from '../src-main/common/engine';
import { GgufEngine } from '../src-main/engine/gguf/gguf-engine';
import { OnnxEngine } from '../src-main/engine/onnx/onnx-engine';
import { longHistory, withAction } from '../src-main/testing/engine-bench';
import { TINY_HF, TINY_ONNX, tinyGguf } from '../src-main/testing/gguf-fixtures';
import type { BenchSuite, Figure } from './bench';
import { BENCH_PYTHON, transformersPeerRuns } from './transformers-peer';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = BENCH_PYTHON;
const THREADS = 1;
const DECODE_TOKENS = 64;
const ROUNDS = 3;
/** Batch sizes tried for prompt reading (the engine's default is one of them). */
const PROMPT_BATCHES = [64, 128, 256, 512];

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const same = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);

interface Run {
  tokens: number[];
  prefillMs: number;
  tokensPerSecond: number;
}

type IdsEngine = Pick<GgufEngine, 'generateFromIds'>;

/** Prompt tokens read per second: the engine reads all but the last (generation evaluates that one). */
const readRate = (prompt: readonly number[], run: Run): number => (1000 * (prompt.length - 1)) / run.prefillMs;

/** Greedy tokens of one prompt, timed from the first generated token to the last (decode steps only). */
async function timedRun(engine: IdsEngine, prompt: number[], maxTokens = DECODE_TOKENS): Promise<Run> {
  const tokens: number[] = [];
  const times: number[] = [];
  const [result] = await engine.generateFromIds(
    [{ id: 'bench', promptIds: prompt, sampling: { temperature: 0, topK: 0, topP: 1, maxTokens, seed: 0, stop: [] } }],
    (event) => {
      if (event.tokenId === undefined) return;
      tokens.push(event.tokenId);
      times.push(performance.now());
    },
  );
  if (result!.finishReason === 'error') throw new Error(`bench generation failed: ${result!.error}`);
  return { tokens, prefillMs: result!.timings.prefillMs, tokensPerSecond: (1000 * (times.length - 1)) / (times.at(-1)! - times[0]!) };
}

async function runs(engine: IdsEngine, prompt: number[]): Promise<Run[]> {
  await timedRun(engine, prompt);
  const out: Run[] = [];
  for (let round = 0; round < ROUNDS; round++) out.push(await timedRun(engine, prompt));
  return out;
}

/** make_checkpoint.py --preset real-dims (2 layers: one linear-attention, one full) in `scratch`. */
function realDimsCheckpoint(scratch: string): string {
  const hf = join(scratch, 'real-dims-hf');
  const made = spawnSync(PYTHON, ['-m', 'qwen35.make_checkpoint', '--out', hf, '--seed', '7', '--layers', '2', '--preset', 'real-dims'], {
    cwd: join(ROOT, 'native'), encoding: 'utf8', timeout: 900_000,
  });
  if (made.status !== 0) throw new Error(`make_checkpoint --preset real-dims failed: ${made.stderr.slice(-800)}`);
  return hf;
}

function convert(hf: string, out: string, type: 'f32' | 'bf16' | 'q8_0'): string {
  const result = spawnSync(PYTHON, ['-m', 'qwen35.convert', '--to', 'gguf', '--from', hf, '--out', out, '--type', type], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`python -m qwen35.convert --to gguf --type ${type} failed: ${result.stderr.slice(-800)}`);
  return out;
}

/**
 * Bytes of weights one decoded token reads from a GGUF: every tensor once, except the routed
 * experts (experts_used of expert_count of each stacked tensor) and the token embedding (one row).
 * Each tensor's size is the distance to the next one's offset (the file's alignment padding,
 * at most 32 bytes a tensor, is counted with it). The key/value cache is left out.
 */
async function activeBytesPerToken(file: string): Promise<{ bytes: number; total: number }> {
  const info = await readGgufFileInfo(file, { readTensorInfo: true, logWarnings: false });
  const metadata = info.architectureMetadata as { expert_count?: number; expert_used_count?: number };
  const share = metadata.expert_count ? (metadata.expert_used_count ?? metadata.expert_count) / metadata.expert_count : 1;
  const tensors = [...(info.tensorInfo ?? [])].sort((a, b) => Number(a.fileOffset) - Number(b.fileOffset));
  const end = statSync(file).size;
  let bytes = 0;
  let total = 0;
  tensors.forEach((tensor, i) => {
    const size = Number(tensors[i + 1]?.fileOffset ?? end) - Number(tensor.fileOffset);
    total += size;
    if (tensor.name.includes('_exps.')) bytes += size * share;
    else if (tensor.name === 'token_embd.weight') bytes += size / Number(tensor.dimensions.at(-1) ?? 1);
    else bytes += size;
  });
  return { bytes, total };
}

/**
 * This machine's memory bandwidth as one thread sees it: copies of a 256 MiB buffer (far past any
 * cache), bytes read plus bytes written per second, the best of five.
 */
function copyBandwidth(): number {
  const size = 256 * 1024 * 1024;
  const source = Buffer.alloc(size, 1);
  const target = Buffer.alloc(size);
  source.copy(target);
  let best = 0;
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    source.copy(target);
    const seconds = (performance.now() - started) / 1000;
    best = Math.max(best, (2 * size) / seconds);
  }
  return best;
}

/** "… tok/s is 12% of the 140 tok/s that 11.2 GB/s allows for 80 MB a token". */
function ofLimit(rate: number, bytesPerToken: number, bandwidth: number): string {
  const limit = bandwidth / bytesPerToken;
  return `${((100 * rate) / limit).toFixed(0)}% of the ${limit.toFixed(1)} tok/s that ${(bandwidth / 1e9).toFixed(1)} GB/s allows for ` +
    `${(bytesPerToken / 1e6).toFixed(1)} MB of weights a token`;
}

/**
 * Prompt reading at each batch size of PROMPT_BATCHES against the engine's default, the same
 * prompt on a fresh context each (prefix reuse off), medians of ROUNDS after a warm-up.
 */
async function promptBatchFigures(file: string, prompt: number[], label: string): Promise<Figure[]> {
  const rates = new Map<number | 'default', number>();
  for (const batchSize of ['default' as const, ...PROMPT_BATCHES]) {
    const engine = await GgufEngine.load(file, {
      device: 'cpu', threads: THREADS, sequences: 1, prefixReuse: false, contextLength: 4096, ...(batchSize === 'default' ? {} : { batchSize }),
    });
    try {
      const reads: number[] = [];
      await timedRun(engine, prompt, 1);
      for (let round = 0; round < ROUNDS; round++) reads.push(readRate(prompt, await timedRun(engine, prompt, 1)));
      rates.set(batchSize, median(reads));
    } finally {
      await engine.dispose();
    }
  }
  const base = rates.get('default')!;
  return PROMPT_BATCHES.map((batchSize) => ({
    name: `GGUF ${label}prompt reading at n_batch ${batchSize} vs the default`,
    value: rates.get(batchSize)!,
    unit: 'tok/s',
    ratio: rates.get(batchSize)! / base,
    higherIsBetter: true,
    note: `the engine's default (PROMPT_BATCH) ${base.toFixed(1)} tok/s; ${prompt.length}-token prompt, ${THREADS} thread; for tuning, no goal`,
  }));
}

/** Resample ×8 of one node, the second call timed (the first computed the prompt on every sequence). */
async function resample(file: string, prefixReuse: boolean, history: GenerateRequest['messages']): Promise<{ ms: number; tokens: string[]; cached: number; promptTokens: number }> {
  const engine = await GgufEngine.load(file, { device: 'cpu', threads: THREADS, sequences: 8, prefixReuse, contextLength: 4096 });
  try {
    const requests = Array.from({ length: 8 }, (_, seed): GenerateRequest => ({
      id: String(seed), messages: history, sampling: { temperature: 0.8, topK: 20, topP: 0.95, maxTokens: 32, seed, stop: [] },
    }));
    await engine.generate(requests, () => {});
    const started = performance.now();
    const results = await engine.generate(requests, () => {});
    return {
      ms: performance.now() - started,
      tokens: results.map((result) => result.text),
      cached: results.reduce((sum, result) => sum + result.cachedPromptTokens, 0),
      promptTokens: results[0]!.promptTokens,
    };
  } finally {
    await engine.dispose();
  }
}

export const ggufSuite: BenchSuite = {
  name: 'gguf',
  async run() {
    if (!existsSync(PYTHON)) throw new Error(`The Python tooling is not set up (${PYTHON}): run npm run python:setup first.`);
    const preset = process.argv.includes('--preset') ? process.argv[process.argv.indexOf('--preset') + 1] : undefined;
    const scratch = mkdtempSync(join(tmpdir(), 'worldloom-gguf-bench-'));
    const custom = process.env.WORLDLOOM_GGUF_BENCH_HF ?? (preset === 'real-dims' ? realDimsCheckpoint(scratch) : undefined);
    const hf = custom ? resolve(custom) : TINY_HF;
    const onnx = process.env.WORLDLOOM_GGUF_BENCH_ONNX ? resolve(process.env.WORLDLOOM_GGUF_BENCH_ONNX) : custom ? null : TINY_ONNX;
    const label = custom ? 'real-dims ' : 'tiny ';
    const figures: Figure[] = [];
    try {
      const f32 = custom ? convert(hf, join(scratch, 'model-f32.gguf'), 'f32') : tinyGguf('f32');
      const q8 = custom ? convert(hf, join(scratch, 'model-q8_0.gguf'), 'q8_0') : tinyGguf('q8_0');
      const bf16 = custom ? convert(hf, join(scratch, 'model-bf16.gguf'), 'bf16') : tinyGguf('bf16');

      const engine = await GgufEngine.load(f32, { device: 'cpu', threads: THREADS, sequences: 1, prefixReuse: false, contextLength: 4096 });
      let ours: Run[];
      let prompt: number[];
      let history: GenerateRequest['messages'];
      try {
        prompt = await engine.tokenize(await engine.renderPrompt(withAction(await longHistory(engine, 200), 'uptime')));
        history = withAction(await longHistory(engine, 1500), 'uptime');
        ours = await runs(engine, prompt);
      } finally {
        await engine.dispose();
      }
      const quantised = await GgufEngine.load(q8, { device: 'cpu', threads: THREADS, sequences: 1, prefixReuse: false, contextLength: 4096 });
      const q8Runs = await runs(quantised, prompt).finally(() => quantised.dispose());
      const halved = await GgufEngine.load(bf16, { device: 'cpu', threads: THREADS, sequences: 1, prefixReuse: false, contextLength: 4096 });
      const bf16Runs = await runs(halved, prompt).finally(() => halved.dispose());
      const theirs = transformersPeerRuns(hf, prompt, { tokens: DECODE_TOKENS, threads: THREADS, rounds: ROUNDS }).map((round) => ({
        tokens: round.tokens, prefillMs: round.prefillMs, tokensPerSecond: round.decodeTokensPerSecond,
      }));

      const oursRate = median(ours.map((run) => run.tokensPerSecond));
      const theirRate = median(theirs.map((run) => run.tokensPerSecond));
      const bandwidth = copyBandwidth();
      const f32Bytes = await activeBytesPerToken(f32);
      const q8Bytes = await activeBytesPerToken(q8);
      figures.push({
        name: 'memory bandwidth (one-thread copy loop)',
        value: bandwidth / 1e9,
        unit: 'GB/s',
        note: `bytes read + written per second copying 256 MiB, best of 5; f32 file ${(f32Bytes.bytes / 1e6).toFixed(1)} MB of ` +
          `${(f32Bytes.total / 1e6).toFixed(1)} MB read per decoded token, q8_0 ${(q8Bytes.bytes / 1e6).toFixed(1)} MB; ` +
          `3× transformers would be ${((100 * 3 * theirRate) / (bandwidth / f32Bytes.bytes)).toFixed(0)}% of the f32 limit`,
      });
      const identical = theirs.every((peer) => same(ours[0]!.tokens, peer.tokens.slice(0, ours[0]!.tokens.length)));
      figures.push({
        name: `GGUF ${label}decode tokens/s vs transformers (PyTorch)`,
        value: oursRate,
        unit: 'tok/s',
        ratio: identical ? oursRate / theirRate : 0,
        goal: 3,
        higherIsBetter: true,
        note: `transformers ${theirRate.toFixed(1)} tok/s; ${ours[0]!.tokens.length} greedy tokens after a ${prompt.length}-token prompt, ` +
          `f32 file, F32 KV cache, ${THREADS} thread each, medians of ${ROUNDS} runs; ${identical ? 'identical token ids' : 'TOKEN IDS DIFFER'}; ` +
          `${ofLimit(oursRate, f32Bytes.bytes, bandwidth)} (transformers ${ofLimit(theirRate, f32Bytes.bytes, bandwidth).split(' of the')[0]})`,
      });
      const oursRead = median(ours.map((run) => readRate(prompt, run)));
      // transformers' time to the first token: the whole prompt plus one token's head and pick.
      const theirRead = median(theirs.map((run) => (1000 * prompt.length) / run.prefillMs));
      figures.push({
        name: `GGUF ${label}prompt reading tokens/s vs transformers`,
        value: oursRead,
        unit: 'tok/s',
        ratio: oursRead / theirRead,
        goal: 1,
        higherIsBetter: true,
        note: `transformers ${theirRead.toFixed(1)} tok/s (to its first token); a ${prompt.length}-token prompt, ${THREADS} thread each, ` +
          `medians of ${ROUNDS} runs; decode beside it: GGUF ${oursRate.toFixed(1)} tok/s, transformers ${theirRate.toFixed(1)} tok/s`,
      });
      for (const [type, typeRuns] of [['bf16', bf16Runs], ['q8_0', q8Runs]] as const) {
        const read = median(typeRuns.map((run) => readRate(prompt, run)));
        figures.push({
          name: `GGUF ${label}${type} prompt reading tokens/s vs transformers (fp32)`,
          value: read,
          unit: 'tok/s',
          ratio: read / theirRead,
          goal: 1,
          higherIsBetter: true,
          note: `transformers ${theirRead.toFixed(1)} tok/s, the f32 file ${oursRead.toFixed(1)} tok/s; decode ` +
            `${median(typeRuns.map((run) => run.tokensPerSecond)).toFixed(1)} tok/s; ${type} tokens ` +
            `${same(typeRuns[0]!.tokens, ours[0]!.tokens) ? 'equal to' : 'differ from (rounded weights)'} f32's`,
        });
      }
      figures.push(...(await promptBatchFigures(f32, prompt, label)));
      const q8Rate = median(q8Runs.map((run) => run.tokensPerSecond));
      figures.push({
        name: `GGUF ${label}q8_0 decode tokens/s vs the f32 file`,
        value: q8Rate,
        unit: 'tok/s',
        ratio: q8Rate / oursRate,
        goal: 1,
        higherIsBetter: true,
        note: `f32 ${oursRate.toFixed(1)} tok/s; q8_0 ${ofLimit(q8Rate, q8Bytes.bytes, bandwidth)}; q8_0 tokens ${same(q8Runs[0]!.tokens, ours[0]!.tokens) ? 'equal to' : 'differ from (rounded weights)'} f32's`,
      });
      if (onnx) {
        const onnxEngine = await OnnxEngine.load(onnx, { providers: ['cpu'], intraOpThreads: THREADS, prefixReuse: false });
        const onnxRuns = await runs(onnxEngine, prompt).finally(() => onnxEngine.dispose());
        const onnxRate = median(onnxRuns.map((run) => run.tokensPerSecond));
        const onnxRead = median(onnxRuns.map((run) => readRate(prompt, run)));
        figures.push({
          name: `GGUF ${label}prompt reading tokens/s vs the ONNX engine (fp32)`,
          value: oursRead,
          unit: 'tok/s',
          ratio: oursRead / onnxRead,
          higherIsBetter: true,
          note: `ONNX ${onnxRead.toFixed(1)} tok/s reading, ${onnxRate.toFixed(1)} tok/s decoding; for reference, no goal`,
        });
        figures.push({
          name: `GGUF ${label}decode tokens/s vs the ONNX engine (fp32)`,
          value: oursRate,
          unit: 'tok/s',
          ratio: oursRate / onnxRate,
          higherIsBetter: true,
          note: `ONNX ${onnxRate.toFixed(1)} tok/s (${(onnxRate / theirRate).toFixed(2)}× transformers; ${ofLimit(onnxRate, f32Bytes.bytes, bandwidth)}); ` +
            `${same(onnxRuns[0]!.tokens, ours[0]!.tokens) ? 'identical token ids' : 'TOKEN IDS DIFFER'}; for reference, no goal`,
        });
      }
      const withReuse = await resample(f32, true, history);
      const without = await resample(f32, false, history);
      const sameSamples = withReuse.tokens.every((text, i) => text === without.tokens[i]);
      figures.push({
        name: `GGUF ${label}resample ×8 from ${withReuse.promptTokens} tokens, prefix reuse vs none`,
        value: withReuse.ms,
        unit: 'ms',
        ratio: sameSamples ? without.ms / withReuse.ms : 0,
        goal: 4,
        higherIsBetter: true,
        note: `no reuse ${without.ms.toFixed(0)} ms; ${withReuse.cached} prompt tokens from the sequences; 32 sampled tokens each, ` +
          `8 parallel sequences; ${sameSamples ? 'identical samples with and without reuse' : 'SAMPLES DIFFER with and without reuse'}`,
      });
      return figures;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
