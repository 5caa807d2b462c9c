// A resumed Claude Code session imported apart from the one it resumed. Older versions start a
// new file on --resume and copy the earlier conversation into it, record for record, before the
// new turns (./continued.ts). Imported together, the two files give each step once
// (../../sessions/continued-sessions.ts); imported on different days they would not: the workspace
// would hold the earlier session's trajectory and a second one whose first steps repeat it.
// So, before a Claude Code conversation is written:
// - a resumed session (its root names the sessions it resumed, and for each how many of its first
//   steps run to that session's last) whose steps copied from an earlier session are the path
//   from the root of that session's trajectory continues that trajectory: its steps the path
//   lacks go under the last one it holds. Where the
//   path no longer holds them (a step deleted since), it is imported whole, and the report says why;
// - a session whose steps are all, from the root, in the trajectory of a session that resumed
//   it is already there.
// A step is the same step when it is the same tool call (Claude Code's call id, which the copy
// keeps) with the same action and observation, at the same place on the path. What is compared
// on the trajectories already here is what every Claude Code import has kept (the session id,
// each step's call id); a resumed session imported before its trajectory named the sessions it
// resumed is not found from the earlier one, which is then imported as before.
import type { NodeRecord, TrajectoryBundle } from '../../common/trajectory/model';
import type { WorkspaceStore } from '../../store/workspace-store';
import type { WorkspacePlacement } from '../format';

interface ClaudeCodeRoot {
  sampleId?: string;
  resumedFrom?: string[];
  /** For each session it resumed: how many of its first steps run to the last one written in that session. */
  copiedSteps?: Record<string, number>;
  subagent?: unknown;
}

function rootOf(provenance: Record<string, unknown>): ClaudeCodeRoot {
  const source = provenance.source as { sampleId?: unknown } | undefined;
  const cc = (provenance.claudeCode ?? {}) as Record<string, unknown>;
  return {
    ...(typeof source?.sampleId === 'string' ? { sampleId: source.sampleId } : {}),
    ...(Array.isArray(cc.resumedFrom) ? { resumedFrom: cc.resumedFrom.filter((s): s is string => typeof s === 'string') } : {}),
    ...(typeof cc.copiedSteps === 'object' && cc.copiedSteps !== null ? { copiedSteps: cc.copiedSteps as Record<string, number> } : {}),
    ...(cc.subagent !== undefined ? { subagent: cc.subagent } : {}),
  };
}

const callIdOf = (n: Pick<NodeRecord, 'provenance'>): unknown => (n.provenance.tool as { callId?: unknown } | undefined)?.callId;

/** The same recorded step: the same call (bash-mode calls are named by their line, which differs between files) with the same action and observation. */
function sameStep(here: NodeRecord, step: NodeRecord): boolean {
  if (here.origin !== 'real' || here.action !== step.action || here.observation !== step.observation) return false;
  const a = callIdOf(here);
  const b = callIdOf(step);
  return typeof a === 'string' && typeof b === 'string' && (a === b || (a.startsWith('bash-input-') && b.startsWith('bash-input-')));
}

/** How many of `steps`, from the first, are the path from the trajectory's root, and the node the last of them is. */
function matchFromRoot(store: WorkspaceStore, rootId: string, steps: readonly NodeRecord[]): { matched: number; last: NodeRecord | undefined } {
  let at = rootId;
  let last: NodeRecord | undefined;
  let matched = 0;
  for (const step of steps) {
    const next = store.childrenOf(at).find((child) => sameStep(child, step));
    if (!next) break;
    matched++;
    last = next;
    at = next.id;
  }
  return { matched, last };
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Where a Claude Code session's trajectory goes in the workspace: see the top of this file. */
export function placeClaudeCodeSession(store: WorkspaceStore, bundle: TrajectoryBundle, file: string): WorkspacePlacement {
  const root = bundle.nodes[0];
  if (!root || root.parentId !== null) return { kind: 'new' };
  const own = rootOf(root.provenance);
  const steps = bundle.nodes.slice(1);
  // A subagent's conversation is not copied on resume; a trajectory already here is said so by the store.
  if (own.subagent !== undefined || steps.length === 0 || (bundle.trajectory.sourceKey && store.hasSourceKey(bundle.trajectory.sourceKey))) return { kind: 'new' };
  const rootsOf = (match: Parameters<WorkspaceStore['importedRoots']>[1]) =>
    store
      .importedRoots('claude-code', match)
      .map((r) => ({ ...r, cc: rootOf(r.provenance) }))
      .filter((r) => r.cc.subagent === undefined);
  const titleOf = (id: string) => store.getTrajectory(id)?.title ?? id;
  let note: string | undefined;
  const copiedFrom = Object.entries(own.copiedSteps ?? {}).filter(([, n]) => typeof n === 'number' && n > 0);
  if (copiedFrom.length) {
    // The trajectory of a session this one resumed whose path holds the steps copied from that session (the most of them).
    let best: { trajectoryId: string; copied: number; matched: number; last: NodeRecord | undefined } | undefined;
    for (const r of rootsOf({ sampleIds: copiedFrom.map(([session]) => session) })) {
      const copied = own.copiedSteps![r.cc.sampleId!]!;
      const m = matchFromRoot(store, r.rootId, steps);
      const holds = m.matched >= copied;
      const better = !best || (holds !== best.matched >= best.copied ? holds : m.matched > best.matched);
      if (better) best = { trajectoryId: r.trajectoryId, copied, ...m };
    }
    if (best && best.matched >= best.copied) {
      const title = titleOf(best.trajectoryId);
      if (best.matched === steps.length) {
        return { kind: 'present', trajectoryId: best.trajectoryId, title, note: `already present: every step of it continues trajectory ${title}` };
      }
      const parent = best.last!;
      const nodes = steps.slice(best.matched).map((step, i, rest) => ({
        ...step,
        trajectoryId: best.trajectoryId,
        parentId: i === 0 ? parent.id : rest[i - 1]!.id,
        depth: parent.depth + 1 + i,
      }));
      return { kind: 'continue', trajectoryId: best.trajectoryId, title, nodes, note: `continued trajectory ${title} with ${plural(nodes.length, 'step')} from ${file}` };
    }
    if (best) {
      note = `imported whole: it resumed the session of trajectory ${titleOf(best.trajectoryId)} and copied its first ${plural(best.copied, 'step')}, but step ${best.matched + 1} is no longer on that trajectory's path (edited or deleted since it was imported), so it could not continue it`;
    }
  }
  // A session a trajectory here resumed: all its steps may already be there.
  if (own.sampleId) {
    for (const r of rootsOf({ resumedFrom: own.sampleId })) {
      if (matchFromRoot(store, r.rootId, steps).matched === steps.length) {
        const title = titleOf(r.trajectoryId);
        return { kind: 'present', trajectoryId: r.trajectoryId, title, note: `already present: its conversation continues in trajectory ${title}, which holds every step of it` };
      }
    }
  }
  return note ? { kind: 'new', note } : { kind: 'new' };
}
