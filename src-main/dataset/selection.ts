// Which nodes of a trajectory a selection picks, and where each example ends. Pure.
// A step example ends at every selected step; a path example ends at every selected node
// that has no selected node below it, so a path is taken once, at its deepest selection.
// An example whose path holds a step the model wrote until it ran out of tokens (finish
// reason "length") is left out unless asked for: a cut-off observation is not training data.
import type { DatasetSelection, SelectionScope } from '../common/contract/dataset';
import type { NodeRecord, TrajectoryBundle } from '../common/trajectory/model';
import { parseFilter, type NodePredicate } from './filter-expression';

export interface CompiledSelection {
  scope: SelectionScope;
  keep: NodePredicate;
}

export function compileSelection(selection: DatasetSelection): CompiledSelection {
  return { scope: selection.scope, keep: parseFilter(selection.filter) };
}

/** The trajectory ids a scope can touch, or undefined for every trajectory. */
export function scopeTrajectoryIds(scope: SelectionScope): readonly string[] | undefined {
  return scope.kind === 'trajectories' ? scope.trajectoryIds : undefined;
}

/** The steps (never roots) of one trajectory that the selection keeps, parents before children. */
export function selectedSteps(bundle: TrajectoryBundle, selection: CompiledSelection): NodeRecord[] {
  const inScope = scopeMembers(bundle.nodes, selection.scope);
  const { trajectory } = bundle;
  return bundle.nodes.filter((node) => node.parentId !== null && (inScope === null || inScope.has(node.id)) && selection.keep({ trajectory, node }));
}

/** True for a step the model wrote until its token budget ran out. */
export function endedByLength(node: NodeRecord): boolean {
  return node.provenance.finishReason === 'length';
}

/**
 * Where examples end: every selected step, or (per path) only the deepest selected node of
 * each path; without `keepCutOff`, none whose path holds a step that ended by length.
 */
export function exampleEnds(bundle: TrajectoryBundle, selection: CompiledSelection, per: 'step' | 'path', keepCutOff = false): NodeRecord[] {
  const ends = deepestOrEvery(bundle, selection, per);
  if (keepCutOff || !bundle.nodes.some(endedByLength)) return ends;
  const byId = new Map(bundle.nodes.map((n) => [n.id, n]));
  const cutOnPath = (node: NodeRecord | undefined): boolean => {
    for (let n = node; n; n = n.parentId ? byId.get(n.parentId) : undefined) if (endedByLength(n)) return true;
    return false;
  };
  return ends.filter((n) => !cutOnPath(n));
}

function deepestOrEvery(bundle: TrajectoryBundle, selection: CompiledSelection, per: 'step' | 'path'): NodeRecord[] {
  const steps = selectedSteps(bundle, selection);
  if (per === 'step') return steps;
  const selected = new Set(steps.map((n) => n.id));
  const byId = new Map(bundle.nodes.map((n) => [n.id, n]));
  const hasSelectedBelow = new Set<string>();
  for (const node of steps) {
    for (let p = node.parentId ? byId.get(node.parentId) : undefined; p; p = p.parentId ? byId.get(p.parentId) : undefined) {
      if (hasSelectedBelow.has(p.id)) break;
      if (selected.has(p.id)) hasSelectedBelow.add(p.id);
    }
  }
  return steps.filter((n) => !hasSelectedBelow.has(n.id));
}

/** The ids of the nodes a scope allows, or null when it allows all of them. */
function scopeMembers(nodes: readonly NodeRecord[], scope: SelectionScope): Set<string> | null {
  switch (scope.kind) {
    case 'all':
    case 'trajectories':
      return null;
    case 'nodes':
      return new Set(scope.nodeIds);
    case 'path': {
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const members = new Set<string>();
      for (let n = byId.get(scope.nodeId); n; n = n.parentId ? byId.get(n.parentId) : undefined) members.add(n.id);
      return members;
    }
    case 'subtree': {
      const members = new Set<string>();
      if (!nodes.some((n) => n.id === scope.nodeId)) return members;
      members.add(scope.nodeId);
      // Nodes come parents first, so one pass finds every descendant.
      for (const n of nodes) if (n.parentId !== null && members.has(n.parentId)) members.add(n.id);
      return members;
    }
  }
}
