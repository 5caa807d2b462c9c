import type { SimVsRealReport } from '../../../../src-main/common/contract/reality';

const WIDTH = 640;
const HEIGHT = 200;
const LEFT = 46;
const RIGHT = 12;
const TOP = 10;
const BOTTOM = 34;
const COLOURS = ['#6aa8ff', '#ffa94d', '#5fd38d', '#d08cff'];

/**
 * Mean similarity to the real observation at each step of the trajectories (1 = the first
 * step), one line per report (one per model in an A/B), with labelled axes: where predictions
 * drift as histories grow.
 */
export function StepChart({ lines }: { lines: { label: string; report: SimVsRealReport }[] }) {
  const depths = [...new Set(lines.flatMap((l) => l.report.byStep.map((s) => s.depth)))].sort((a, b) => a - b);
  if (!depths.length) return <p className="muted">No compared steps yet.</p>;
  const maxDepth = depths.at(-1)!;
  const x = (depth: number) => LEFT + (maxDepth === 1 ? 0.5 : (depth - 1) / (maxDepth - 1)) * (WIDTH - LEFT - RIGHT);
  const y = (score: number) => TOP + (1 - score) * (HEIGHT - TOP - BOTTOM);
  const every = Math.max(1, Math.ceil(depths.length / 12));
  return (
    <figure className="step-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Mean similarity to the real observation by step">
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <g key={v}>
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(v)} y2={y(v)} className="step-chart-grid" />
            <text x={LEFT - 6} y={y(v) + 4} textAnchor="end">{v}</text>
          </g>
        ))}
        {depths.filter((_, i) => i % every === 0).map((d) => (
          <text key={d} x={x(d)} y={HEIGHT - BOTTOM + 15} textAnchor="middle">{d}</text>
        ))}
        <text x={(LEFT + WIDTH - RIGHT) / 2} y={HEIGHT - 4} textAnchor="middle" className="step-chart-axis">step of the trajectory</text>
        <text transform={`translate(11 ${(TOP + HEIGHT - BOTTOM) / 2}) rotate(-90)`} textAnchor="middle" className="step-chart-axis">similarity to real</text>
        {lines.map(({ label, report }, i) => {
          const points = report.byStep.filter((s) => s.metrics.editSimilarity !== undefined);
          const colour = COLOURS[i % COLOURS.length];
          return (
            <g key={label}>
              <path d={points.map((s, j) => `${j ? 'L' : 'M'}${x(s.depth)},${y(s.metrics.editSimilarity!)}`).join(' ')} fill="none" stroke={colour} strokeWidth={2} />
              {points.map((s) => (
                <circle key={s.depth} cx={x(s.depth)} cy={y(s.metrics.editSimilarity!)} r={3} fill={colour}>
                  <title>{`${label}, step ${s.depth}: similarity ${s.metrics.editSimilarity!.toFixed(3)} over ${s.steps} steps, ${s.diverged} diverged`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      {lines.length > 1 && (
        <figcaption>
          {lines.map(({ label }, i) => (
            <span key={label} style={{ color: COLOURS[i % COLOURS.length] }}>● {label} </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}
