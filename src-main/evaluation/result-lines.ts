// One line of predictions.jsonl / judged.jsonl, laid out as the public AgentWorldBench
// evaluation script (QwenLM/Qwen-AgentWorld eval/eval.py) writes it, so either tool reads
// the other's files: the benchmark record with every original field unchanged, plus `gen`
// (the model's raw text, "" when inference failed); a judged line adds the judge's fields
// (total_score, the five dimensions, failed, strengths, weaknesses, extracted_output,
// judge_raw_output, or error_message). Worldloom's own fields sit under `worldloom`, which
// the public script carries along untouched. Readers here take lines from either tool. Pure.
import { EvaluationSampling } from '../common/contract/evaluation';
import type { FinishReason, GenerateResult } from '../common/engine';
import { domainOf } from '../parsing/agentworldbench-line';
import { compareObservations, type MetricsRecord } from '../common/metrics/compare';
import { contentAfterReasoning, parseModelOutput } from '../common/prompt/model-output';
import { DOMAINS, type Domain } from '../common/trajectory/model';
import { observationFromResponse } from '../common/trajectory/turn-format';
import { referenceObservation, caseKey, subtaskOf, turnOf, type BenchmarkCase } from './benchmark-data';
import type { Judgement } from './judge';
import { RUBRIC, type RubricScores } from '../common/judge-reply';
import { isObject, textList } from '../common/json-values';

export type ResultLine = Record<string, unknown>;

/** The public script's error messages, written as it writes them. */
const NO_GENERATION = 'No model generation';
const JUDGE_FAILED = 'Judge scoring failed';

/** What Worldloom adds to a predictions line. */
export interface WorldloomPrediction {
  key: string;
  model: string;
  sampling: EvaluationSampling;
  finish_reason: FinishReason;
  /** The engine's error when inference failed (then `gen` is ""). */
  error?: string;
  /** The model's text when it wrote no observation (ended inside its reasoning, or nothing after it): `gen` is "" then. */
  raw_output?: string;
  /** The observation parsed from `gen`: what is judged and compared. */
  prediction: string;
  reasoning: string | null;
  reference: string;
  metrics: MetricsRecord;
}

/** What Worldloom adds when judging; the public fields keep neither the reason nor a failed reply. */
export interface WorldloomJudgement {
  model: string;
  attempts: number;
  reason?: string;
  reply?: string;
}

type WorldloomFields = Partial<WorldloomPrediction> & { judge?: WorldloomJudgement };

/** The judge's fields of a judged line, read as the public script's score step reads them. */
export interface JudgeOutcome {
  /** `failed` is 0 (a line without `failed` counts as failed). */
  valid: boolean;
  /** Per dimension, 0 = no score. */
  scores: RubricScores;
  totalScore: number;
  strengths: string[];
  weaknesses: string[];
  error: string | null;
}

/** The parsed prediction of a line and its rule-based comparison with the real observation. */
export interface PredictionDetails {
  prediction: string;
  reasoning: string | null;
  reference: string;
  metrics: MetricsRecord;
}

const numberOr0 = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function worldloomOf(line: ResultLine): WorldloomFields {
  return isObject(line.worldloom) ? (line.worldloom as WorldloomFields) : {};
}

/** The line's `gen`, or null when it has none (not a predictions line). */
export function genOf(line: ResultLine): string | null {
  return typeof line.gen === 'string' ? line.gen : null;
}

/**
 * The case a line belongs to: Worldloom's key when it wrote one, else made from the
 * record (domain from `task`, id, turn_idx) exactly as a benchmark case's key is.
 */
