// The evaluation part of the contract: reading a `worldloom eval` run (or a run of the
// public AgentWorldBench script) from its folder, and opening cases. Pure: the renderer
// imports it too.
import { z } from 'zod';
import { JobId } from './jobs';
import { method } from './method';
import { SamplingOverrides } from './simulation';
import { Domain } from '../trajectory/model';

const Path = z.string().min(1).max(4096);
const Count = z.number().int().min(0);
/** A score normalized as (mean − 1) / 4 × 100; null when nothing was there to average. */
const Normalized = z.number().nullable();
/** Rule-based metric means by metric name (exactMatch, editSimilarity, jsonStructure…), 0..1. */
const RuleBasedMetrics = z.record(z.string(), z.number());

/** Failure reason → how many cases failed for it. */
const FailureReasons = z.record(z.string(), Count);

/** One domain of the summary, in the public script's terms ("valid" = judged with failed 0). */
export const DomainScore = z.object({
  display: z.string(),
  total: Count,
  valid: Count,
  failed: Count,
  format: Normalized,
  factuality: Normalized,
  consistency: Normalized,
  realism: Normalized,
  quality: Normalized,
  total_score: Normalized,
});
export type DomainScore = z.infer<typeof DomainScore>;

export const EvaluationSampling = z.object({
  temperature: z.number(),
  top_p: z.number(),
  top_k: z.number(),
  max_tokens: z.number(),
  seed: z.number(),
  /** Written only when on, so runs without them read as before. */
  presence_penalty: z.number().optional(),
  repetition_penalty: z.number().optional(),
  /** false when the model was asked not to think (enable_thinking: false). */
  thinking: z.boolean().optional(),
});
export type EvaluationSampling = z.infer<typeof EvaluationSampling>;

/**
 * scores.json. The top level is laid out after the summary the public evaluation script
 * (QwenLM/Qwen-AgentWorld eval/eval.py, step `score`) prints; what only Worldloom reports
 * sits under `worldloom`.
 */
export const ScoreSummary = z.object({
  /** Keyed by subtask (the part of `task` after the last "/"), sorted. */
  domains: z.record(z.string(), DomainScore),
  /** Normalized mean total_score over every valid line of every domain (a micro average). */
  overall: Normalized,
  total_samples: Count,
  /** Valid lines with a total_score (the public script's "Valid"). */
  valid: Count,
  /** total_samples − valid − not yet judged. */
  failed: Count,
  worldloom: z.object({
    /** The mean of the domains' total_score (each domain weighs the same). */
    macro_overall: Normalized,
    /** Predicted cases without a judged line (no judge given, or the run was stopped). */
    unjudged: Count,
    /** Predictions that carry no Worldloom fields, e.g. written by the public script. */
    external_predictions: Count,
    models: z.array(z.string()),
    judges: z.array(z.string()),
    sampling: z.array(EvaluationSampling),
    rule_based: RuleBasedMetrics,
    /** Why cases failed (the judge's or the engine's reason), with how many failed so. */
    failure_reasons: FailureReasons,
    domains: z.record(z.string(), z.object({ unjudged: Count, rule_based: RuleBasedMetrics, failure_reasons: FailureReasons })),
  }),
});
export type ScoreSummary = z.infer<typeof ScoreSummary>;

export const EvaluatedCase = z.object({
  key: z.string(),
  subtask: z.string(),
  /** The judge's total_score, normalized; null when not judged, failed, or without scores. */
  score: z.number().nullable(),
  judged: z.boolean(),
  failed: z.boolean(),
  /** The judge's error message, else its strengths and weaknesses in one line. */
  note: z.string(),
  editSimilarity: z.number().nullable(),
  exactMatch: z.number().nullable(),
});
export type EvaluatedCase = z.infer<typeof EvaluatedCase>;

/** One evaluated case, shown beside its ground truth and kept out of the workspace. */
export const BenchmarkCaseView = z.object({
  key: z.string(),
  subtask: z.string(),
  domain: Domain,
  systemPrompt: z.string(),
  /** The real turns before the evaluated one. */
  history: z.array(z.object({ action: z.string(), observation: z.string() })),
  action: z.string(),
  real: z.string(),
  predicted: z.string(),
  reasoning: z.string().nullable(),
  metrics: z.record(z.string(), z.number()),
  model: z.string().nullable(),
  judge: z
    .object({
      valid: z.boolean(),
      score: z.number().nullable(),
      scores: z.record(z.string(), z.number()),
      strengths: z.array(z.string()),
      weaknesses: z.array(z.string()),
      error: z.string().nullable(),
    })
    .nullable(),
});
export type BenchmarkCaseView = z.infer<typeof BenchmarkCaseView>;

/** The public script's judge budget: judges reason before they grade. */
export const DEFAULT_JUDGE_MAX_TOKENS = 32_768;

/**
 * Who grades the predictions: nobody (rule-based metrics only), or a judge server. Never the
 * loaded world model: it predicts environment observations and cannot follow the rubric (it
 * failed every line unreadably), and a model grading its own predictions is no judge anyway.
 */
export const EvaluationJudge = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('openai'), baseUrl: z.string().url().max(2048), model: z.string().max(500).optional() }),
]);

export const EvaluationRunInput = z.object({
  jobId: JobId.optional(),
  /** Folder with <domain>_test.jsonl files. */
  dataDir: Path,
  /** Where predictions.jsonl, judged.jsonl and scores.json go; a run there before is resumed. */
  outDir: Path,
  judge: EvaluationJudge.default({ kind: 'none' }),
  /** The judge prompt template; without it, the rubric in the installation's resources. */
  judgeTemplate: Path.optional(),
  /** Per-domain judge system prompts: DIR/<domain>/judge_system_prompt.txt. */
  judgePrompts: Path.optional(),
  judgeMaxTokens: z.number().int().min(1).default(DEFAULT_JUDGE_MAX_TOKENS),
  /** Cases predicted (and judged) at once; absent: what the loaded model takes at once (a server's limit, a GGUF context's sequences), else 4. */
  concurrency: z.number().int().min(1).max(1024).optional(),
  limit: z.number().int().min(1).optional(),
  /** Prediction settings; unset ones are the model's recommendation, else the public script's. */
  sampling: SamplingOverrides.default({}),
});

export const evaluationApi = {
  /** Runs an AgentWorldBench-compatible evaluation of the loaded model as a job (resumable). */
  'eval.run': method(
    EvaluationRunInput,
    z.object({ summary: ScoreSummary, problems: z.array(z.string()), predicted: Count, resumed: Count, interrupted: z.boolean(), judged: z.boolean() }),
  ),
  /** Reads a run's folder (predictions.jsonl, judged.jsonl) and scores it: a summary and one row per case. */
  'eval.read': method(z.object({ outDir: Path }), z.object({ summary: ScoreSummary, cases: z.array(EvaluatedCase) })),
  /**
   * One case as the run saw it: the real turns before, the action, the real observation and
   * the prediction beside it. Read from the run's folder only: benchmark data never enters
   * the workspace (an export of real data would carry test data into training data).
   */
  'eval.case': method(z.object({ outDir: Path, key: z.string().min(1).max(1000) }), BenchmarkCaseView),
} as const;
