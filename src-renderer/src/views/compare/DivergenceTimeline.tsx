import type { StepComparison } from '../../../../src-main/common/contract/reality';
import { timeline } from '../../../../src-main/common/timeline';

const WIDTH = 720;
const HEIGHT = 90;

/** Edit similarity of simulated to real, step by step; red dots are steps where the simulation diverged. */
export function DivergenceTimeline({ steps, current, onPick }: { steps: StepComparison[]; current: number; onPick: (index: number) => void }) {
  const t = timeline(steps, WIDTH, HEIGHT);
  return (
    <svg className="timeline" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Divergence timeline" preserveAspectRatio="none">
      <line x1={0} x2={WIDTH} y1={12} y2={12} className="timeline-grid" />
      <line x1={0} x2={WIDTH} y1={HEIGHT - 12} y2={HEIGHT - 12} className="timeline-grid" />
      <path d={t.line} className="timeline-line" />
      {t.points.map((p, i) => (
        <g key={p.depth} onClick={() => onPick(i)} className="timeline-point">
          {i === current && <line x1={p.x} x2={p.x} y1={0} y2={HEIGHT} className="timeline-cursor" />}
          <circle cx={p.x} cy={Number.isNaN(p.y) ? HEIGHT / 2 : p.y} r={i === current ? 6 : 4} className={Number.isNaN(p.y) ? 'missing' : p.diverged ? 'diverged' : 'same'}>
            <title>
              Step {p.depth}: {p.similarity === null ? 'no pair to compare' : `similarity ${p.similarity.toFixed(3)}${p.diverged ? ', diverged' : ''}`}
            </title>
          </circle>
        </g>
      ))}
    </svg>
  );
}
