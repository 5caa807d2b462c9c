// How nodes and trajectories are laid out in SQLite rows, and back. Shared by the store and
// its search and edit-history helpers so every reader decodes a row the same way.
import type { Domain, NodeRecord, Origin, Provenance, TrajectoryBundle, TrajectoryRecord, WorldSpec } from '../common/trajectory/model';

export interface NodeRow {
  id: string;
  trajectory_id: string;
  parent_id: string | null;
  edited_from_id: string | null;
  depth: number;
  action: string;
  observation: string;
  reasoning: string | null;
  agent_reasoning: string | null;
  origin: Origin;
  provenance: string;
  starred: number;
  rating: number | null;
  tags: string;
  note: string;
  metrics: string | null;
  created_at: string;
}

export interface TrajectoryRow {
  id: string;
  title: string;
  domain: Domain;
  system_prompt: string;
  world_spec: string | null;
  source_key: string | null;
  created_at: string;
}


export function toTrajectory(r: TrajectoryRow): TrajectoryRecord {
  return {
    id: r.id,
    title: r.title,
    domain: r.domain,
    systemPrompt: r.system_prompt,
    worldSpec: r.world_spec ? (JSON.parse(r.world_spec) as WorldSpec) : null,
    createdAt: r.created_at,
    sourceKey: r.source_key,
  };
}

export function toNode(r: NodeRow): NodeRecord {
  return {
    id: r.id,
    trajectoryId: r.trajectory_id,
    parentId: r.parent_id,
    editedFromId: r.edited_from_id,
    depth: r.depth,
    action: r.action,
    observation: r.observation,
    reasoning: r.reasoning,
    // Only when present, so nodes written before the field (and most nodes) read back unchanged.
    ...(r.agent_reasoning !== null ? { agentReasoning: r.agent_reasoning } : {}),
    origin: r.origin,
    provenance: JSON.parse(r.provenance) as Provenance,
    curation: {
      starred: r.starred === 1,
      rating: r.rating,
      tags: JSON.parse(r.tags) as string[],
      note: r.note,
    },
    metrics: r.metrics ? (JSON.parse(r.metrics) as Record<string, number>) : null,
    createdAt: r.created_at,
  };
}

/** The named parameters `INSERT INTO nodes` takes for one node. */
export function nodeParams(n: NodeRecord) {
  return {
    id: n.id,
    trajectoryId: n.trajectoryId,
    parentId: n.parentId,
    editedFromId: n.editedFromId,
    depth: n.depth,
    action: n.action,
    observation: n.observation,
    reasoning: n.reasoning,
    agentReasoning: n.agentReasoning ?? null,
    origin: n.origin,
    provenance: JSON.stringify(n.provenance),
    starred: n.curation.starred ? 1 : 0,
    rating: n.curation.rating,
    tags: JSON.stringify(n.curation.tags),
    note: n.curation.note,
    metrics: n.metrics ? JSON.stringify(n.metrics) : null,
    createdAt: n.createdAt,
  };
}

/**
 * The same row as `nodeParams`, as positional values in INSERT_NODE_POSITIONAL's order: bulk
 * writes (an import) bind an array, which costs far less than naming seventeen parameters.
 */
export function nodeValues(n: NodeRecord): unknown[] {
  return [
    n.id,
    n.trajectoryId,
    n.parentId,
    n.editedFromId,
    n.depth,
    n.action,
    n.observation,
    n.reasoning,
    n.agentReasoning ?? null,
    n.origin,
    JSON.stringify(n.provenance),
    n.curation.starred ? 1 : 0,
    n.curation.rating,
    n.curation.tags.length === 0 ? '[]' : JSON.stringify(n.curation.tags),
    n.curation.note,
    n.metrics ? JSON.stringify(n.metrics) : null,
    n.createdAt,
  ];
}

/**
 * Whether a node is as an import or a new step writes it: no edit source, no reasoning of
 * either kind, empty curation, no metrics. Such a node is written with INSERT_PLAIN_NODE.
 */
export function isPlainNode(n: NodeRecord): boolean {
  return (
    n.editedFromId === null &&
    n.reasoning === null &&
    n.agentReasoning == null &&
    n.metrics === null &&
    !n.curation.starred &&
    n.curation.rating === null &&
    n.curation.tags.length === 0 &&
    n.curation.note === ''
  );
}

/**
 * A plain node's row (`isPlainNode`): the columns it leaves out take their defaults (NULL, 0,
 * '[]', ''), the same values nodeValues gives them. Binding nine values instead of seventeen
 * is a sixth of an import's inserts.
 */
export const INSERT_PLAIN_NODE = `INSERT INTO nodes (id, trajectory_id, parent_id, depth, action, observation, origin, provenance, created_at)
 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export const INSERT_NODE_POSITIONAL = `INSERT INTO nodes (id, trajectory_id, parent_id, edited_from_id, depth, action, observation,
   reasoning, agent_reasoning, origin, provenance, starred, rating, tags, note, metrics, created_at)
 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export const INSERT_NODE_SQL = `INSERT INTO nodes (id, trajectory_id, parent_id, edited_from_id, depth, action, observation,
   reasoning, agent_reasoning, origin, provenance, starred, rating, tags, note, metrics, created_at)
 VALUES (@id, @trajectoryId, @parentId, @editedFromId, @depth, @action, @observation,
   @reasoning, @agentReasoning, @origin, @provenance, @starred, @rating, @tags, @note, @metrics, @createdAt)`;

/**
 * A whole new trajectory as the values its rows bind, in one flat list: the trajectory's seven
 * (INSERT_TRAJECTORY's order), the number of nodes, then per node how many values follow (9:
 * INSERT_PLAIN_NODE, 17: INSERT_NODE_POSITIONAL) and those. An import builds it where it reads
 * (a worker thread, when the file is large), so the thread that writes only binds: a flat list
 * of strings crosses threads for far less than the objects it came from, and the JSON of
 * provenance is written there too. Refuses a bundle whose nodes point outside it (another
 * trajectory, a node not before them): the writer relies on that to skip SQLite's
 * foreign-key lookups.
 */
export type BundleValues = unknown[];

export function bundleValues(bundle: TrajectoryBundle): BundleValues {
  const t = bundle.trajectory;
  const values: unknown[] = [t.id, t.title, t.domain, t.systemPrompt, t.worldSpec ? JSON.stringify(t.worldSpec) : null, t.sourceKey, t.createdAt, bundle.nodes.length];
  const seen = new Set<string>();
  for (const n of bundle.nodes) {
    if (n.trajectoryId !== t.id || (n.parentId !== null && !seen.has(n.parentId)) || (n.editedFromId !== null && !seen.has(n.editedFromId))) {
      throw new Error(`Trajectory ${t.id} cannot be written: its node ${n.id} refers to a node or trajectory outside it.`);
    }
    seen.add(n.id);
    if (isPlainNode(n)) values.push(9, n.id, n.trajectoryId, n.parentId, n.depth, n.action, n.observation, n.origin, JSON.stringify(n.provenance), n.createdAt);
    else values.push(17, ...nodeValues(n));
  }
  return values;
}

export const INSERT_NEW_TRAJECTORY = `INSERT INTO trajectories (id, title, domain, system_prompt, world_spec, source_key, created_at)
 VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;
