import type { ScoreSummary } from '../../../../src-main/common/contract/evaluation';

/** Per-domain bars (0–100): the judge's total_score and edit similarity side by side; plain SVG. */
export function ScoreChart({ summary }: { summary: ScoreSummary }) {
  const entries = Object.entries(summary.domains);
  const rowHeight = 26;
  const labelWidth = 80;
  const width = 420;
  const bar = (value: number | null | undefined) => (Math.max(0, value ?? 0) / 100) * (width - labelWidth - 50);
  return (
    <svg className="score-chart" role="img" aria-label="Scores per domain" width={width} height={entries.length * rowHeight + 24}>
      {entries.map(([subtask, d], i) => {
        const y = i * rowHeight + 4;
        const editSimilarity = summary.worldloom.domains[subtask]?.rule_based.editSimilarity;
        const edit = editSimilarity === undefined ? null : editSimilarity * 100;
        return (
          <g key={subtask}>
            <text x={0} y={y + 14} className="chart-label">
              {d.display}
            </text>
            <rect x={labelWidth} y={y} width={bar(d.total_score)} height={9} className="bar-judge" />
            <rect x={labelWidth} y={y + 11} width={bar(edit)} height={9} className="bar-edit" />
            <text x={labelWidth + bar(Math.max(d.total_score ?? 0, edit ?? 0)) + 4} y={y + 14} className="chart-value">
              {d.total_score === null ? '—' : d.total_score.toFixed(1)}
              {edit === null ? '' : ` · ${edit.toFixed(0)}`}
            </text>
          </g>
        );
      })}
      <g transform={`translate(${labelWidth}, ${entries.length * rowHeight + 12})`}>
        <rect width={10} height={8} className="bar-judge" />
        <text x={14} y={8} className="chart-label">
          judge total_score (0–100)
        </text>
        <rect x={170} width={10} height={8} className="bar-edit" />
        <text x={184} y={8} className="chart-label">
          edit similarity ×100
        </text>
      </g>
    </svg>
  );
}
