import type { ScoreSummary } from '../../../../src-main/common/contract/evaluation';
import { RUBRIC } from '../../../../src-main/common/judge-reply';

/** The bars drawn for each domain, in order: the judge's five dimensions, its total, then edit similarity. */
const SERIES = [...RUBRIC.map((d) => ({ key: d, label: d })), { key: 'total_score', label: 'total_score' }, { key: 'edit', label: 'edit similarity ×100' }] as const;
const TICKS = [0, 25, 50, 75, 100];

/**
 * Per-domain grouped bars on one 0–100 axis: each rubric dimension, the judge's total_score
 * and edit similarity (×100, so it needs no judge). Ticks, grid lines and axis titles make the
 * values readable without the table; a missing value draws no bar and says "—".
 */
export function ScoreChart({ summary }: { summary: ScoreSummary }) {
  const entries = Object.entries(summary.domains);
  const bar = 7;
  const groupHeight = SERIES.length * bar + 12;
  const left = 90;
  const plotWidth = 300;
  const top = 8;
  const plotHeight = entries.length * groupHeight;
  const axisY = top + plotHeight;
  const legendY = axisY + 40;
  const x = (value: number) => left + (Math.max(0, Math.min(100, value)) / 100) * plotWidth;
  return (
    <svg className="score-chart" role="img" aria-label="Scores per domain" width={left + plotWidth + 60} height={legendY + Math.ceil(SERIES.length / 2) * 14 + 4}>
      {TICKS.map((t) => (
        <g key={t} className="chart-tick" data-testid="chart-tick">
          <line x1={x(t)} x2={x(t)} y1={top} y2={axisY} className="chart-grid" />
          <text x={x(t)} y={axisY + 14} textAnchor="middle" className="chart-label">
            {t}
          </text>
        </g>
      ))}
      <line x1={left} x2={left} y1={top} y2={axisY} className="chart-axis" />
      <line x1={left} x2={left + plotWidth} y1={axisY} y2={axisY} className="chart-axis" />
      <text x={left + plotWidth / 2} y={axisY + 30} textAnchor="middle" className="chart-label chart-axis-title">
        score (normalized 0–100)
      </text>
      {entries.map(([subtask, d], i) => {
        const y0 = top + i * groupHeight + 6;
        const editSimilarity = summary.worldloom.domains[subtask]?.rule_based.editSimilarity;
        const { display: _, ...scores } = d;
        const values: Record<string, number | null> = { ...scores, edit: editSimilarity === undefined ? null : editSimilarity * 100 };
        return (
          <g key={subtask} aria-label={d.display}>
            <text x={left - 6} y={y0 + (SERIES.length * bar) / 2 + 4} textAnchor="end" className="chart-label chart-domain">
              {d.display}
            </text>
            {SERIES.map((s, j) => {
              const value = values[s.key] ?? null;
              const y = y0 + j * bar;
              return (
                <g key={s.key}>
                  <title>{`${d.display} ${s.label}: ${value === null ? '—' : value.toFixed(1)}`}</title>
                  {value !== null && <rect x={left} y={y} width={x(value) - left} height={bar - 1} className={`bar bar-${s.key}`} />}
                  <text x={(value === null ? left : x(value)) + 3} y={y + bar - 1} className="chart-value">
                    {value === null ? '—' : value.toFixed(0)}
                  </text>
                </g>
              );
            })}
          </g>
        );
      })}
      {SERIES.map((s, j) => (
        <g key={s.key} transform={`translate(${left + (j % 2) * 160}, ${legendY + Math.floor(j / 2) * 14})`}>
          <rect width={10} height={8} className={`bar bar-${s.key}`} />
          <text x={14} y={8} className="chart-label">
            {s.label}
          </text>
        </g>
      ))}
    </svg>
  );
}
