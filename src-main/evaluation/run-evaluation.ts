// `worldloom eval`: predict every sample's observation from its own system prompt and the
// real history, judge it, and score the run — the three steps of the public evaluation
// script (QwenLM/Qwen-AgentWorld eval/eval.py: infer, judge, score) in one resumable run
// whose files that script can read, and which can resume from that script's files.
// What a folder already holds is kept: a sample is predicted when it has no prediction
// (or Worldloom's own attempt failed in the engine), judged when it has no judgement of its
// current prediction.
// The model sees what the public script's inference step sends: the system prompt, the real
// turns before as user/assistant messages, then the turn's prompt (benchmark-data.ts).
// Where Worldloom differs on purpose: predictions are greedy unless a temperature is given
// (the public default is 0.6, every other sampling setting left to the server; here a
// temperature means top-p 1 and no top-k); the judge prompt is Worldloom's own
// (resources/judge/rubric.md) in one user message, asked greedily first (the public script
// samples the judge at 0.6), and shows the action the model predicted from, the turn's
// entry in `prompt` (the public judge prefers `current_prompt`, the same text in
// AgentWorldBench); `gen` keeps reasoning the server sends apart, as <think> blocks. How
// scoring and reply reading differ: scores.ts, judge-reply.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvaluationSampling, ScoreSummary } from '../contract/evaluation';
import { DEFAULT_SAMPLING, type SamplingParams, type WorldModelEngine } from '../engine/engine';
import { loadBenchmarkDir, sampleMessages } from './benchmark-data';
import { judge } from './judge';
import { evaluatedLines, judgedOf, openRunFolder, predictionOf, RESULT_FILES } from './result-files';
import { extractedOutput, failedInference, genOf, judgedLine, noGenerationLine, predictionLine, type ResultLine } from './result-lines';
import { scoreRun } from './scores';

export interface EvalProgress {
  phase: 'predict' | 'judge';
  done: number;
  total: number;
  /** Seconds left at the current pace; null until there is a pace. */
  etaSeconds: number | null;
}

export interface EvalOptions {
  dataDir: string;
  outDir: string;
  engine: WorldModelEngine;
  judgeEngine?: WorldModelEngine | null;
  judgeTemplate: string;
  /** The longest judge reply in tokens. */
  judgeMaxTokens?: number;
  /** Samples predicted (and judged) at once; the ONNX engine batches them. */
  concurrency?: number;
  maxTokens?: number;
  /** 0 (the default) is greedy; above 0, plain temperature sampling (no top-k, top-p 1). */
  temperature?: number;
  limit?: number;
  signal?: AbortSignal;
  onProgress?: (p: EvalProgress) => void;
}

export interface EvalResult {
  summary: ScoreSummary;
  problems: string[];
  predicted: number;
  resumed: number;
  interrupted: boolean;
}

async function inChunks<T>(
  items: T[],
  size: number,
  phase: EvalProgress['phase'],
  options: EvalOptions,
  work: (chunk: T[]) => Promise<void>,
): Promise<void> {
  const started = performance.now();
  for (let i = 0; i < items.length; i += size) {
    if (options.signal?.aborted) return;
    await work(items.slice(i, i + size));
    const done = Math.min(items.length, i + size);
    const perItem = (performance.now() - started) / 1000 / done;
    options.onProgress?.({ phase, done, total: items.length, etaSeconds: perItem * (items.length - done) });
  }
}

function predictionSampling(options: EvalOptions): SamplingParams {
  const temperature = options.temperature ?? 0;
  return { ...DEFAULT_SAMPLING, temperature, topK: 0, topP: 1, seed: 0, maxTokens: options.maxTokens ?? DEFAULT_SAMPLING.maxTokens };
}

function samplingRecord(s: SamplingParams): EvaluationSampling {
  return { temperature: s.temperature, top_p: s.topP, top_k: s.topK, max_tokens: s.maxTokens, seed: s.seed };
}

export async function runEvaluation(options: EvalOptions): Promise<EvalResult> {
  const { samples: all, problems } = loadBenchmarkDir(options.dataDir);
  const samples = options.limit ? all.slice(0, options.limit) : all;
  mkdirSync(options.outDir, { recursive: true });
  const folder = openRunFolder(options.outDir, { repair: true });
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const model = options.engine.describe().modelId;
  const sampling = predictionSampling(options);
  const recordedSampling = samplingRecord(sampling);

  const toPredict = samples.filter((s) => {
    const existing = predictionOf(folder, s.key);
    return !existing || failedInference(existing);
  });
  const resumed = samples.length - toPredict.length;
  await inChunks(toPredict, concurrency, 'predict', options, async (chunk) => {
    const results = await options.engine.generate(
      chunk.map((s) => ({ id: s.key, messages: sampleMessages(s), sampling })),
      () => {},
      options.signal,
    );
    for (const [i, r] of results.entries()) {
      if (r.finishReason === 'cancelled') continue;
      folder.predictions.append(predictionLine(chunk[i]!, r, model, recordedSampling));
    }
  });

  const judgeEngine = options.judgeEngine;
  if (judgeEngine && !options.signal?.aborted) {
    const judgeModel = judgeEngine.describe().modelId;
    const toJudge = samples.flatMap((s) => {
      const prediction = predictionOf(folder, s.key);
      return prediction && !judgedOf(folder, s.key, prediction) ? [{ sample: s, prediction }] : [];
    });
    await inChunks(toJudge, concurrency, 'judge', options, async (chunk) => {
      let lines: ResultLine[];
      try {
        lines = await Promise.all(
          chunk.map(async ({ sample, prediction }) => {
            // As in the public script, an empty generation is failed without asking the judge.
            if (genOf(prediction) === '') return noGenerationLine(prediction);
            const extracted = extractedOutput(prediction);
            const judgement = await judge(judgeEngine, options.judgeTemplate, sample, extracted, { maxTokens: options.judgeMaxTokens, signal: options.signal });
            return judgedLine(prediction, extracted, judgement, judgeModel);
          }),
        );
      } catch (err) {
        // Stopped mid-chunk: the samples in flight are judged again on the next run.
        if (options.signal?.aborted) return;
        throw err;
      }
      if (options.signal?.aborted) return;
      for (const line of lines) folder.judged.append(line);
    });
  }

  const order = samples.map((s) => s.key);
  folder.predictions.putInOrder(order);
  folder.judged.putInOrder(order);
  const summary = scoreRun(evaluatedLines(folder, order));
  writeFileSync(join(options.outDir, RESULT_FILES.scores), JSON.stringify(summary, null, 2) + '\n');
  return {
    summary,
    problems: problems.map((p) => `${p.file}${p.line === null ? '' : `:${p.line}`}: ${p.reason}`),
    predicted: toPredict.length,
    resumed,
    interrupted: options.signal?.aborted ?? false,
  };
}
