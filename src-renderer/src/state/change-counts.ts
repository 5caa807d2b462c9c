// The workspace's and the trajectory list's counts after nodes came or went, worked out
// here from the change event instead of asking the core for the whole list again.
import type { WorkspaceInfo } from '../../../src-main/common/contract/api';
import type { NodeRecord, TrajectorySummary } from '../../../src-main/common/trajectory/model';

/** `sign` 1 for nodes added, -1 for nodes removed (a removed node's depth leaves maxDepth as it was: a deeper sibling may remain). */
export function countedNodes(
  workspace: WorkspaceInfo | null,
  trajectories: readonly TrajectorySummary[],
  nodes: readonly Pick<NodeRecord, 'trajectoryId' | 'depth' | 'origin' | 'parentId'>[],
  sign: 1 | -1,
): { workspace: WorkspaceInfo | null; trajectories: TrajectorySummary[] } {
  const steps = nodes.filter((n) => n.parentId !== null);
  const byOrigin = { ...(workspace?.byOrigin ?? {}) };
  for (const n of steps) {
    const next = (byOrigin[n.origin] ?? 0) + sign;
    if (next > 0) byOrigin[n.origin] = next;
    else delete byOrigin[n.origin];
  }
  const deepest = new Map<string, { count: number; depth: number }>();
  for (const n of steps) {
    const seen = deepest.get(n.trajectoryId) ?? { count: 0, depth: 0 };
    deepest.set(n.trajectoryId, { count: seen.count + 1, depth: Math.max(seen.depth, n.depth) });
  }
  return {
    workspace: workspace && { ...workspace, steps: workspace.steps + sign * steps.length, byOrigin },
    trajectories: trajectories.map((t) => {
      const change = deepest.get(t.id);
      if (!change) return t;
      return { ...t, steps: t.steps + sign * change.count, maxDepth: sign > 0 ? Math.max(t.maxDepth, change.depth) : t.maxDepth };
    }),
  };
}
