// Simulated and real observations side by side, step by step, for the compare view, the
// replay and the reports. Pure: works on a trajectory's nodes, computes nothing it cannot
// recompute, so stored and shown metrics always agree with the texts.
import type { SimVsRealReport, StepComparison, TrajectoryComparison } from '../common/contract/reality';
import { aggregate, compareObservations } from '../common/metrics/compare';
import { pathTo } from '../common/trajectory/build';
import type { NodeRecord, Origin, TrajectoryRecord } from '../common/trajectory/model';

/** Origins whose observation came from the real environment (recorded, or imported from a recording). */
const REAL: ReadonlySet<Origin> = new Set(['real', 'imported']);

export const isRealNode = (n: NodeRecord) => REAL.has(n.origin);

function childrenOf(nodes: readonly NodeRecord[]): Map<string | null, NodeRecord[]> {
  const children = new Map<string | null, NodeRecord[]>();
  for (const n of nodes) {
    const list = children.get(n.parentId) ?? [];
    list.push(n);
    children.set(n.parentId, list);
  }
  return children;
}

/** The recorded chain: from the root, the first real child at each depth. */
export function recordedChain(nodes: readonly NodeRecord[]): NodeRecord[] {
  const children = childrenOf(nodes);
  const root = children.get(null)?.[0];
  if (!root) return [];
  const chain = [root];
  for (let next = children.get(root.id)?.find(isRealNode); next; next = children.get(next.id)?.find(isRealNode)) chain.push(next);
  return chain;
}

/**
 * The path to compare: the path to `nodeId`, continued below it through children of the
 * same kind (real or not); without a node, the recorded chain.
 */
export function comparedPath(nodes: readonly NodeRecord[], nodeId?: string): NodeRecord[] {
  if (!nodeId) return recordedChain(nodes);
  const path = pathTo(nodes, nodeId);
  const children = childrenOf(nodes);
  const last = path.at(-1);
  if (!last) return [];
  const sameKind = (n: NodeRecord) => isRealNode(n) === isRealNode(last);
  for (let next = children.get(last.id)?.find(sameKind); next; next = children.get(next.id)?.find(sameKind)) path.push(next);
  return path;
}

/**
 * What tells one world model's predictions from another's: the identity its engine gave (other
 * weights or another quantisation of the same model), else its model id.
 */
export function modelKeyOf(node: NodeRecord): string | null {
  const { modelIdentity, modelId } = node.provenance as { modelIdentity?: unknown; modelId?: unknown };
  if (typeof modelIdentity === 'string' && modelIdentity) return modelIdentity;
  return typeof modelId === 'string' && modelId ? modelId : null;
}

/** The step at one node of the path: its real and simulated sides among the siblings that took the same action. */
function stepAt(node: NodeRecord, siblings: readonly NodeRecord[], domain: TrajectoryRecord['domain'], model?: string): StepComparison {
  const same = siblings.filter((s) => s.action === node.action);
  const latest = (pick: (n: NodeRecord) => boolean) => same.filter(pick).at(-1) ?? null;
  const real = isRealNode(node) ? node : latest(isRealNode);
  // Anything not real stands on the simulated side: predicted, perturbed, edited or typed by hand;
  // for one model of several (an A/B), only what that model predicted.
  const simulated = model !== undefined
    ? latest((n) => !isRealNode(n) && modelKeyOf(n) === model)
    : !isRealNode(node) ? node : latest((n) => !isRealNode(n));
  const metrics = real && simulated ? compareObservations(domain, simulated.observation, real.observation, { action: node.action }) : null;
  return {
    depth: node.depth,
    action: node.action,
    realNodeId: real?.id ?? null,
    simulatedNodeId: simulated?.id ?? null,
    real: real?.observation ?? null,
    simulated: simulated?.observation ?? null,
    metrics,
    diverged: metrics ? metrics.exactMatch !== 1 : null,
  };
}

/** Real and simulated side by side along a path; with `model`, only that model's predictions (modelKeyOf). */
export function compareTrajectory(trajectory: TrajectoryRecord, nodes: readonly NodeRecord[], nodeId?: string, model?: string): TrajectoryComparison {
  const children = childrenOf(nodes);
  const steps = comparedPath(nodes, nodeId)
    .slice(1)
    .map((n) => stepAt(n, children.get(n.parentId) ?? [], trajectory.domain, model));
  return {
    trajectoryId: trajectory.id,
    title: trajectory.title,
    domain: trajectory.domain,
    steps,
    aggregate: aggregate(steps.map((s) => s.metrics)),
    firstDivergence: steps.find((s) => s.diverged)?.depth ?? null,
  };
}

/** Per-trajectory comparisons with per-domain, per-step and overall means (over steps, not trajectories). */
export function buildReport(comparisons: readonly TrajectoryComparison[], now = new Date(), model?: string): SimVsRealReport {
  const compared = comparisons.filter((c) => c.steps.some((s) => s.metrics));
  const byDomain: SimVsRealReport['byDomain'] = {};
  for (const domain of new Set(compared.map((c) => c.domain))) {
    const mine = compared.filter((c) => c.domain === domain);
    const records = mine.flatMap((c) => c.steps.map((s) => s.metrics)).filter((m) => m !== null);
    byDomain[domain] = { trajectories: mine.length, steps: records.length, metrics: aggregate(records) };
  }
  return {
    createdAt: now.toISOString(),
    trajectories: compared,
    byDomain,
    overall: aggregate(compared.flatMap((c) => c.steps.map((s) => s.metrics))),
    byStep: byStep(compared),
    ...(model !== undefined ? { model } : {}),
  };
}

function byStep(comparisons: readonly TrajectoryComparison[]): SimVsRealReport['byStep'] {
  const depths = new Map<number, StepComparison[]>();
  for (const step of comparisons.flatMap((c) => c.steps)) {
    if (!step.metrics) continue;
    const at = depths.get(step.depth);
    if (at) at.push(step);
    else depths.set(step.depth, [step]);
  }
  return [...depths.entries()]
    .sort(([a], [b]) => a - b)
    .map(([depth, steps]) => ({ depth, steps: steps.length, diverged: steps.filter((s) => s.diverged).length, metrics: aggregate(steps.map((s) => s.metrics)) }));
}
