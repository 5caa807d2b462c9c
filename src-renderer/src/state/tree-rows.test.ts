import { describe, expect, it } from 'vitest';
import { EMPTY_CURATION, type NodeRecord, type Origin } from '../../../src-main/common/trajectory/model';
import { buildOutline } from '../../../src-main/common/trajectory/outline';
import {
  ancestry, comparedWithReal, indexOutline, indexTree, revealed, rowAt, rowIndexOf, treeNodeOf, treeOrder, visibleRows, withAddedNode, withChangedNode, withoutLeaf,
} from './tree-rows';

function record(id: string, parentId: string | null, depth: number, origin: Origin = 'manual', observation = '', action = id): NodeRecord {
  return {
    id, trajectoryId: 't', parentId, editedFromId: null, depth, action, observation, reasoning: null,
    origin, provenance: {}, curation: EMPTY_CURATION, metrics: null, createdAt: '2026-01-01T00:00:00Z',
  };
}
const node = (...args: Parameters<typeof record>) => treeNodeOf(record(...args));

const fixture = () => indexTree([node('r', null, 0), node('a', 'r', 1), node('b', 'r', 1), node('a1', 'a', 2), node('a2', 'a', 2)]);
const rowsOf = (index: ReturnType<typeof fixture>, collapsed = new Set<string>()) => visibleRows(treeOrder(index.shape, index.byId), collapsed);
const ids = (index: ReturnType<typeof fixture>, collapsed = new Set<string>()) => {
  const rows = rowsOf(index, collapsed);
  return Array.from({ length: rows.count }, (_, r) => rowAt(rows, r)!.id);
};

