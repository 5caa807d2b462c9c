// `worldloom eval`: predict every case's observation from its own system prompt and the
// real history, judge it, and score the run — the three steps of the public evaluation
// script (QwenLM/Qwen-AgentWorld eval/eval.py: infer, judge, score) in one resumable run
// whose files that script can read, and which can resume from that script's files.
// What a folder already holds is kept: a case is predicted when it has no prediction
// (or Worldloom's own attempt failed in the engine), judged when it has no judgement of its
// current prediction or the judge failed on it.
// The model sees what the public script's inference step sends: the system prompt, the real
// turns before as user/assistant messages, then the turn's prompt (benchmark-data.ts).
// Predictions are sampled as the public script samples them: 32,768 new tokens at
// temperature 0.6, or what the model itself recommends (its generation config), never greedy
// unless asked (greedy decoding makes reasoning models loop). A generation that ended inside
// its reasoning, or wrote nothing after it, is what a server with a reasoning parser returns
// as empty content: its `gen` is "" and it fails with "No model generation", left out of the
// means, exactly as in the public script (its raw text stays under `worldloom`).
// Where Worldloom differs on purpose: top-p and top-k are sent (the model's recommendation,
// else Qwen's thinking-mode values) where the public script leaves them to the server; the
// judge prompt is Worldloom's own (resources/judge/rubric.md) in one user message, after the
// domain's judge system prompt when --judge-prompts gives the public ones, asked greedily
// first (the public script samples the judge at 0.6), and shows the action the model
// predicted from, the turn's entry in `prompt` (the public judge prefers `current_prompt`, the
// same text in AgentWorldBench); `gen` keeps reasoning the server sends apart, as <think>
// blocks. How scoring and reply reading differ: scores.ts, judge-reply.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvaluationSampling, ScoreSummary } from '../common/contract/evaluation';
import type { Sampling, SamplingOverrides } from '../common/contract/simulation';
import type { GenerateResult, WorldModelEngine } from '../common/engine';
import { engineRequestParts, generationParameters } from '../simulation/generation-parameters';
import { fanOut } from '../simulation/fan-out';
import { loadBenchmarkDir, caseMessages, subtaskOf } from './benchmark-data';
import { judge } from './judge';
import { evaluatedLines, judgedOf, openRunFolder, predictionOf, RESULT_FILES } from './result-files';
import { extractedOutput, failedInference, genOf, judgedLine, judgingFailed, noGenerationLine, predictionLine, type ResultLine } from './result-lines';
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
  /** Per-domain judge system prompts (--judge-prompts), keyed by subtask; sent before the rubric. */
  judgeSystemPrompts?: Readonly<Record<string, string>> | null;
  /** The longest judge reply in tokens (default: the public script's 32,768). */
  judgeMaxTokens?: number;
  /** Cases predicted (and judged) at once (default: what the engine takes); the ONNX engine batches them. */
  concurrency?: number;
  /** Overrides of the prediction settings; the rest is the model's recommendation, else 0.6 and 32,768 tokens. */
  sampling?: SamplingOverrides;
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

function samplingRecord(s: Sampling): EvaluationSampling {
  return {
    temperature: s.temperature,
    top_p: s.topP,
    top_k: s.topK,
    max_tokens: s.maxTokens,
    seed: s.seed,
    ...(s.presencePenalty ? { presence_penalty: s.presencePenalty } : {}),
    ...(s.repetitionPenalty !== 1 ? { repetition_penalty: s.repetitionPenalty } : {}),
    ...(s.thinking ? {} : { thinking: false }),
  };
}

