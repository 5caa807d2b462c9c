// The embedded default model (resources/models/worldloom-nano, a tiny Qwen3.5-MoE) on the
// ONNX engine: load time, prefill and decode tokens/s, and resampling ×8 with prefix reuse
// vs none. Each figure is set against a limit that keeps the studio interactive on a laptop
// CPU. WORLDLOOM_NANO_DIR measures another conversion of it (e.g. int4 vs fp32) the same way.
//
// Then the same model as GGUF (worldloom-nano.gguf beside the ONNX folder's files) on the
// GGUF engine, head to head with the ONNX engine: both loaded at once, the same prompt ids
// (a 1,500-token terminal history under the model's template), the same thread count, greedy,
// rounds alternating between the engines; identical tokens are required (a figure whose
// engines disagree gets ratio 0). Which engine the app loads nano on by default follows this.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GenerateRequest, TokenEvent } from '../src-main/common/engine';
import { GgufEngine } from '../src-main/engine/gguf/gguf-engine';
import { OnnxEngine } from '../src-main/engine/onnx/onnx-engine';
import { benchEngine, longHistory, withAction } from '../src-main/testing/engine-bench';
import type { BenchSuite, Figure } from './bench';

const FOLDER = process.env.WORLDLOOM_NANO_DIR ?? fileURLToPath(new URL('../resources/models/worldloom-nano', import.meta.url));
const GGUF = process.env.WORLDLOOM_NANO_GGUF ?? join(FOLDER, 'worldloom-nano.gguf');
const LOAD_LIMIT_MS = 2000;
const DECODE_FLOOR = 50;
const PREFILL_FLOOR = 500;
/**
 * Both engines get the same CPU threads: one, as in the GGUF suite. llama.cpp's threads wait on
 * each other by spinning, so on a shared, loaded machine more threads than free cores make it
 * many times slower (a 986-token prefill of the tiny fixture took 138 s at 2 threads, 3 s at 1).
 */
const THREADS = Number(process.env.WORLDLOOM_NANO_THREADS ?? 1);
const HEAD_TO_HEAD_ROUNDS = 3;
const DECODE_TOKENS = 64;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const same = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);

interface Timed {
  tokens: number[];
  prefillMs: number;
  decodeTokensPerSecond: number;
  /** From the call to the last token: what one simulated step costs. */
  totalMs: number;
}

type IdsEngine = Pick<GgufEngine, 'generateFromIds'>;

/** One greedy run from prompt ids; decode timed from the first generated token to the last. */
async function timed(engine: IdsEngine, promptIds: number[]): Promise<Timed> {
  const tokens: number[] = [];
  const times: number[] = [];
  const [result] = await engine.generateFromIds(
    [{ id: 'bench', promptIds, sampling: { temperature: 0, topK: 0, topP: 1, maxTokens: DECODE_TOKENS, seed: 0, stop: [] } }],
    (event: TokenEvent) => {
      if (event.tokenId === undefined) return;
      tokens.push(event.tokenId);
      times.push(performance.now());
    },
  );
  if (result!.finishReason === 'error') throw new Error(`bench generation failed: ${result!.error}`);
  const rate = tokens.length > 1 ? (1000 * (times.length - 1)) / (times.at(-1)! - times[0]!) : 0;
  return { tokens, prefillMs: result!.timings.prefillMs, decodeTokensPerSecond: rate, totalMs: result!.timings.totalMs };
}

/**
 * Resample ×8 of one node on the GGUF engine after the node was simulated once (one sample), as
 * in the app: only the sequence that simulated it holds the prompt (node-llama-cpp cannot copy
 * a sequence's state into another), so the other seven read it again.
 */
async function ggufResample(prefixReuse: boolean, node: GenerateRequest['messages']): Promise<{ ms: number; texts: string[] }> {
  const engine = await GgufEngine.load(GGUF, { device: 'cpu', threads: THREADS, sequences: 8, prefixReuse, contextLength: 4096 });
  try {
    const requests = Array.from({ length: 8 }, (_, seed): GenerateRequest => ({
      id: String(seed), messages: node, sampling: { temperature: 0.8, topK: 50, topP: 0.95, maxTokens: 32, seed, stop: [] },
    }));
    await engine.generate([{ id: 'node', messages: node, sampling: { temperature: 0, topK: 0, topP: 1, maxTokens: 1, seed: 0, stop: [] } }], () => {});
    const started = performance.now();
    const results = await engine.generate(requests, () => {});
    const failed = results.find((r) => r.finishReason === 'error');
    if (failed) throw new Error(`bench generation failed: ${failed.error}`);
    return { ms: performance.now() - started, texts: results.map((r) => r.text) };
  } finally {
    await engine.dispose();
  }
}

