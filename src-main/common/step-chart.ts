// The per-step chart's geometry: mean similarity to the real observation at each step depth
// (1 = the first step), one line per report (one per model in an A/B), with its axes' ticks.
// Pure, so the sim-vs-real views (React SVG) and the HTML report draw the same chart.
import type { SimVsRealReport } from './contract/reality';

export const STEP_CHART = { width: 640, height: 200, left: 46, right: 12, top: 10, bottom: 34 } as const;
export const STEP_CHART_COLOURS = ['#6aa8ff', '#ffa94d', '#5fd38d', '#d08cff'];

export interface StepChartLine {
  label: string;
  colour: string;
  /** SVG path through the line's points. */
  path: string;
  points: { depth: number; x: number; y: number; similarity: number; steps: number; diverged: number }[];
}

export interface StepChart {
  /** Horizontal grid lines with their value (0 … 1). */
  yTicks: { value: number; y: number }[];
  /** Step depths labelled along the x axis (at most about 12). */
  xTicks: { depth: number; x: number }[];
  lines: StepChartLine[];
}

export function stepChart(reports: readonly { label: string; report: SimVsRealReport }[]): StepChart | null {
  const { width, height, left, right, top, bottom } = STEP_CHART;
  const depths = [...new Set(reports.flatMap((r) => r.report.byStep.map((s) => s.depth)))].sort((a, b) => a - b);
  if (!depths.length) return null;
  const maxDepth = depths.at(-1)!;
  const x = (depth: number) => left + (maxDepth === 1 ? 0.5 : (depth - 1) / (maxDepth - 1)) * (width - left - right);
  const y = (score: number) => top + (1 - score) * (height - top - bottom);
  const every = Math.max(1, Math.ceil(depths.length / 12));
  return {
    yTicks: [0, 0.25, 0.5, 0.75, 1].map((value) => ({ value, y: y(value) })),
    xTicks: depths.filter((_, i) => i % every === 0).map((depth) => ({ depth, x: x(depth) })),
    lines: reports.map(({ label, report }, i) => {
      const points = report.byStep
        .filter((s) => s.metrics.editSimilarity !== undefined)
        .map((s) => ({ depth: s.depth, x: x(s.depth), y: y(s.metrics.editSimilarity!), similarity: s.metrics.editSimilarity!, steps: s.steps, diverged: s.diverged }));
      return {
        label,
        colour: STEP_CHART_COLOURS[i % STEP_CHART_COLOURS.length]!,
        path: points.map((p, j) => `${j ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '),
        points,
      };
    }),
  };
}

/** A point's tooltip, the same in both drawings. */
export function stepPointTitle(label: string, p: StepChartLine['points'][number]): string {
  return `${label}, step ${p.depth}: similarity ${p.similarity.toFixed(3)} over ${p.steps} steps, ${p.diverged} diverged`;
}
