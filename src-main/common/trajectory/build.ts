// Building trajectory bundles from plain step lists, and walking them. Pure.
import {
  EMPTY_CURATION,
  type Domain,
  type NodeRecord,
  type Origin,
  type Provenance,
  type TrajectoryBundle,
  type WorldSpec,
} from './model';

export interface StepDraft {
  action: string;
  observation: string;
  reasoning?: string | null;
  /** The acting agent's own reasoning before the action (never the world model's). */
  agentReasoning?: string | null;
  origin: Origin;
  provenance?: Provenance;
}

export interface TrajectoryDraft {
  title: string;
  domain: Domain;
  systemPrompt: string;
  worldSpec?: WorldSpec | null;
  initialState?: string;
  sourceKey?: string | null;
  rootProvenance?: Provenance;
  steps: StepDraft[];
}

/** Turns a linear list of steps into a trajectory: a root plus one chain of nodes. */
export function chainBundle(draft: TrajectoryDraft, newId: () => string, now: string): TrajectoryBundle {
  const trajectoryId = newId();
  const root: NodeRecord = {
    id: newId(),
    trajectoryId,
    parentId: null,
    editedFromId: null,
    depth: 0,
    action: '',
    observation: draft.initialState ?? '',
    reasoning: null,
    origin: 'imported',
    provenance: draft.rootProvenance ?? {},
    curation: EMPTY_CURATION,
    metrics: null,
    createdAt: now,
  };
  const nodes = [root];
  let parent = root;
  for (const step of draft.steps) {
    const node: NodeRecord = {
      id: newId(),
      trajectoryId,
      parentId: parent.id,
      editedFromId: null,
      depth: parent.depth + 1,
      action: step.action,
      observation: step.observation,
      reasoning: step.reasoning ?? null,
      ...(step.agentReasoning ? { agentReasoning: step.agentReasoning } : {}),
      origin: step.origin,
      provenance: step.provenance ?? {},
      curation: EMPTY_CURATION,
      metrics: null,
      createdAt: now,
    };
    nodes.push(node);
    parent = node;
  }
  return {
    trajectory: {
      id: trajectoryId,
      title: draft.title,
      domain: draft.domain,
      systemPrompt: draft.systemPrompt,
      worldSpec: draft.worldSpec ?? null,
      createdAt: now,
      sourceKey: draft.sourceKey ?? null,
    },
    nodes,
  };
}

/** The nodes from the root down to `nodeId` (inclusive), given all nodes of a trajectory. */
export function pathTo(nodes: readonly NodeRecord[], nodeId: string): NodeRecord[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const path: NodeRecord[] = [];
  let cur = byId.get(nodeId);
  while (cur) {
    path.push(cur);
    cur = cur.parentId ? byId.get(cur.parentId) : undefined;
  }
  return path.reverse();
}
