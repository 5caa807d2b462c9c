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

/**
 * The visible rows as runs of consecutive places in the order: folding a node ends a run at it
 * and starts the next after its subtree. Finding them costs the number of folded nodes, not the
 * size of the tree, so expanding or collapsing a branch of a 100,000-node tree stays within a
 * frame; a row and a node's row are found by binary search over the runs.
 */
export interface TreeRows {
  order: TreeOrder;
  count: number;
  /** Run i starts at order place `runStart[i]` and shows rows `runRow[i]` to `runRow[i + 1] - 1`. */
  runStart: Int32Array;
  runRow: Int32Array;
  runs: number;
  /** Order places of the folded nodes. */
  folded: ReadonlySet<number>;
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

/**
 * The order a node's children are shown in, so branches read at a glance: the child the path
 * goes on through (one with children of its own, the recorded one first; else the recorded
 * step) comes last, so the other children (samples, perturbations, replay predictions, tried
 * actions) sit right beside the step they are alternatives to rather than after its whole
 * continuation, which also lists replay predictions in step order; an edit follows its source
 * at once. Otherwise the order they were made in. Costs a look-up per child: no subtree is
 * walked, so a 100,000-node tree is ordered as fast as it is listed.
 */
export function orderedChildren(kids: readonly string[], byId: ReadonlyMap<string, TreeNode>, children: ReadonlyMap<string, readonly string[]>): readonly string[] {
  if (kids.length < 2) return kids;
  let main = -1;
  let mainScore = 0;
  let edits = false;
  for (let i = 0; i < kids.length; i++) {
    const node = byId.get(kids[i]!);
    const score = (children.has(kids[i]!) ? 2 : 0) + (node && RECORDED.has(node.origin) ? 1 : 0);
    // Between equals the later one: the latest branch explored goes on below the others.
    if (score > 0 && score >= mainScore) {
      main = i;
      mainScore = score;
    }
    if (node?.editedFromId) edits = true;
  }
  if (!edits) return main < 0 || main === kids.length - 1 ? kids : [...kids.slice(0, main), ...kids.slice(main + 1), kids[main]!];
  const mainId = main < 0 ? null : kids[main]!;
  const siblings = new Set(kids);
  const editsOf = new Map<string, string[]>();
  const placed: string[] = [];
  for (const k of kids) {
    if (k === mainId) continue;
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
  if (mainId !== null) {
    // The main line's own edits sit just before it, beside their source.
    for (const edit of editsOf.get(mainId) ?? []) withEdits(edit);
    seen.add(mainId);
    out.push(mainId);
  }
  // An edit whose source is an edit of the main line, or a cycle of edits: still shown, at the end of the alternatives.
  for (const k of kids) if (!seen.has(k)) out.splice(mainId === null ? out.length : out.length - 1, 0, k);
  return out;
}

export function treeOrder(shape: TreeShape, byId: ReadonlyMap<string, TreeNode>): TreeOrder {
  const n = byId.size;
  const ids: string[] = [];
  const depth = new Int32Array(n);
  const size = new Int32Array(n);
  const childCount = new Int32Array(n);
  const posOf = new Map<string, number>();
  // Iterative depth-first walk; a node's size is known once the walk has left its subtree. The
  // stack holds plain values, not an object per node: an entry is a node to enter (its depth)
  // or the place of a node to leave (-1 - place), which a 100,000-node tree feels.
  const stackIds: string[] = [];
  const stackMarks: number[] = [];
  for (let i = shape.roots.length - 1; i >= 0; i--) {
    stackIds.push(shape.roots[i]!);
    stackMarks.push(0);
  }
  while (stackMarks.length) {
    const id = stackIds.pop()!;
    const mark = stackMarks.pop()!;
    if (mark < 0) {
      const leaving = -1 - mark;
      size[leaving] = ids.length - leaving;
      continue;
    }
    const p = ids.length;
    ids.push(id);
    posOf.set(id, p);
    depth[p] = mark;
    const given = shape.children.get(id);
    if (!given) {
      size[p] = 1;
      continue;
    }
    const kids = orderedChildren(given, byId, shape.children);
    childCount[p] = kids.length;
    stackIds.push(id);
    stackMarks.push(-1 - p);
    for (let i = kids.length - 1; i >= 0; i--) {
      stackIds.push(kids[i]!);
      stackMarks.push(mark + 1);
    }
  }
  return { ids, depth: depth.subarray(0, ids.length), size: size.subarray(0, ids.length), childCount: childCount.subarray(0, ids.length), posOf };
}

/** Rows in depth-first order, skipping the descendants of collapsed nodes. */
export function visibleRows(order: TreeOrder, collapsed: ReadonlySet<string>): TreeRows {
  const n = order.ids.length;
  const folded = new Set<number>();
  for (const id of collapsed) {
    const p = order.posOf.get(id);
    if (p !== undefined) folded.add(p);
  }
  const places = Int32Array.from(folded).sort();
  const runStart = new Int32Array(places.length + 1);
  const runRow = new Int32Array(places.length + 2);
  let runs = 0;
  let count = 0;
  let cursor = 0;
  const run = (end: number) => {
    if (end <= cursor) return;
    runStart[runs] = cursor;
    runRow[runs++] = count;
    count += end - cursor;
  };
  for (const f of places) {
    if (f < cursor) continue; // inside a subtree folded above it
    run(f + 1); // the folded node shows; its descendants do not
    cursor = f + order.size[f]!;
  }
  run(n);
  runRow[runs] = count;
  return { order, count, runStart, runRow, runs, folded };
}

/** The last run that starts at or before `value` in `starts` (ascending), or -1. */
function runBefore(starts: Int32Array, runs: number, value: number): number {
  let lo = 0;
  let hi = runs - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= value) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The order place of row `r` (0 ≤ r < count). */
export function placeOfRow(rows: TreeRows, r: number): number {
  const i = runBefore(rows.runRow, rows.runs, r);
  return rows.runStart[i]! + (r - rows.runRow[i]!);
}

/** Row `r` of the visible rows. */
export function rowAt(rows: TreeRows, r: number): TreeRow | undefined {
  if (r < 0 || r >= rows.count) return undefined;
  const p = placeOfRow(rows, r);
  const childCount = rows.order.childCount[p]!;
  return { id: rows.order.ids[p]!, depth: rows.order.depth[p]!, childCount, expanded: !rows.folded.has(p) };
}

/** The row a node shows on, or -1 when it is folded away or unknown. */
export function rowIndexOf(rows: TreeRows, id: string): number {
  const p = rows.order.posOf.get(id);
  if (p === undefined) return -1;
  const i = runBefore(rows.runStart, rows.runs, p);
  if (i < 0) return -1;
  const offset = p - rows.runStart[i]!;
  return offset < rows.runRow[i + 1]! - rows.runRow[i]! ? rows.runRow[i]! + offset : -1;
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
