// The score summary as text, as `worldloom eval` prints it: first the block the public
// evaluation script (QwenLM/Qwen-AgentWorld eval/eval.py) prints, with its labels, order
// and two decimals, so the two can be compared line by line; then what only Worldloom
// reports (rule-based metrics, the macro mean, models and sampling).
import type { EvaluationSampling, ScoreSummary } from '../common/contract/evaluation';
import { RUBRIC } from '../common/judge-reply';

const RULE = '='.repeat(70);

/**
 * Two decimals as Python's format(x, '.2f') writes them. Both round the exact binary value;
 * they differ only on an exact tie, which Python rounds to even and toFixed rounds up. Only
 * multiples of 1/8 with an odd numerator (0.125, 0.375…) sit exactly halfway.
 */
export function twoDecimals(x: number): string {
  const scaled = x * 100;
  if (Number.isInteger(x * 8) && !Number.isInteger(scaled)) {
    const down = Math.floor(scaled);
    return ((down % 2 === 0 ? down : down + 1) / 100).toFixed(2);
  }
  return x.toFixed(2);
}

export function publicScoreBlock(summary: ScoreSummary): string {
  const lines = ['', RULE, 'AgentWorldBench Evaluation Results', RULE];
  for (const [subtask, d] of Object.entries(summary.domains)) {
    const unjudged = summary.worldloom.domains[subtask]?.unjudged ?? 0;
    lines.push('', `--- ${d.display} (${d.valid}/${d.total} valid, ${d.failed} failed${unjudged > 0 ? `, ${unjudged} not judged` : ''}) ---`);
    if (d.valid === 0) {
      lines.push('  No valid results.');
      continue;
    }
    for (const dim of [...RUBRIC, 'total_score'] as const) {
      const value = d[dim];
      lines.push(`  ${dim.padStart(15)}: ${value === null ? 'n/a' : twoDecimals(value)}`);
    }
  }
  if (summary.overall !== null) {
    lines.push('', RULE, `Overall: ${twoDecimals(summary.overall)}`);
    lines.push(`Total samples: ${summary.total_samples}, Valid: ${summary.valid}, Failed: ${summary.failed}`, RULE);
  }
  return lines.join('\n');
}

function samplingText(s: EvaluationSampling): string {
  const how = s.temperature > 0 ? `temperature ${s.temperature}, top-p ${s.top_p}${s.top_k > 0 ? `, top-k ${s.top_k}` : ''}, seed ${s.seed}` : 'greedy';
  return `${how}, at most ${s.max_tokens} tokens`;
}

/** Rule-based metrics per domain and overall, then the macro mean and what produced the run. */
export function worldloomReport(summary: ScoreSummary): string {
  const w = summary.worldloom;
  const metric = (m: Record<string, number> | undefined, name: string) => (m?.[name] === undefined ? '—' : m[name].toFixed(3));
  const head = ['domain', 'cases', 'exact match', 'edit similarity', 'json structure'];
  const rows = [
    ...Object.entries(summary.domains).map(([subtask, d]) => [d.display, String(d.total), w.domains[subtask]?.rule_based] as const),
    ['all', String(summary.total_samples), w.rule_based] as const,
  ].map(([name, n, m]) => [name, n, metric(m, 'exactMatch'), metric(m, 'editSimilarity'), metric(m, 'jsonStructure')]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const row = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const lines = ['Rule-based metrics (no judge needed)', row(head), ...rows.map(row), ''];
  lines.push(`Mean of the domains' total_score (macro): ${w.macro_overall === null ? 'n/a' : twoDecimals(w.macro_overall)}`);
  if (w.unjudged > 0) lines.push(`Not judged yet: ${w.unjudged}`);
  const failures = Object.entries(w.failure_reasons);
  if (failures.length > 0) {
    lines.push('Why cases failed:');
    for (const [reason, count] of failures) lines.push(`  ${String(count).padStart(5)} × ${reason}`);
  }
  lines.push(`Model: ${[...w.models, ...(w.external_predictions > 0 ? [`${w.external_predictions} predictions from another tool`] : [])].join(', ') || '—'}`);
  lines.push(`Judge: ${w.judges.join(', ') || '—'}`);
  lines.push(`Sampling: ${w.sampling.map(samplingText).join('; ') || '—'}`);
  return lines.join('\n');
}
