import type { StepComparison } from '../../../../src-main/common/contract/reality';
import { timeline } from '../../../../src-main/common/timeline';

const WIDTH = 720;
const HEIGHT = 90;

/** Edit similarity of simulated to real, step by step; red dots are steps where the simulation diverged. */
export function DivergenceTimeline({ steps, current, onPick }: { steps: StepComparison[]; current: number; onPick: (index: number) => void }) {
  const t = timeline(steps, WIDTH, HEIGHT);
  const first = t.points[0]?.depth;
  const last = t.points.at(-1)?.depth;
  // The axes are labelled in HTML beside the SVG: the SVG stretches to the pane's width, which would distort its text.
  return (
    <figure className="timeline-figure" aria-label="Similarity to the real observation by step">
      <div className="timeline-y" aria-hidden>
        <span>1</span>
        <span className="timeline-y-title">similarity to real</span>
        <span>0</span>
      </div>
      <TimelineSvg t={t} current={current} onPick={onPick} />
      <div className="timeline-x muted small">
        <span>{first !== undefined ? `step ${first}` : ''}</span>
        <span>
          step of the trajectory · <span className="timeline-key same">●</span> close to real · <span className="timeline-key diverged">●</span> diverged ·{' '}
          <span className="timeline-key missing">●</span> not compared
        </span>
        <span>{last !== undefined && last !== first ? `step ${last}` : ''}</span>
      </div>
    </figure>
  );
}

function TimelineSvg({ t, current, onPick }: { t: ReturnType<typeof timeline>; current: number; onPick: (index: number) => void }) {
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
