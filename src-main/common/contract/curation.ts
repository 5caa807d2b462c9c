// The curation part of the contract: marks on nodes (star, rating, tags, note), editing a
// node's state (a new node beside the original) and taking an edit back, and full-text
// search with filters across the workspace.
import { z } from 'zod';
import { Curation, Domain, NodeRecord, Origin, TrajectoryRecord, WorldSpec } from '../trajectory/model';
import { method } from './method';

const Id = z.string().min(1).max(200);

export const SearchQuery = z.object({
  /** Words that must all occur in the action, observation, note or tags; the last one may be a prefix. */
  text: z.string().max(1000).optional(),
  domain: Domain.optional(),
  origin: Origin.optional(),
  starred: z.boolean().optional(),
  minRating: z.number().int().min(1).max(5).optional(),
  tag: z.string().min(1).max(64).optional(),
  trajectoryId: Id.optional(),
  limit: z.number().int().min(1).max(1000).default(200),
});
export type SearchQuery = z.input<typeof SearchQuery>;

export const SearchHit = z.object({
  nodeId: z.string(),
  trajectoryId: z.string(),
  trajectoryTitle: z.string(),
  domain: Domain,
  origin: Origin,
  depth: z.number().int(),
  label: z.string(),
  /** Text around the match; matched words sit between \u0002 and \u0003. */
  snippet: z.string(),
  curation: Curation,
});
export type SearchHit = z.infer<typeof SearchHit>;

export const DeletionSummary = z.object({
  id: z.string(),
  kind: z.enum(['nodes', 'trajectories']),
  /** What was deleted, in the user's words. */
  label: z.string(),
  /** What was asked to be deleted (node or trajectory ids): deleting them again redoes it. */
  roots: z.array(z.string()),
  trajectoryId: z.string().nullable(),
  nodes: z.number().int(),
  trajectories: z.number().int(),
  deletedAt: z.string(),
});
export type DeletionSummary = z.infer<typeof DeletionSummary>;

export const TrajectoryVersion = z.object({
  version: z.number().int(),
  title: z.string(),
  systemPrompt: z.string(),
  worldSpec: WorldSpec.nullable(),
  replacedAt: z.string(),
});
export type TrajectoryVersion = z.infer<typeof TrajectoryVersion>;

const Revised = z.object({ trajectory: TrajectoryRecord, keptVersion: z.number().int().nullable() });
const Label = z.string().min(1).max(500);

export const curationApi = {
  /** Deletes nodes with the steps below them and the edits made of them; kept in the workspace for `deletion.restore`. */
  'node.delete': method(
    z.object({ ids: z.array(Id).min(1).max(10_000), label: Label.optional() }),
    z.object({ deletion: DeletionSummary, nodes: z.array(NodeRecord) }),
  ),
  /** Deletes whole trajectories; kept in the workspace for `deletion.restore`. */
  'trajectory.delete': method(z.object({ ids: z.array(Id).min(1).max(100_000), label: Label.optional() }), z.object({ deletion: DeletionSummary })),
  /** Puts a deletion back exactly as it was (ids, marks, place), even after the workspace was reopened. */
  'deletion.restore': method(
    z.object({ id: Id }),
    z.object({ deletion: DeletionSummary, nodes: z.array(NodeRecord), trajectories: z.array(TrajectoryRecord) }),
  ),
  /** Deletions that can still be taken back, newest first. */
  'deletion.list': method(z.object({ limit: z.number().int().min(1).max(200).default(50) }), z.array(DeletionSummary)),
  /** Renames a trajectory or changes its environment description or world specification; the old fields are kept as a version. */
  'trajectory.revise': method(
    z.object({ id: Id, title: z.string().min(1).max(500).optional(), systemPrompt: z.string().max(1_000_000).optional(), worldSpec: WorldSpec.nullable().optional() }),
    Revised,
  ),
  'trajectory.versions': method(z.object({ id: Id }), z.array(TrajectoryVersion)),
  /** Makes an earlier version current again (the current one is kept as a version in turn). */
  'trajectory.restoreVersion': method(z.object({ id: Id, version: z.number().int().min(1) }), Revised),
  'node.setCuration': method(z.object({ id: Id, curation: Curation.partial() }), NodeRecord),
  /** Saves an edited state: a new node (origin `edited`) beside the original, which stays. */
  'node.edit': method(
    z.object({ id: Id, action: z.string().max(10_000_000), observation: z.string().max(10_000_000) }),
    NodeRecord,
  ),
  /** Undo of `node.edit`: removes only a leaf an edit created, keeping it for `node.redoEdit`. */
  'node.undoEdit': method(z.object({ id: Id }), NodeRecord),
  'node.redoEdit': method(z.object({ id: Id }), NodeRecord),
  'search.nodes': method(SearchQuery, z.object({ hits: z.array(SearchHit), truncated: z.boolean() })),
  'tags.list': method(z.object({}), z.array(z.object({ tag: z.string(), count: z.number().int() }))),
} as const;
