// The trajectory tree as the UI holds it, and the rows the virtualized tree view shows.
// Pure, so a 100,000-node tree is indexed and flattened in one pass and tested without a
// browser. Content (`byId`) and shape (`shape`) are kept apart: a star or a tag changes a
// node but not the shape, so the flattened rows (the O(n) part) are not rebuilt for it.
// The tree holds each node's outline (what a row shows), not its full record: the inspector
// fetches that for the node it shows (node-records.ts).
import { ORIGINS, type NodeRecord, type Origin } from '../../../src-main/common/trajectory/model';
import { actionKey, outlineLabel, textKey, type TrajectoryOutline } from '../../../src-main/common/trajectory/outline';

/** What the tree knows of a node: enough for its row, the breadcrumb and the overview. */
export interface TreeNode {
  id: string;
  parentId: string | null;
  editedFromId: string | null;
  depth: number;
  origin: Origin;
  /** The first line of the action (of the initial state for a root). */
  label: string;
  starred: boolean;
  rating: number | null;
  tags: readonly string[];
  /** A hash of the observation, to compare it with the real sibling's. */
  observationKey: number;
  /** With the label, tells this node's action from another's: see actionKey in the outline. */
  actionKey: number | null;
}

const NO_TAGS: readonly string[] = Object.freeze([]);

/** A full record as the tree holds it (a node the core just wrote or changed). */
export function treeNodeOf(node: NodeRecord): TreeNode {
  return {
    id: node.id,
    parentId: node.parentId,
    editedFromId: node.editedFromId,
    depth: node.depth,
    origin: node.origin,
    label: outlineLabel(node),
    starred: node.curation.starred,
    rating: node.curation.rating,
    tags: node.curation.tags,
    observationKey: textKey(node.observation),
    actionKey: actionKey(node),
  };
}

export interface TreeShape {
  children: Map<string, string[]>;
  roots: string[];
  /** For each parent, its first child with origin `real`: what the other children are compared with. */
  realChild: Map<string, string>;
}

export interface TreeIndex {
  byId: Map<string, TreeNode>;
  shape: TreeShape;
  /** Bumped on every change, so views holding the same maps still see a new tree. */
  revision: number;
}

export interface TreeRow {
  id: string;
  depth: number;
  childCount: number;
  expanded: boolean;
}

/**
 * The whole tree in depth-first order as flat arrays, computed once per shape. Folding then
 * works on numbers only: a folded node skips `size` entries, so the visible rows of a
 * 100,000-node tree are found in about a millisecond.
 */
export interface TreeOrder {
  ids: string[];
  depth: Int32Array;
  /** Nodes in the subtree, the node included. */
  size: Int32Array;
  childCount: Int32Array;
  posOf: Map<string, number>;
}

/** The visible rows: for row r, `pos[r]` is its place in the order; `rowOf[p]` is -1 for hidden nodes. */
export interface TreeRows {
  order: TreeOrder;
  count: number;
  pos: Int32Array;
  rowOf: Int32Array;
  folded: Uint8Array;
}

/** The tree from the core's outline (`trajectory.outline`). */
export function indexOutline(outline: TrajectoryOutline): TreeIndex {
  const { ids, parent, depth, origin, label, observation } = outline;
  const nodes: TreeNode[] = new Array<TreeNode>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const p = parent[i]!;
    nodes[i] = {
      id: ids[i]!,
      parentId: p >= 0 ? ids[p]! : null,
      editedFromId: null,
      depth: depth[i]!,
      origin: ORIGINS[origin[i]!] ?? 'imported',
      label: label[i]!,
      starred: false,
      rating: null,
      tags: NO_TAGS,
      observationKey: observation[i]!,
      actionKey: null,
    };
  }
  for (const [i, starred, rating, tags] of outline.marks) Object.assign(nodes[i]!, { starred, rating, tags });
  for (const [i, original] of outline.editedFrom) nodes[i]!.editedFromId = original;
  for (const [i, key] of outline.actionKeys) nodes[i]!.actionKey = key;
  return indexTree(nodes);
}

export function indexTree(nodes: readonly TreeNode[]): TreeIndex {
  const byId = new Map<string, TreeNode>();
  const children = new Map<string, string[]>();
  const realChild = new Map<string, string>();
  const roots: string[] = [];
  for (const n of nodes) {
    byId.set(n.id, n);
    if (n.parentId === null) {
      roots.push(n.id);
      continue;
    }
    const list = children.get(n.parentId);
    if (list) list.push(n.id);
    else children.set(n.parentId, [n.id]);
    if (n.origin === 'real' && !realChild.has(n.parentId)) realChild.set(n.parentId, n.id);
  }
  return { byId, shape: { children, roots, realChild }, revision: 0 };
}