export function keyOfLine(line: ResultLine): string | null {
  const own = worldloomOf(line).key;
  if (typeof own === 'string') return own;
  const { task, id } = line;
  if (typeof task !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return null;
  return caseKey(domainOf(task, '') ?? subtaskOf(task), id, turnOf(line.turn_idx));
}

/**
 * A line in the layout Worldloom wrote before it followed the public script: the case's
 * key at the top level and no `gen`. Nothing here reads such a line as a prediction.
 */
export function isOlderWorldloomLine(line: ResultLine): boolean {
  return typeof line.key === 'string' && genOf(line) === null;
}

/** The domain named by a case key's first part, when it names one. */
export function domainOfKey(key: string): Domain | undefined {
  const first = key.slice(0, key.indexOf('/'));
  return (DOMAINS as readonly string[]).includes(first) ? (first as Domain) : undefined;
}

export function subtaskOfLine(line: ResultLine): string {
  return subtaskOf(typeof line.task === 'string' ? line.task : '');
}

/** A prediction Worldloom should make again: its own line recording an engine error. */
export function failedInference(line: ResultLine): boolean {
  return worldloomOf(line).finish_reason === 'error';
}

/** The model and sampling Worldloom recorded for a prediction; null for lines another tool wrote. */
export function predictionProvenanceOf(line: ResultLine): { model: string | null; sampling: EvaluationSampling | null } {
  const { model, sampling } = worldloomOf(line);
  const parsed = EvaluationSampling.safeParse(sampling);
  return { model: typeof model === 'string' ? model : null, sampling: parsed.success ? parsed.data : null };
}

export function judgeModelOf(line: ResultLine): string | null {
  const judge = worldloomOf(line).judge;
  return isObject(judge) && typeof judge.model === 'string' ? judge.model : null;
}

export function predictionLine(
  benchmarkCase: BenchmarkCase,
  result: Pick<GenerateResult, 'text' | 'finishReason' | 'error'>,
  model: string,
  sampling: EvaluationSampling,
): ResultLine {
  const failed = result.finishReason === 'error';
  // A server with a reasoning parser returns no content for a generation cut inside its
  // reasoning, and the public script then fails the line; so does an empty `gen` here.
  const answered = !failed && contentAfterReasoning(result.text).trim() !== '';
  const gen = answered ? result.text : '';
  const { observation, reasoning } = parseModelOutput(failed ? '' : result.text);
  const reference = referenceObservation(benchmarkCase);
  const worldloom: WorldloomPrediction = {
    key: benchmarkCase.key,
    model,
    sampling,
    finish_reason: result.finishReason,
    ...(failed ? { error: result.error ?? 'the model failed' } : {}),
    ...(!failed && !answered ? { raw_output: result.text } : {}),
    prediction: observation,
    reasoning,
    reference,
    metrics: compareObservations(benchmarkCase.domain, observation, reference),
  };
  return { ...benchmarkCase.record, gen, worldloom };
}

/** The observation in `gen` (reasoning dropped, the last <predicted_observation> block): what the judge sees. */
export function extractedOutput(line: ResultLine): string {
  const own = worldloomOf(line).prediction;
  return typeof own === 'string' ? own : parseModelOutput(genOf(line) ?? '').observation;
}

/**
 * The prediction parsed from `gen` and compared with the real observation: as Worldloom
 * stored it, or worked out from the record for lines another tool wrote.
 */
export function predictionDetails(line: ResultLine, domain: Domain | undefined): PredictionDetails {
  const own = worldloomOf(line);
  if (typeof own.prediction === 'string' && typeof own.reference === 'string' && isObject(own.metrics)) {
    return { prediction: own.prediction, reasoning: own.reasoning ?? null, reference: own.reference, metrics: own.metrics };
  }
  const { observation, reasoning } = parseModelOutput(genOf(line) ?? '');
  const responses = Array.isArray(line.response) ? line.response : [];
  const real = responses[turnOf(line.turn_idx) - 1];
  const reference = typeof real === 'string' ? observationFromResponse(real) : '';
  return { prediction: observation, reasoning, reference, metrics: domain ? compareObservations(domain, observation, reference) : {} };
}

function withoutWorldloom(line: ResultLine): { rest: ResultLine; worldloom: WorldloomFields } {
  const { worldloom: _, ...rest } = line;
  return { rest, worldloom: worldloomOf(line) };
}

/** Whether the judge was asked and gave no readable verdict (an error, a refusal): worth asking again on the next run. */
export function judgingFailed(judged: ResultLine): boolean {
  return judged.error_message === JUDGE_FAILED;
}

/** A prediction whose `gen` is empty is not sent to the judge: it fails as in the public script. */
export function noGenerationLine(prediction: ResultLine): ResultLine {
  const { rest, worldloom } = withoutWorldloom(prediction);
  return { ...rest, failed: 1, error_message: NO_GENERATION, ...(Object.keys(worldloom).length > 0 ? { worldloom } : {}) };
}

export function judgedLine(prediction: ResultLine, extracted: string, judgement: Judgement, judgeModel: string): ResultLine {
  const { rest, worldloom } = withoutWorldloom(prediction);
  const { verdict, attempts, raw } = judgement;
  if (!verdict) {
    return {
      ...rest,
      total_score: 0,
      failed: 1,
      error_message: JUDGE_FAILED,
      extracted_output: extracted,
      worldloom: { ...worldloom, judge: { model: judgeModel, attempts, reason: judgement.error ?? 'unreadable reply', reply: raw } },
    };
  }
  return {
    ...rest,
    total_score: verdict.totalScore,
    ...verdict.scores,
    failed: 0,
    strengths: verdict.strengths,
    weaknesses: verdict.weaknesses,
    extracted_output: extracted,
    judge_raw_output: raw,
    worldloom: { ...worldloom, judge: { model: judgeModel, attempts } },
  };
}

/**
 * Why a prediction failed before any judge saw it, or null when it did not: the engine's
 * error, or a generation with nothing after its reasoning. Such a case is failed whether
 * or not a judge is given (the public script fails it at its judge step), so a domain whose
 * inferences all failed reads as failed, with this reason, never as "0 failed".
 */
export function inferenceFailureOf(prediction: ResultLine): string | null {
  const own = worldloomOf(prediction);
  if (own.finish_reason === 'error') return `inference failed: ${own.error ?? 'the model failed'}`;
  if (genOf(prediction) !== '') return null;
  if (own.finish_reason === 'length') return `${NO_GENERATION}: the model used all ${own.sampling?.max_tokens ?? 'its'} tokens before it wrote an observation`;
  if (own.finish_reason) return `${NO_GENERATION}: the model wrote nothing after its reasoning`;
  return NO_GENERATION;
}

/** A failed outcome for a prediction that failed before the judge (see inferenceFailureOf). */
export function inferenceFailureOutcome(reason: string): JudgeOutcome {
  return { valid: false, scores: Object.fromEntries(RUBRIC.map((d) => [d, 0])) as RubricScores, totalScore: 0, strengths: [], weaknesses: [], error: reason };
}

/** The public error message with the reason Worldloom kept beside it (the public field has none). */
function errorWithReason(line: ResultLine): string | null {
  const message = typeof line.error_message === 'string' ? line.error_message : null;
  const judge = worldloomOf(line).judge;
  const reason = isObject(judge) && typeof judge.reason === 'string' ? judge.reason : null;
  if (message === NO_GENERATION) return inferenceFailureOf(line) ?? message;
  if (message && reason) return `${message}: ${reason}`;
  return message ?? reason;
}

export function judgeOutcomeOf(line: ResultLine): JudgeOutcome {
  return {
    // The public score step keeps lines whose `failed` equals 0.0 (Python counts False as 0 too).
    valid: line.failed === 0 || line.failed === false,
    scores: Object.fromEntries(RUBRIC.map((d) => [d, numberOr0(line[d])])) as RubricScores,
    totalScore: numberOr0(line.total_score),
    strengths: textList(line.strengths),
    weaknesses: textList(line.weaknesses),
    error: errorWithReason(line),
  };
}
