// The curation part of the contract: marks on nodes (star, rating, tags, note), editing a
// node's state (a new node beside the original) and taking an edit back, and full-text
// search with filters across the workspace.
import { z } from 'zod';
import { Curation, Domain, NodeRecord, Origin } from '../trajectory/model';
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

export const curationApi = {
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