/** Origins of steps recorded from an environment: the step its simulated siblings are alternatives to. */
const RECORDED: ReadonlySet<Origin> = new Set<Origin>(['real', 'imported']);

/** How many nodes each subtree holds (the node included), by one iterative post-order walk. */
function subtreeSizes(shape: TreeShape): Map<string, number> {
  const sizes = new Map<string, number>();
  const stack: { id: string; exit: boolean }[] = shape.roots.map((id) => ({ id, exit: false }));
  while (stack.length) {
    const item = stack.pop()!;
    const kids = shape.children.get(item.id);
    if (item.exit || !kids) {
      let size = 1;
      if (kids) for (const k of kids) size += sizes.get(k) ?? 1;
      sizes.set(item.id, size);
      continue;
    }
    stack.push({ id: item.id, exit: true });
    for (const k of kids) stack.push({ id: k, exit: false });
  }
  return sizes;
}

/**
 * The order a node's children are shown in, so branches read at a glance: the child that
 * carries the longest continuation comes last, so the other children (samples, perturbations,
 * replay predictions, tried actions) sit right beside the step they are alternatives to, rather
 * than after the whole continuation, which also lists replay predictions in step order; an edit
 * follows its source at once. Otherwise the order they were made in.
 */
export function orderedChildren(kids: readonly string[], byId: ReadonlyMap<string, TreeNode>, sizes: ReadonlyMap<string, number>): readonly string[] {
  if (kids.length < 2) return kids;
  // The main line: the largest subtree; between equals the recorded step (real or imported), which
  // the others are alternatives to, so the last step's prediction sits before it like every other's.
  const weight = (k: string) => 2 * (sizes.get(k) ?? 1) + (RECORDED.has(byId.get(k)?.origin ?? 'manual') ? 1 : 0);
  let main: string | null = null;
  for (const k of kids) if (weight(k) > 2 && (main === null || weight(k) > weight(main))) main = k;
  const siblings = new Set(kids);
  const editsOf = new Map<string, string[]>();
  const placed: string[] = [];
  for (const k of kids) {
    if (k === main) continue;
    const source = byId.get(k)?.editedFromId;
    if (source && source !== k && siblings.has(source)) {
      const list = editsOf.get(source);
      if (list) list.push(k);
      else editsOf.set(source, [k]);
    } else placed.push(k);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  const withEdits = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    out.push(id);
    for (const edit of editsOf.get(id) ?? []) withEdits(edit);
  };
  for (const k of placed) withEdits(k);
  if (main !== null) {
    // The main line's own edits sit just before it, beside their source.
    for (const edit of editsOf.get(main) ?? []) withEdits(edit);
    seen.add(main);
    out.push(main);
  }
  // An edit whose source is an edit of the main line, or a cycle of edits: still shown, at the end of the alternatives.
  for (const k of kids) if (!seen.has(k)) out.splice(main === null ? out.length : out.length - 1, 0, k);
  return out;
}

export function treeOrder(shape: TreeShape, byId: ReadonlyMap<string, TreeNode>): TreeOrder {
  const n = byId.size;
  const sizes = subtreeSizes(shape);
  const ids: string[] = [];
  const depth = new Int32Array(n);
  const size = new Int32Array(n);
  const childCount = new Int32Array(n);
  const posOf = new Map<string, number>();
  // Iterative depth-first walk; a node's size is known once the walk has left its subtree.
  const stack: { id: string; d: number; exit: boolean }[] = [...shape.roots].reverse().map((id) => ({ id, d: 0, exit: false }));
  while (stack.length) {
    const item = stack.pop()!;
    if (item.exit) {
      const p = posOf.get(item.id)!;
      size[p] = ids.length - p;
      continue;
    }
    const p = ids.length;
    ids.push(item.id);
    posOf.set(item.id, p);
    const given = shape.children.get(item.id);
    const kids = given ? orderedChildren(given, byId, sizes) : undefined;
    depth[p] = item.d;
    childCount[p] = kids?.length ?? 0;
    stack.push({ id: item.id, d: item.d, exit: true });
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push({ id: kids[i]!, d: item.d + 1, exit: false });
  }
  return { ids, depth: depth.subarray(0, ids.length), size: size.subarray(0, ids.length), childCount: childCount.subarray(0, ids.length), posOf };
}

