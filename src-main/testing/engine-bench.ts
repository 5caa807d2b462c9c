// Measures the ONNX engine on a model folder for `npm run bench`: prefill and decode
// speed, and how much prefix reuse saves when resampling ×8 a node with a long history
// (simulated once before, as in the app). Both engines stay loaded and the rounds alternate
// between them (shared machines are noisy), and the reuse ratio comes with a check that
// both made the same tokens.

import type { ChatMessage, GenerateRequest, GenerateResult, SamplingParams } from '../common/engine';
import type { ProviderName } from '../engine/onnx/execution-providers';
import { OnnxEngine } from '../engine/onnx/onnx-engine';

export interface EngineBenchOptions {
  providers?: readonly ProviderName[];
  /** History the resampled node sits on, in tokens (at least). Default 1500. */
  historyTokens?: number;
  /** Samples in the resample batch. Default 8. */
  samples?: number;
  /** Tokens generated per request. Default 32. */
  maxTokens?: number;
  /** Resample rounds, each on a node of its own; the speedup is the median of the rounds. Default 3. */
  rounds?: number;
}

export interface EngineBenchResult {
  modelId: string;
  device: string;
  prefill: { tokens: number; ms: number; tokensPerSecond: number };
  decode: { tokens: number; ms: number; tokensPerSecond: number };
  resample: {
    samples: number;
    promptTokens: number;
    /** Prompt tokens each sample took from the cache when reuse was on. */
    cachedPromptTokens: number;
    reuseMs: number;
    noReuseMs: number;
    /** Median over rounds of noReuseMs / reuseMs: the goal is at least 4. */
    speedup: number;
    /** Each round's speedup. */
    speedups: number[];
    /** Both runs produced the same tokens for every sample. */
    identical: boolean;
  };
  /** Peak resident memory of this process so far, bytes. */
  peakRssBytes: number;
}

const TERMINAL_SYSTEM =
  'You are a simulated Linux terminal on an Ubuntu server. Given the command the agent runs, ' +
  'predict exactly what the terminal prints, keeping files, users and processes consistent.';

/** A deterministic terminal session long enough to reach `historyTokens`. */
export async function longHistory(engine: Pick<OnnxEngine, 'tokenize'>, historyTokens: number): Promise<ChatMessage[]> {
  const messages: ChatMessage[] = [{ role: 'system', content: TERMINAL_SYSTEM }];
  let tokens = (await engine.tokenize(TERMINAL_SYSTEM)).length;
  for (let turn = 1; tokens < historyTokens; turn++) {
    const action = `## Turn ${turn}\n**Action:** ls -la /srv/app/module_${turn} && cat /srv/app/module_${turn}/config.yaml`;
    const listing = Array.from({ length: 6 }, (_, i) =>
      `-rw-r--r-- 1 app app ${1000 + turn * 37 + i * 11} Mar ${1 + (i % 28)} 10:${10 + i} file_${turn}_${i}.py`,
    ).join('\n');
    const observation = `**Environment Observation:**\ntotal ${turn * 8}\n${listing}\nname: module_${turn}\nreplicas: ${turn % 5}\n`;
    messages.push({ role: 'user', content: action }, { role: 'assistant', content: observation });
    tokens += (await engine.tokenize(action + observation)).length + 8;
  }
  return messages;
}

/** The history with one more action: the prompt for simulating it. */
export function withAction(history: ChatMessage[], action: string): ChatMessage[] {
  return [...history, { role: 'user', content: `## Next turn\n**Action:** ${action}` }];
}

interface TimedRun {
  results: GenerateResult[];
  tokens: number[][];
  ms: number;
}

async function generate(engine: OnnxEngine, requests: GenerateRequest[]): Promise<TimedRun> {
  const tokens = requests.map((): number[] => []);
  const rowOf = new Map(requests.map((request, i) => [request.id, i]));
  const started = performance.now();
  const results = await engine.generate(requests, (event) => {
    if (event.tokenId !== undefined) tokens[rowOf.get(event.requestId)!]!.push(event.tokenId);
  });
  const ms = performance.now() - started;
  const failed = results.find((result) => result.finishReason === 'error');
  if (failed) throw new Error(`bench generation failed: ${failed.error}`);
  return { results, tokens, ms };
}

/** Runs the engine benchmark on `folder`, with and without prefix reuse loaded side by side. */
export async function benchEngine(folder: string, options: EngineBenchOptions = {}): Promise<EngineBenchResult> {
  const samples = options.samples ?? 8;
  const maxTokens = options.maxTokens ?? 32;
  const rounds = options.rounds ?? 3;
  const greedy: SamplingParams = { temperature: 0, topK: 0, topP: 1, maxTokens, seed: 0, stop: [] };
  const sampled = (seed: number): SamplingParams => ({ temperature: 0.8, topK: 50, topP: 0.95, maxTokens, seed, stop: [] });
  const resampleBatch = (node: ChatMessage[]): GenerateRequest[] =>
    Array.from({ length: samples }, (_, i) => ({ id: `sample-${i}`, messages: node, sampling: sampled(i) }));

  // Without reuse every sample reads the whole history itself.
  const plain = await OnnxEngine.load(folder, { providers: options.providers, prefixReuse: false });
  const reusing = await OnnxEngine.load(folder, { providers: options.providers });
  try {
    const history = await longHistory(plain, options.historyTokens ?? 1500);
    for (const engine of [plain, reusing]) {
      await generate(engine, [{ id: 'warm-up', messages: withAction(history.slice(0, 3), 'uptime'), sampling: greedy }]);
    }
    const single = (await generate(plain, [{ id: 'speed', messages: withAction(history, 'uptime'), sampling: greedy }])).results[0]!;
    const reuse: TimedRun[] = [];
    const noReuse: TimedRun[] = [];
    for (let round = 0; round < rounds; round++) {
      // A node of its own each round: simulated once (its prompt computed and kept), then resampled.
      const node = withAction(history, `df -h && free -m | head -${round + 2}`);
      await generate(reusing, [{ id: 'node', messages: node, sampling: { ...greedy, maxTokens: 1 } }]);
      if (round % 2 === 0) noReuse.push(await generate(plain, resampleBatch(node)));
      reuse.push(await generate(reusing, resampleBatch(node)));
      if (round % 2 === 1) noReuse.push(await generate(plain, resampleBatch(node)));
    }
    const speedups = reuse.map((run, i) => noReuse[i]!.ms / run.ms);
    const middle = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const description = reusing.describe();
    return {
      modelId: description.modelId,
      device: description.device,
      prefill: {
        tokens: single.promptTokens,
        ms: single.timings.prefillMs,
        tokensPerSecond: (single.promptTokens / single.timings.prefillMs) * 1000,
      },
      decode: {
        tokens: single.completionTokens,
        ms: single.timings.decodeMs,
        tokensPerSecond: (single.completionTokens / single.timings.decodeMs) * 1000,
      },
      resample: {
        samples,
        promptTokens: reuse[0]!.results[0]!.promptTokens,
        cachedPromptTokens: Math.min(...reuse.flatMap((run) => run.results.map((result) => result.cachedPromptTokens))),
        reuseMs: middle(reuse.map((run) => run.ms)),
        noReuseMs: middle(noReuse.map((run) => run.ms)),
        speedup: middle(speedups),
        speedups,
        identical: reuse.every((run, i) => JSON.stringify(run.tokens) === JSON.stringify(noReuse[i]!.tokens)),
      },
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    await plain.dispose();
    await reusing.dispose();
  }
}