export async function runEvaluation(options: EvalOptions): Promise<EvalResult> {
  const { cases: all, problems } = loadBenchmarkDir(options.dataDir);
  const cases = options.limit ? all.slice(0, options.limit) : all;
  mkdirSync(options.outDir, { recursive: true });
  const folder = openRunFolder(options.outDir, { repair: true });
  // Cases at once: what the user asked, else what the engine takes (a server's limit, a GGUF context's sequences), else 4.
  const concurrency = Math.max(1, options.concurrency ?? options.engine.describe().concurrency?.requests ?? 4);
  // What a person calls the model (a folder's name, worldloom-nano), as the studio names it everywhere; else its id.
  const model = options.engine.describe().name ?? options.engine.describe().modelId;
  const sampling = generationParameters(options.engine, null).resolve(options.sampling);
  const recordedSampling = samplingRecord(sampling);
  const request = engineRequestParts(sampling);

  const toPredict = cases.filter((s) => {
    const existing = predictionOf(folder, s.key);
    return !existing || failedInference(existing);
  });
  const resumed = cases.length - toPredict.length;
  const append = (benchmarkCase: (typeof toPredict)[number], r: GenerateResult) => {
    if (r.finishReason !== 'cancelled') folder.predictions.append(predictionLine(benchmarkCase, r, model, recordedSampling));
  };
  if ((options.engine.describe().concurrency?.requests ?? 1) > 1) {
    // A server or a llama.cpp context takes requests one by one as slots free up: each case is
    // in flight on its own (simulation/fan-out.ts), so a slow case holds up no other.
    const started = performance.now();
    const outcome = await fanOut(toPredict, {
      limit: concurrency,
      signal: options.signal,
      describe: (s) => s.key,
      run: async (s, _index, turn) => {
        const [r] = await options.engine.generate([{ id: s.key, messages: caseMessages(s), ...request }], () => {}, options.signal);
        await turn();
        append(s, r!);
      },
      onProgress: (p) => {
        const finished = p.done + p.failed;
        const perItem = finished ? (performance.now() - started) / 1000 / finished : 0;
        options.onProgress?.({ phase: 'predict', done: finished, total: p.total, etaSeconds: perItem * (p.total - finished) });
      },
    });
    if (outcome.failures[0]) throw new Error(`Case ${outcome.failures[0].step} could not be predicted: ${outcome.failures[0].message}`);
  } else {
    // One call at a time: the ONNX engine batches a chunk of cases together.
    await inChunks(toPredict, concurrency, 'predict', options, async (chunk) => {
      const results = await options.engine.generate(
        chunk.map((s) => ({ id: s.key, messages: caseMessages(s), ...request })),
        () => {},
        options.signal,
      );
      for (const [i, r] of results.entries()) append(chunk[i]!, r);
    });
  }

  const judgeEngine = options.judgeEngine;
  if (judgeEngine && !options.signal?.aborted) {
    const judgeModel = judgeEngine.describe().modelId;
    const toJudge = cases.flatMap((s) => {
      const prediction = predictionOf(folder, s.key);
      if (!prediction) return [];
      // A judgement that failed (the judge erred, or its reply could not be read) is asked again: a resumed run mends it.
      const judged = judgedOf(folder, s.key, prediction);
      return !judged || judgingFailed(judged) ? [{ benchmarkCase: s, prediction }] : [];
    });
    await inChunks(toJudge, concurrency, 'judge', options, async (chunk) => {
      let lines: ResultLine[];
      try {
        lines = await Promise.all(
          chunk.map(async ({ benchmarkCase, prediction }) => {
            // As in the public script, an empty generation is failed without asking the judge.
            if (genOf(prediction) === '') return noGenerationLine(prediction);
            const extracted = extractedOutput(prediction);
            const judgement = await judge(judgeEngine, options.judgeTemplate, benchmarkCase, extracted, {
              maxTokens: options.judgeMaxTokens,
              systemPrompt: options.judgeSystemPrompts ? (options.judgeSystemPrompts[subtaskOf(benchmarkCase.line.task)] ?? '') : null,
              signal: options.signal,
            });
            return judgedLine(prediction, extracted, judgement, judgeModel);
          }),
        );
      } catch (err) {
        // Stopped mid-chunk: the cases in flight are judged again on the next run.
        if (options.signal?.aborted) return;
        throw err;
      }
      if (options.signal?.aborted) return;
      for (const line of lines) folder.judged.append(line);
    });
  }

  const order = cases.map((s) => s.key);
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