describe('tree rows', () => {
  it('lists nodes depth-first with child counts and row numbers, the branch that goes on last', () => {
    const index = fixture();
    const rows = rowsOf(index);
    expect(ids(index)).toEqual(['r', 'b', 'a', 'a1', 'a2']);
    expect(rowAt(rows, 2)).toEqual({ id: 'a', depth: 1, childCount: 2, expanded: true });
    expect(rowIndexOf(rows, 'b')).toBe(1);
    const folded = rowsOf(index, new Set(['a']));
    expect(rowAt(folded, 2)!.expanded).toBe(false);
    expect(rowIndexOf(folded, 'a2')).toBe(-1);
    expect(rowIndexOf(folded, 'b')).toBe(1);
  });

  it('shows each step\'s alternatives beside it: replay predictions in step order, an edit right after its source', () => {
    // A recorded chain s1 → s2 → s3 with a replay prediction of each step, made deepest first
    // would not matter: each sits just before the real step it predicts.
    const chain = [node('r', null, 0), node('s1', 'r', 1, 'real'), node('s2', 's1', 2, 'real'), node('s3', 's2', 3, 'real')];
    const predictions = [node('p3', 's2', 3, 'simulated'), node('p1', 'r', 1, 'simulated'), node('p2', 's1', 2, 'simulated')];
    const index = indexTree([...chain, ...predictions]);
    expect(ids(index)).toEqual(['r', 'p1', 's1', 'p2', 's2', 'p3', 's3']);
    // An edit made after other samples lands beside the sample it was made from, not at the end.
    const edited = { ...node('e1', 'r', 1, 'edited'), editedFromId: 'x1' };
    const samples = indexTree([node('r', null, 0), node('x1', 'r', 1, 'simulated'), node('x2', 'r', 1, 'simulated'), node('x3', 'r', 1, 'simulated'), edited]);
    expect(ids(samples)).toEqual(['r', 'x1', 'e1', 'x2', 'x3']);
    // The edit of the step that goes on sits just before it.
    const mainEdit = { ...node('e2', 'r', 1, 'edited'), editedFromId: 's1' };
    expect(ids(indexTree([...chain, mainEdit, node('q', 'r', 1, 'simulated')]))).toEqual(['r', 'q', 'e2', 's1', 's2', 's3']);
  });

  it('hides the descendants of collapsed nodes, and reveals a node by expanding its ancestors', () => {
    const index = fixture();
    const collapsed = new Set(['r', 'a']);
    expect(ids(index, collapsed)).toEqual(['r']);
    expect(ids(index, new Set(revealed(index, collapsed, 'a2')))).toEqual(['r', 'b', 'a', 'a1', 'a2']);
    expect(revealed(index, new Set(['b']), 'a1')).toEqual(new Set(['b']));
  });

  it('finds the same rows as walking every node, for any folding of a random tree', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const nodes = [node('n0', null, 0)];
    for (let i = 1; i < 400; i++) {
      const parent = nodes[Math.floor(random() * nodes.length)]!;
      nodes.push(node(`n${i}`, parent.id, parent.depth + 1));
    }
    const index = indexTree(nodes);
    const order = treeOrder(index.shape, index.byId);
    for (let round = 0; round < 30; round++) {
      const collapsed = new Set(nodes.filter(() => random() < 0.1).map((n) => n.id));
      // The walk the runs replace: every place in order, skipping a folded node's subtree.
      const expected: string[] = [];
      for (let p = 0; p < order.ids.length; ) {
        expected.push(order.ids[p]!);
        p += collapsed.has(order.ids[p]!) ? order.size[p]! : 1;
      }
      const rows = visibleRows(order, collapsed);
      expect(Array.from({ length: rows.count }, (_, r) => rowAt(rows, r)!.id)).toEqual(expected);
      for (const n of nodes) expect(rowIndexOf(rows, n.id)).toBe(expected.indexOf(n.id));
    }
  });

  it('gives the path from the root', () => {
    expect(ancestry(fixture(), 'a2').map((n) => n.id)).toEqual(['r', 'a', 'a2']);
  });

  it('marks samples of the real action whose observation differs from the real one', () => {
    const index = indexTree([
      node('r', null, 0),
      node('sim', 'r', 1, 'simulated', 'x', 'ls'),
      node('real', 'r', 1, 'real', 'y', 'ls'),
      node('same', 'r', 1, 'perturbed', 'y', 'ls'),
      node('other', 'r', 1, 'simulated', 'z', 'pwd'),
      // The same first line as the real action, but another action.
      node('more', 'r', 1, 'simulated', 'z', 'ls\n# then more'),
      node('long', 'real', 2, 'real', 'y', `echo ${'a'.repeat(200)}`),
      node('longer', 'real', 2, 'simulated', 'z', `echo ${'a'.repeat(200)}!`),
      node('longSame', 'real', 2, 'simulated', 'y', `echo ${'a'.repeat(200)}`),
    ]);
    expect(comparedWithReal(index, index.byId.get('other')!)).toBeNull();
    expect(comparedWithReal(index, index.byId.get('more')!)).toBeNull();
    expect(index.byId.get('longer')!.label).toBe(index.byId.get('long')!.label);
    expect(comparedWithReal(index, index.byId.get('longer')!)).toBeNull();
    expect(comparedWithReal(index, index.byId.get('longSame')!)).toBe('same');
    expect(comparedWithReal(index, index.byId.get('sim')!)).toBe('differs');
    expect(comparedWithReal(index, index.byId.get('same')!)).toBe('same');
    expect(comparedWithReal(index, index.byId.get('real')!)).toBeNull();
    expect(comparedWithReal(index, index.byId.get('r')!)).toBeNull();
  });

  it('adds, changes and removes nodes without re-indexing', () => {
    let index = fixture();
    const shape = index.shape;
    index = withChangedNode(index, { ...index.byId.get('b')!, starred: true });
    expect(index.shape).toBe(shape);
    expect(index.byId.get('b')!.starred).toBe(true);
    index = withAddedNode(index, node('a3', 'a', 2, 'real', 'z', 'a1'));
    expect(index.shape).not.toBe(shape);
    expect(ids(index)).toEqual(['r', 'b', 'a', 'a1', 'a2', 'a3']);
    expect(comparedWithReal(index, index.byId.get('a1')!)).toBe('differs');
    index = withoutLeaf(index, 'a3');
    expect(ids(index)).toEqual(['r', 'b', 'a', 'a1', 'a2']);
    expect(comparedWithReal(index, index.byId.get('a1')!)).toBeNull();
  });

  it('reads the core\'s outline into the same tree the full records give', () => {
    const records = [
      { ...record('r', null, 0, 'manual', 'prompt$ \nmore'), action: '' },
      record('sim', 'r', 1, 'simulated', 'x', 'first line'),
      { ...record('real', 'r', 1, 'real', 'y', 'first line'), curation: { starred: true, rating: 4, tags: ['keep'], note: 'n' } },
      { ...record('same', 'r', 1, 'edited', 'y', 'first line'), editedFromId: 'sim' },
      // Shows the same label as the real action, but is another action.
      record('longer', 'r', 1, 'simulated', 'y', 'first line\nsecond'),
      record('realMulti', 'real', 2, 'real', 'z', 'cat <<EOF\nx\nEOF'),
      record('simMulti', 'real', 2, 'simulated', 'w', 'cat <<EOF\nx\nEOF'),
    ];
    const trajectory = { id: 't', title: 'T', domain: 'terminal' as const, systemPrompt: '', worldSpec: null, createdAt: '', sourceKey: null };
    const sources = records.map((n) => ({ ...n, ...n.curation }));
    const outline = JSON.parse(JSON.stringify(buildOutline(trajectory, sources))) as ReturnType<typeof buildOutline>;
    const index = indexOutline(outline);
    expect([...index.byId.values()]).toEqual(records.map(treeNodeOf));
    expect(index.byId.get('r')!.label).toBe('prompt$ ');
    expect(index.byId.get('longer')!.label).toBe('first line');
    // Only the actions the label does not show whole carry a key.
    expect(outline.actionKeys.map(([i]) => outline.ids[i])).toEqual(['longer', 'realMulti', 'simMulti']);
    expect(comparedWithReal(index, index.byId.get('same')!)).toBe('same');
    expect(comparedWithReal(index, index.byId.get('sim')!)).toBe('differs');
    expect(comparedWithReal(index, index.byId.get('longer')!)).toBeNull();
    expect(comparedWithReal(index, index.byId.get('simMulti')!)).toBe('differs');
  });
});
