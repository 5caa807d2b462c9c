// One GGUF model on one device, through the app's own GGUF engine (one llama.cpp context of 32
// sequences, as the studio runs many simulations at once): prompt reading at each prompt length,
// aggregate decode at each count of parallel sequences, and the memory it held.

import { spawnSync } from 'node:child_process';
import type { DeviceChoice } from '../../src-main/common/device';
import type { TokenEvent } from '../../src-main/common/engine';
import { GgufEngine } from '../../src-main/engine/gguf/gguf-engine';

export interface MeasureOptions {
  device: DeviceChoice;
  promptLengths: number[];
  parallel: number[];
  /** Tokens each sequence decodes in a decode measurement. */
  decodeTokens: number;
  /** Tokens of each sequence's own prompt in a decode measurement. */
  decodePromptTokens: number;
  /** Epoch ms after which what is left is skipped (and said so). */
  deadline: number;
}

export interface PrefillFigure { tokens: number; seconds: number; tokensPerSecond: number }
export interface DecodeFigure {
  sequences: number;
  /** Tokens per second of all sequences together, over the window where all of them were decoding. */
  tokensPerSecond: number;
  /** Seconds one decode step of all sequences took. */
  stepSeconds: number;
  tokensCounted: number;
}

export interface ModelMeasurement {
  device: string;
  notes: string[];
  prefill: PrefillFigure[];
  decode: DecodeFigure[];
  memory: { engineBytes: number | null; processRssBytes: number; gpuUsedBytes: number | null };
  skipped: string[];
}

/** Distinct ids in the vocabulary's lower half (never the special tokens at its start), one pattern per seed. */
function promptIds(length: number, vocabulary: number, seed: number): number[] {
  const span = Math.max(8, Math.floor(vocabulary / 2) - 8);
  return Array.from({ length }, (_, i) => 4 + ((i * 7919 + seed * 104_729) % span));
}

function gpuUsedBytes(): number | null {
  const smi = spawnSync('nvidia-smi', ['--query-gpu=memory.used', '--format=csv,noheader,nounits'], { encoding: 'utf8' });
  if (smi.status !== 0) return null;
  const mib = Number(smi.stdout.trim().split('\n')[0]);
  return Number.isFinite(mib) ? mib * 1024 * 1024 : null;
}

const greedy = (maxTokens: number) => ({ temperature: 0, topK: 0, topP: 1, maxTokens, seed: 0, stop: [] });

async function prefill(engine: GgufEngine, tokens: number, vocabulary: number, seed: number): Promise<PrefillFigure> {
  const [result] = await engine.generateFromIds([{ id: `prefill-${tokens}`, promptIds: promptIds(tokens, vocabulary, seed), sampling: greedy(1) }], () => undefined);
  if (result!.finishReason === 'error') throw new Error(`reading a ${tokens}-token prompt failed: ${result!.error}`);
  const seconds = result!.timings.prefillMs / 1000;
  return { tokens, seconds, tokensPerSecond: tokens / seconds };
}

async function decode(engine: GgufEngine, sequences: number, options: MeasureOptions, vocabulary: number, seed: number): Promise<DecodeFigure> {
  const times = new Map<string, number[]>();
  const requests = Array.from({ length: sequences }, (_, i) => {
    const id = `decode-${sequences}-${i}`;
    times.set(id, []);
    return { id, promptIds: promptIds(options.decodePromptTokens, vocabulary, seed + i), sampling: greedy(options.decodeTokens) };
  });
  const results = await engine.generateFromIds(requests, (event: TokenEvent) => {
    if (event.tokenId !== undefined) times.get(event.requestId)!.push(performance.now());
  });
  const failed = results.find((result) => result.finishReason === 'error');
  if (failed) throw new Error(`decoding ${sequences} sequences failed: ${failed.error}`);
  // The window in which every sequence had read its prompt and none had finished: all decode together.
  const lists = [...times.values()].filter((list) => list.length > 1);
  if (lists.length < sequences) throw new Error(`only ${lists.length} of ${sequences} sequences decoded more than one token`);
  const start = Math.max(...lists.map((list) => list[0]!));
  const end = Math.min(...lists.map((list) => list.at(-1)!));
  const counted = lists.reduce((sum, list) => sum + list.filter((t) => t > start && t <= end).length, 0);
  if (end <= start || counted < sequences) throw new Error(`the ${sequences} sequences never decoded together (prompts read one after another?)`);
  const tokensPerSecond = (counted * 1000) / (end - start);
  return { sequences, tokensPerSecond, stepSeconds: sequences / tokensPerSecond, tokensCounted: counted };
}

export async function measureModel(file: string, vocabulary: number, options: MeasureOptions): Promise<ModelMeasurement> {
  const longest = Math.max(...options.promptLengths, options.decodePromptTokens + options.decodeTokens);
  const engine = await GgufEngine.load(file, {
    device: options.device,
    sequences: Math.max(...options.parallel),
    contextLength: longest + 64,
    prefixReuse: false,
  });
  const skipped: string[] = [];
  try {
    const description = engine.describe();
    // The first evaluation builds the GPU's pipelines and buffers; it is not what a user waits for twice.
    await prefill(engine, 64, vocabulary, 1);
    await decode(engine, 1, { ...options, decodeTokens: 4 }, vocabulary, 2);
    const prefills: PrefillFigure[] = [];
    for (const [i, tokens] of options.promptLengths.entries()) {
      if (Date.now() > options.deadline) { skipped.push(`prompt of ${tokens} tokens: out of time`); continue; }
      prefills.push(await prefill(engine, tokens, vocabulary, 10 + i));
    }
    const decodes: DecodeFigure[] = [];
    for (const sequences of options.parallel) {
      if (Date.now() > options.deadline) { skipped.push(`decode at ${sequences} sequences: out of time`); continue; }
      decodes.push(await decode(engine, sequences, options, vocabulary, 100 * sequences));
    }
    return {
      device: description.device,
      notes: description.notes,
      prefill: prefills,
      decode: decodes,
      memory: { engineBytes: description.memoryBytes ?? null, processRssBytes: process.memoryUsage().rss, gpuUsedBytes: gpuUsedBytes() },
      skipped,
    };
  } finally {
    await engine.dispose();
  }
}
