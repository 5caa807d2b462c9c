import type { SimVsRealReport } from '../../../../src-main/common/contract/reality';
import { STEP_CHART, stepChart, stepPointTitle } from '../../../../src-main/common/step-chart';

const { width, height, left, right, top, bottom } = STEP_CHART;

/**
 * Mean similarity to the real observation at each step of the trajectories (1 = the first
 * step), one line per report (one per model in an A/B), with labelled axes: where predictions
 * drift as histories grow.
 */
export function StepChart({ lines }: { lines: { label: string; report: SimVsRealReport }[] }) {
  const chart = stepChart(lines);
  if (!chart) return <p className="muted">No compared steps yet.</p>;
  return (
    <figure className="step-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label="Mean similarity to the real observation by step">
        {chart.yTicks.map((t) => (
          <g key={t.value}>
            <line x1={left} x2={width - right} y1={t.y} y2={t.y} className="step-chart-grid" />
            <text x={left - 6} y={t.y + 4} textAnchor="end">{t.value}</text>
          </g>
        ))}
        {chart.xTicks.map((t) => (
          <text key={t.depth} x={t.x} y={height - bottom + 15} textAnchor="middle">{t.depth}</text>
        ))}
        <text x={(left + width - right) / 2} y={height - 4} textAnchor="middle">step of the trajectory</text>
        <text transform={`translate(11 ${(top + height - bottom) / 2}) rotate(-90)`} textAnchor="middle">similarity to real</text>
        {chart.lines.map((line) => (
          <g key={line.label}>
            <path d={line.path} fill="none" stroke={line.colour} strokeWidth={2} />
            {line.points.map((p) => (
              <circle key={p.depth} cx={p.x} cy={p.y} r={3} fill={line.colour}>
                <title>{stepPointTitle(line.label, p)}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      {chart.lines.length > 1 && (
        <figcaption>
          {chart.lines.map((line) => (
            <span key={line.label} style={{ color: line.colour }}>● {line.label} </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}