/** Rows in depth-first order, skipping the descendants of collapsed nodes. */
export function visibleRows(order: TreeOrder, collapsed: ReadonlySet<string>): TreeRows {
  const n = order.ids.length;
  const folded = new Uint8Array(n);
  for (const id of collapsed) {
    const p = order.posOf.get(id);
    if (p !== undefined) folded[p] = 1;
  }
  const pos = new Int32Array(n);
  const rowOf = new Int32Array(n).fill(-1);
  let count = 0;
  for (let p = 0; p < n; ) {
    rowOf[p] = count;
    pos[count++] = p;
    p += folded[p] ? order.size[p]! : 1;
  }
  return { order, count, pos: pos.subarray(0, count), rowOf, folded };
}

/** Row `r` of the visible rows. */
export function rowAt(rows: TreeRows, r: number): TreeRow | undefined {
  if (r < 0 || r >= rows.count) return undefined;
  const p = rows.pos[r]!;
  const childCount = rows.order.childCount[p]!;
  return { id: rows.order.ids[p]!, depth: rows.order.depth[p]!, childCount, expanded: rows.folded[p] === 0 };
}

/** The row a node shows on, or -1 when it is folded away or unknown. */
export function rowIndexOf(rows: TreeRows, id: string): number {
  const p = rows.order.posOf.get(id);
  return p === undefined ? -1 : rows.rowOf[p]!;
}

/** The nodes from the root to `id`, for the breadcrumb. */
export function ancestry(index: TreeIndex, id: string): TreeNode[] {
  const path: TreeNode[] = [];
  for (let n = index.byId.get(id); n; n = n.parentId ? index.byId.get(n.parentId) : undefined) path.push(n);
  return path.reverse();
}

/** Every node that has children: collapsing them all leaves only the roots' first level. */
export function allParents(index: TreeIndex): Set<string> {
  return new Set(index.shape.children.keys());
}

/** The collapsed set with every ancestor of `id` expanded, so the node shows in the tree. */
export function revealed(index: TreeIndex, collapsed: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const path = ancestry(index, id).slice(0, -1);
  if (!path.some((n) => collapsed.has(n.id))) return collapsed;
  const next = new Set(collapsed);
  for (const n of path) next.delete(n.id);
  return next;
}

/**
 * How a node compares with the real outcome beside it: `differs` when a sibling under the
 * same parent is `real` and this node's observation is not the same text.
 */
export function comparedWithReal(index: TreeIndex, node: TreeNode): 'differs' | 'same' | null {
  if (node.parentId === null || node.origin === 'real') return null;
  const realId = index.shape.realChild.get(node.parentId);
  const real = realId ? index.byId.get(realId) : undefined;
  // Only a sample of the same action is comparable with the real outcome. Labels alone would
  // take two actions that share a first line (or their first 121 characters) for the same.
  if (!real || real.label !== node.label || real.actionKey !== node.actionKey) return null;
  return real.observationKey === node.observationKey ? 'same' : 'differs';
}

/** The tree with one node's marks changed; its shape (and so its rows) stays. */
export function withChangedNode(index: TreeIndex, node: TreeNode): TreeIndex {
  index.byId.set(node.id, node);
  return { ...index, revision: index.revision + 1 };
}

/** The tree with a new node appended under its parent (a step, a sample, or an edit). */
export function withAddedNode(index: TreeIndex, node: TreeNode): TreeIndex {
  const { children, roots, realChild } = index.shape;
  index.byId.set(node.id, node);
  if (node.parentId === null) roots.push(node.id);
  else {
    children.set(node.parentId, [...(children.get(node.parentId) ?? []), node.id]);
    if (node.origin === 'real' && !realChild.has(node.parentId)) realChild.set(node.parentId, node.id);
  }
  return { byId: index.byId, shape: { children, roots, realChild }, revision: index.revision + 1 };
}

/** The tree without a leaf (an undone edit). */
export function withoutLeaf(index: TreeIndex, id: string): TreeIndex {
  const node = index.byId.get(id);
  if (!node) return index;
  const { children, roots, realChild } = index.shape;
  index.byId.delete(id);
  if (node.parentId === null) roots.splice(roots.indexOf(id), 1);
  else {
    const rest = (children.get(node.parentId) ?? []).filter((c) => c !== id);
    if (rest.length) children.set(node.parentId, rest);
    else children.delete(node.parentId);
    if (realChild.get(node.parentId) === id) {
      const nextReal = rest.find((c) => index.byId.get(c)?.origin === 'real');
      if (nextReal) realChild.set(node.parentId, nextReal);
      else realChild.delete(node.parentId);
    }
  }
  return { byId: index.byId, shape: { children, roots, realChild }, revision: index.revision + 1 };
}