async function headToHead(): Promise<Figure[]> {
  const loadStarted = performance.now();
  const gguf = await GgufEngine.load(GGUF, { device: 'cpu', threads: THREADS, sequences: 1, prefixReuse: false, contextLength: 4096 });
  const ggufLoadMs = performance.now() - loadStarted;
  const onnx = await OnnxEngine.load(FOLDER, { providers: ['cpu'], intraOpThreads: THREADS, prefixReuse: false });
  const figures: Figure[] = [];
  try {
    const history = await longHistory(onnx, 1500);
    // An action whose answer is long (a listing and a file), so decode is measured over many tokens.
    const promptIds = await onnx.tokenize(await onnx.renderPrompt(withAction(history, 'ls -la /srv/app/module_2 && cat /srv/app/module_2/config.yaml')));
    await timed(gguf, promptIds.slice(0, 64));
    await timed(onnx, promptIds.slice(0, 64));
    const ours: Timed[] = [];
    const theirs: Timed[] = [];
    for (let round = 0; round < HEAD_TO_HEAD_ROUNDS; round++) {
      // Alternating which goes first: a shared machine's load moves under both alike.
      if (round % 2 === 0) ours.push(await timed(gguf, promptIds));
      theirs.push(await timed(onnx, promptIds));
      if (round % 2 === 1) ours.push(await timed(gguf, promptIds));
    }
    const identical = ours.every((run) => theirs.every((peer) => same(run.tokens, peer.tokens)));
    const decode = median(ours.map((r) => r.decodeTokensPerSecond));
    const peerDecode = median(theirs.map((r) => r.decodeTokensPerSecond));
    const prefill = median(ours.map((r) => r.prefillMs));
    const peerPrefill = median(theirs.map((r) => r.prefillMs));
    const step = median(ours.map((r) => r.totalMs));
    const peerStep = median(theirs.map((r) => r.totalMs));
    const agreement = identical ? `identical greedy tokens (${ours[0]!.tokens.length})` : 'TOKEN IDS DIFFER';
    const setting = `${THREADS} thread${THREADS === 1 ? '' : 's'} each, ${promptIds.length}-token prompt, medians of ${HEAD_TO_HEAD_ROUNDS} alternating rounds`;
    figures.push(
      { name: 'worldloom-nano GGUF: load', value: ggufLoadMs, unit: 'ms', ratio: ggufLoadMs / LOAD_LIMIT_MS, goal: 1, note: `limit ${LOAD_LIMIT_MS} ms; f16 file, F32 KV cache` },
      {
        name: 'worldloom-nano: GGUF simulated step (prefill + decode) vs the ONNX engine',
        value: step,
        unit: 'ms',
        ratio: identical ? step / peerStep : 0,
        note: `ONNX ${peerStep.toFixed(0)} ms; ${setting}; below 1: GGUF is the faster engine for nano's steps (the default follows this)`,
      },
      {
        name: 'worldloom-nano: GGUF decode tokens/s vs the ONNX engine',
        value: decode,
        unit: 'tok/s',
        ratio: identical ? decode / peerDecode : 0,
        higherIsBetter: true,
        note: `ONNX ${peerDecode.toFixed(1)} tok/s; ${setting}; ${agreement}; above 1: GGUF decodes faster`,
      },
      {
        name: 'worldloom-nano: GGUF prefill ms vs the ONNX engine',
        value: prefill,
        unit: 'ms',
        ratio: identical ? prefill / peerPrefill : 0,
        note: `ONNX ${peerPrefill.toFixed(0)} ms; ${setting}; below 1: GGUF reads the prompt faster`,
      },
    );
    const node = withAction(history, 'df -h');
    const withReuse = await ggufResample(true, node);
    const without = await ggufResample(false, node);
    const sameSamples = withReuse.texts.every((text, i) => text === without.texts[i]);
    figures.push({
      name: 'worldloom-nano GGUF: resample ×8, reuse vs none',
      value: withReuse.ms,
      unit: 'ms',
      ratio: sameSamples ? without.ms / withReuse.ms : 0,
      goal: 4,
      higherIsBetter: true,
      note: `no reuse ${without.ms.toFixed(0)} ms; 8 parallel sequences, 32 sampled tokens each; ${sameSamples ? 'identical samples' : 'SAMPLES DIFFER'}`,
    });
  } finally {
    await gguf.dispose();
    await onnx.dispose();
  }
  return figures;
}

export const nanoSuite: BenchSuite = {
  name: 'nano',
  async run() {
    const started = performance.now();
    const engine = await OnnxEngine.load(FOLDER, { providers: ['cpu'] });
    const loadMs = performance.now() - started;
    await engine.dispose();
    const r = await benchEngine(FOLDER, { providers: ['cpu'], historyTokens: 1500, samples: 8, maxTokens: 32 });
    const figures: Figure[] = [
      { name: 'worldloom-nano: load', value: loadMs, unit: 'ms', ratio: loadMs / LOAD_LIMIT_MS, goal: 1, note: `limit ${LOAD_LIMIT_MS} ms` },
      {
        name: 'worldloom-nano: prefill',
        value: r.prefill.tokensPerSecond,
        unit: 'tok/s',
        ratio: r.prefill.tokensPerSecond / PREFILL_FLOOR,
        goal: 1,
        higherIsBetter: true,
        note: `floor ${PREFILL_FLOOR} tok/s, ${r.prefill.tokens}-token prompt`,
      },
      {
        name: 'worldloom-nano: decode',
        value: r.decode.tokensPerSecond,
        unit: 'tok/s',
        ratio: r.decode.tokensPerSecond / DECODE_FLOOR,
        goal: 1,
        higherIsBetter: true,
        note: `floor ${DECODE_FLOOR} tok/s`,
      },
      {
        name: `worldloom-nano: resample ×${r.resample.samples}, reuse vs none`,
        value: r.resample.reuseMs,
        unit: 'ms',
        // Reuse that changes the tokens is a failure, not a speedup.
        ratio: r.resample.identical ? r.resample.speedup : 0,
        goal: 4,
        higherIsBetter: true,
        note: r.resample.identical ? 'identical tokens' : 'TOKENS DIFFER',
      },
    ];
    if (existsSync(GGUF)) figures.push(...(await headToHead()));
    else figures.push({ name: 'worldloom-nano GGUF: not measured', value: 0, unit: '', note: `${GGUF} is missing (npm run model:convert -- --to gguf)` });
    return figures;
  },
};
