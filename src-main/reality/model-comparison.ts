// Which world model is closer to reality: the same recorded steps replayed through two (or
// more) models with the same seeds, each model's predictions compared with the real
// observations, side by side. This is how a user sees whether a fine-tune, a quantised file
// or a smaller model is good enough for their own environments. Pure: works on stored nodes.
import type { ModelComparison, SimVsRealReport } from '../common/contract/reality';
import { METRICS } from '../common/metrics/compare';
import type { NodeRecord, TrajectoryRecord } from '../common/trajectory/model';
import { buildReport, compareTrajectory, isRealNode, modelKeyOf } from './comparison';

export interface ReplayedTrajectory {
  trajectory: TrajectoryRecord;
  nodes: readonly NodeRecord[];
}

/** The score steps are ranked by: how close a prediction's characters are to the real screen. */
const SCORE = METRICS.editSimilarity;
/** How many of the steps where the models differ most are shown. */
const MOST_DIFFERENT = 20;

/** A readable name for a model key: the name its predictions carry (a folder's name), else their model id. */
function labelOf(key: string, replayed: readonly ReplayedTrajectory[]): string {
  for (const { nodes } of replayed) {
    const node = nodes.find((n) => modelKeyOf(n) === key);
    const { modelName, modelId } = (node?.provenance ?? {}) as { modelName?: unknown; modelId?: unknown };
    if (typeof modelName === 'string' && modelName) return modelName;
    if (typeof modelId === 'string' && modelId) return modelId === key ? modelId : `${modelId} (${key.length > 24 ? `…${key.slice(-23)}` : key})`;
  }
  return key;
}

/** Mean decode rate of one model's predictions (tokens per second of each stream, as the engine timed it). */
function streamRate(key: string, replayed: readonly ReplayedTrajectory[]): number {
  let tokens = 0;
  let ms = 0;
  for (const { nodes } of replayed) {
    for (const n of nodes) {
      if (isRealNode(n) || modelKeyOf(n) !== key || n.provenance.replayOf === undefined) continue;
      const decodeMs = Number((n.provenance.timings as { decodeMs?: unknown } | undefined)?.decodeMs ?? 0);
      const completion = Number(n.provenance.tokens?.completion ?? 0);
      if (decodeMs > 0 && completion > 0) {
        tokens += completion;
        ms += decodeMs;
      }
    }
  }
  return ms > 0 ? (tokens / ms) * 1000 : 0;
}

/**
 * Each model's report over the same trajectories, and the steps where their predictions are
 * furthest apart in how close they came to the real observation.
 */
export function compareModels(replayed: readonly ReplayedTrajectory[], modelKeys: readonly string[], now = new Date()): ModelComparison {
  const reports: SimVsRealReport[] = modelKeys.map((key) =>
    buildReport(replayed.map(({ trajectory, nodes }) => compareTrajectory(trajectory, nodes, undefined, key)), now, key),
  );
  const [first, second] = reports;
  const differences: ModelComparison['differences'] = [];
  if (first && second) {
    const other = new Map(second.trajectories.map((t) => [t.trajectoryId, t]));
    for (const a of first.trajectories) {
      const b = other.get(a.trajectoryId);
      if (!b) continue;
      for (const stepA of a.steps) {
        const stepB = b.steps.find((s) => s.depth === stepA.depth && s.realNodeId === stepA.realNodeId);
        const scoreA = stepA.metrics?.[SCORE];
        const scoreB = stepB?.metrics?.[SCORE];
        if (!stepB || scoreA === undefined || scoreB === undefined) continue;
        differences.push({
          trajectoryId: a.trajectoryId,
          title: a.title,
          domain: a.domain,
          depth: stepA.depth,
          action: stepA.action,
          real: stepA.real ?? '',
          predictions: [
            { observation: stepA.simulated ?? '', score: scoreA },
            { observation: stepB.simulated ?? '', score: scoreB },
          ],
          gap: scoreA - scoreB,
        });
      }
    }
    differences.sort((x, y) => Math.abs(y.gap) - Math.abs(x.gap) || x.title.localeCompare(y.title) || x.depth - y.depth);
  }
  return {
    createdAt: now.toISOString(),
    score: SCORE,
    models: modelKeys.map((key, i) => ({ key, label: labelOf(key, replayed), streamTokensPerSecond: streamRate(key, replayed), report: reports[i]! })),
    differences: differences.filter((d) => d.gap !== 0).slice(0, MOST_DIFFERENT),
  };
}

/** The model keys that made replay predictions in these trajectories, most predictions first. */
export function replayedModels(replayed: readonly ReplayedTrajectory[]): { key: string; label: string; predictions: number }[] {
  const counts = new Map<string, number>();
  for (const { nodes } of replayed) {
    for (const n of nodes) {
      const key = n.provenance.replayOf !== undefined && !isRealNode(n) ? modelKeyOf(n) : null;
      if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([key, predictions]) => ({ key, label: labelOf(key, replayed), predictions }));
}
