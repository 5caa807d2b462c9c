// The divergence timeline's geometry: one point per step (similarity on the y axis) and
// a mark on each diverged step. Pure, so the compare view (React SVG) and the HTML
// report draw the same chart.
import type { StepComparison } from './contract/reality';

export interface TimelinePoint {
  depth: number;
  x: number;
  /** NaN when the step has no simulated side to compare. */
  y: number;
  similarity: number | null;
  diverged: boolean;
}

export interface Timeline {
  width: number;
  height: number;
  points: TimelinePoint[];
  /** SVG path through the compared points ("" when none). */
  line: string;
}

export const TIMELINE_PAD = 12;

/** Edit similarity per step, scaled into a width × height box (1 at the top, 0 at the bottom). */
export function timeline(steps: readonly StepComparison[], width: number, height: number): Timeline {
  const innerW = width - 2 * TIMELINE_PAD;
  const innerH = height - 2 * TIMELINE_PAD;
  const points = steps.map((s, i) => {
    const similarity = s.metrics?.editSimilarity ?? null;
    return {
      depth: s.depth,
      x: TIMELINE_PAD + (steps.length > 1 ? (i * innerW) / (steps.length - 1) : innerW / 2),
      y: similarity === null ? Number.NaN : TIMELINE_PAD + (1 - similarity) * innerH,
      similarity,
      diverged: s.diverged === true,
    };
  });
  const line = points
    .filter((p) => !Number.isNaN(p.y))
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`)
    .join(' ');
  return { width, height, points, line };
}
