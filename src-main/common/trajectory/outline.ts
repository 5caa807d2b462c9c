// A trajectory's outline: per node only what the tree shows (a row, the breadcrumb, the
// overview), in columns. A 100,000-node trajectory crosses the door as a few MB that parse
// in tens of milliseconds, where full records are ~60 MB; the UI fetches a node's full record
// (`node.get`) only for the node it shows in full. Pure: the core builds it, the UI reads it.
import { z } from 'zod';
import { ORIGINS, TrajectoryRecord, type NodeRecord, type Origin } from './model';

/** A row's text is the first line of the action (of the initial state for a root), cut here. */
const LABEL_LENGTH = 121;

export const TrajectoryOutline = z.object({
  trajectory: TrajectoryRecord,
  /** Node ids, parents before children. Every other column is indexed like this one. */
  ids: z.array(z.string()),
  /** The parent's index in `ids`; -1 for an initial state. */
  parent: z.array(z.number().int()),
  depth: z.array(z.number().int()),
  /** Index into ORIGINS. */
  origin: z.array(z.number().int()),
  label: z.array(z.string()),
  /** textKey of each observation: enough to tell a sibling that differs from the real one. */
  observation: z.array(z.number()),
  /**
   * Only the nodes whose label is not their whole action (several lines, or cut): [index,
   * actionKey]. With the label, enough to tell whether a sibling tried the real one's action;
   * sparse because most actions are one short line, and a 100,000-node outline stays small.
   */
  actionKeys: z.array(z.tuple([z.number().int(), z.number()])),
  /** Only the nodes with marks: [index, starred, rating, tags]. */
  marks: z.array(z.tuple([z.number().int(), z.boolean(), z.number().int().nullable(), z.array(z.string())])),
  /** Only the edited nodes: [index, id of the original]. */
  editedFrom: z.array(z.tuple([z.number().int(), z.string()])),
});
export type TrajectoryOutline = z.infer<typeof TrajectoryOutline>;

/** What the outline needs of a node; the store reads just this. */
export type OutlineSource = Pick<NodeRecord, 'id' | 'parentId' | 'editedFromId' | 'depth' | 'origin' | 'action' | 'observation'> & {
  starred: boolean;
  rating: number | null;
  tags: string[];
};

/**
 * A 53-bit hash of a text (cyrb53), the same in the core and the UI, so "differs from the real
 * sibling" is decided without sending observations and actions. A false "same" needs a 2^-53 collision.
 */
export function textKey(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The text a tree row shows for a node: its action's first line, or the initial state's. */
export function outlineLabel(node: Pick<NodeRecord, 'parentId' | 'action' | 'observation'>): string {
  const text = node.parentId === null ? node.observation : node.action;
  const end = text.indexOf('\n');
  return text.slice(0, Math.min(end === -1 ? text.length : end, LABEL_LENGTH));
}

/**
 * What the label leaves out of a step's action: the whole action's textKey where the label shows
 * only part of it, null where the label is the whole action. Null for an initial state, whose
 * label is its observation and which has no sibling to compare.
 */
export function actionKey(node: Pick<NodeRecord, 'parentId' | 'action' | 'observation'>): number | null {
  if (node.parentId === null || node.action === outlineLabel(node)) return null;
  return textKey(node.action);
}

const ORIGIN_INDEX = new Map<Origin, number>(ORIGINS.map((o, i) => [o, i]));

export function buildOutline(trajectory: TrajectoryRecord, nodes: readonly OutlineSource[]): TrajectoryOutline {
  const indexOf = new Map<string, number>();
  nodes.forEach((n, i) => indexOf.set(n.id, i));
  const outline: TrajectoryOutline = {
    trajectory,
    ids: [],
    parent: [],
    depth: [],
    origin: [],
    label: [],
    observation: [],
    actionKeys: [],
    marks: [],
    editedFrom: [],
  };
  nodes.forEach((n, i) => {
    outline.ids.push(n.id);
    outline.parent.push(n.parentId === null ? -1 : (indexOf.get(n.parentId) ?? -1));
    outline.depth.push(n.depth);
    outline.origin.push(ORIGIN_INDEX.get(n.origin) ?? 0);
    outline.label.push(outlineLabel(n));
    outline.observation.push(textKey(n.observation));
    const key = actionKey(n);
    if (key !== null) outline.actionKeys.push([i, key]);
    if (n.starred || n.rating !== null || n.tags.length > 0) outline.marks.push([i, n.starred, n.rating, n.tags]);
    if (n.editedFromId) outline.editedFrom.push([i, n.editedFromId]);
  });
  return outline;
}
