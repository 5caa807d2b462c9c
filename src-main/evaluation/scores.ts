// Scores as the public evaluation script (QwenLM/Qwen-AgentWorld eval/eval.py, step
// `score`) computes them, so a run scores the same with either tool:
// - lines are grouped by subtask (`task` after its last "/"), groups sorted by name;
// - a line is valid when its `failed` is 0; the others are failed, never dropped;
// - per group and dimension (and total_score), the mean over valid lines of the values
//   that are not 0 (0 means "no score"), normalized as (mean − 1) / 4 × 100;
// - overall: the normalized mean of total_score over the valid lines of all groups pooled
//   (a micro average; the mean of the groups' scores is reported beside it as macro).
// Where Worldloom differs: a predicted case that has no judged line yet (no judge given,
// or a stopped run) is counted as not judged rather than failed, and a mean over nothing
// is null rather than the public script's normalize(0) = −25. Rule-based metrics need no
// judge and sit under `worldloom`.
import type { DomainScore, EvaluationSampling, ScoreSummary } from '../common/contract/evaluation';
import { aggregate } from '../common/metrics/compare';
import { RUBRIC } from '../common/judge-reply';
import type { EvaluatedLine } from './result-files';
import { judgeModelOf, predictionProvenanceOf, subtaskOfLine, type JudgeOutcome } from './result-lines';

export const normalize = (mean: number) => ((mean - 1) / 4) * 100;

/** Subtask names as the public script displays them; others are capitalized as Python's str.capitalize does. */
const DISPLAY_NAMES: Record<string, string> = { mcp: 'MCP', search: 'Search', terminal: 'Terminal', swe: 'SWE', android: 'Android', web: 'Web', os: 'OS' };

function displayName(subtask: string): string {
  return DISPLAY_NAMES[subtask] ?? subtask.charAt(0).toUpperCase() + subtask.slice(1).toLowerCase();
}

const mean = (values: number[]) => (values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : null);
const normalizedMean = (values: number[]) => {
  const m = mean(values);
  return m === null ? null : normalize(m);
};

/** The judge's normalized total for one case; null when it is not judged, failed, or has no scores. */
export function caseScore(outcome: JudgeOutcome | null): number | null {
  return outcome?.valid && outcome.totalScore !== 0 ? normalize(outcome.totalScore) : null;
}

/** Reasons of the failed outcomes with their counts, the most frequent first. */
function failureReasons(outcomes: readonly JudgeOutcome[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    if (o.valid) continue;
    // A line without `failed` and without a message still failed: say why it counts so.
    const reason = o.error ?? 'the line has no "failed": 0, so the public scoring counts it as failed';
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]));
}

function domainScore(
  subtask: string,
  lines: EvaluatedLine[],
): { score: DomainScore; totals: number[]; unjudged: number; failures: Record<string, number> } {
  const outcomes = lines.flatMap((l) => (l.outcome ? [l.outcome] : []));
  const valid = outcomes.filter((o) => o.valid);
  const given = (pick: (o: JudgeOutcome) => number) => valid.map(pick).filter((v) => v !== 0);
  const totals = given((o) => o.totalScore);
  const dimensions = Object.fromEntries(RUBRIC.map((d) => [d, normalizedMean(given((o) => o.scores[d]))])) as Record<(typeof RUBRIC)[number], number | null>;
  return {
    score: {
      display: displayName(subtask),
      total: lines.length,
      valid: valid.length,
      failed: outcomes.length - valid.length,
      ...dimensions,
      total_score: normalizedMean(totals),
    },
    totals,
    unjudged: lines.length - outcomes.length,
    failures: failureReasons(outcomes),
  };
}

const distinct = <T>(values: (T | null)[], keyOf: (v: T) => string = String): T[] => {
  const byKey = new Map<string, T>();
  for (const v of values) if (v !== null) byKey.set(keyOf(v), v);
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
};

export function scoreRun(lines: EvaluatedLine[]): ScoreSummary {
  const bySubtask = new Map<string, EvaluatedLine[]>();
  for (const line of lines) {
    const subtask = subtaskOfLine(line.prediction);
    const group = bySubtask.get(subtask);
    if (group) group.push(line);
    else bySubtask.set(subtask, [line]);
  }
  // Plain code-point order, as Python's sorted() orders the subtasks.
  const subtasks = [...bySubtask.keys()].sort();
  const domains: ScoreSummary['domains'] = {};
  const extras: ScoreSummary['worldloom']['domains'] = {};
  const allTotals: number[] = [];
  let unjudged = 0;
  for (const subtask of subtasks) {
    const group = bySubtask.get(subtask)!;
    const scored = domainScore(subtask, group);
    domains[subtask] = scored.score;
    extras[subtask] = { unjudged: scored.unjudged, rule_based: aggregate(group.map((l) => l.details.metrics)), failure_reasons: scored.failures };
    allTotals.push(...scored.totals);
    unjudged += scored.unjudged;
  }
  const provenance = lines.map((l) => predictionProvenanceOf(l.prediction));
  return {
    domains,
    overall: normalizedMean(allTotals),
    total_samples: lines.length,
    valid: allTotals.length,
    failed: lines.length - allTotals.length - unjudged,
    worldloom: {
      macro_overall: mean(Object.values(domains).flatMap((d) => (d.total_score === null ? [] : [d.total_score]))),
      unjudged,
      external_predictions: provenance.filter((p) => p.model === null).length,
      models: distinct(provenance.map((p) => p.model)),
      judges: distinct(lines.map((l) => (l.judged ? judgeModelOf(l.judged) : null))),
      sampling: distinct<EvaluationSampling>(
        provenance.map((p) => p.sampling),
        (s) => JSON.stringify(s),
      ),
      rule_based: aggregate(lines.map((l) => l.details.metrics)),
      failure_reasons: failureReasons(lines.flatMap((l) => (l.outcome ? [l.outcome] : []))),
      domains: extras,
    },
  };
}
