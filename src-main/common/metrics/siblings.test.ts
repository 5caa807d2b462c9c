import { describe, expect, it } from 'vitest';
import { EMPTY_CURATION, type NodeRecord } from '../trajectory/model';
import { agreementRows, sideBySide, siblingsByAction } from './siblings';

let counter = 0;
function node(parentId: string | null, action: string, observation: string, origin: NodeRecord['origin'], provenance: NodeRecord['provenance'] = {}, tags: string[] = []): NodeRecord {
  return {
    id: `n${++counter}`,
    trajectoryId: 't',
    parentId,
    editedFromId: null,
    depth: parentId === null ? 0 : 1,
    action,
    observation,
    reasoning: null,
    origin,
    provenance,
    curation: { ...EMPTY_CURATION, tags },
    metrics: null,
    createdAt: '',
  };
}

describe('sibling samples of one action', () => {
  const root = node(null, '', '$', 'imported');
  const real = node(root.id, 'ls -la', 'a.txt\nb.txt', 'real');
  const s1 = node(root.id, 'ls -la', 'a.txt\nb.txt', 'simulated', { seed: 7 });
  const s2 = node(root.id, 'ls -la', 'a.txt\nc.txt', 'simulated', { seed: 8 });
  const p1 = node(root.id, 'ls -la', 'ls: cannot open directory', 'perturbed', { perturbations: [{ kind: 'permission-denied', mode: 'transform', params: {}, seed: 1, version: 1 }] }, ['preferred']);
  const other = node(root.id, 'pwd', '/home', 'simulated', { seed: 9 });
  const lone = node(real.id, 'cat a.txt', 'x', 'simulated', { seed: 1 });
  const nodes = [root, real, s1, s2, p1, other, lone];

  it('groups children by parent and action, keeping the real one apart', () => {
    const byAction = siblingsByAction(nodes, root.id);
    const ls = byAction.find((g) => g.action === 'ls -la')!;
    expect(ls.real?.id).toBe(real.id);
    // The perturbed sibling is an alternative to the samples, not one of them.
    expect(ls.samples.map((n) => n.id)).toEqual([s1.id, s2.id]);
    expect(ls.alternatives.map((n) => n.id)).toEqual([p1.id]);
    expect(byAction.find((g) => g.action === 'pwd')!.samples).toHaveLength(1);
    expect(siblingsByAction(nodes).length).toBe(3);
  });

  it('takes an imported step as the ground truth when no real one is there, and a real one over it', () => {
    const imported = node(lone.id, 'cat b.txt', 'b', 'imported');
    const sample = node(lone.id, 'cat b.txt', 'b?', 'simulated');
    const [siblings] = siblingsByAction([...nodes, imported, sample], lone.id);
    expect(siblings!.real?.id).toBe(imported.id);
    expect(siblings!.samples.map((n) => n.id)).toEqual([sample.id]);
    const realLater = node(lone.id, 'cat b.txt', 'b', 'real');
    expect(siblingsByAction([...nodes, imported, sample, realLater], lone.id)[0]!.real?.id).toBe(realLater.id);
  });

  it('puts the samples of an action side by side: numbers and seeds tell samples apart; agreement, consensus and distance to real', () => {
    const siblings = sideBySide(siblingsByAction(nodes, root.id).find((g) => g.action === 'ls -la')!, 'terminal');
    expect(siblings.samples.map((s) => [s.sample, s.of, s.seed, s.perturbation])).toEqual([
      [1, 2, 7, null],
      [2, 2, 8, null],
    ]);
    expect(siblings.samples[0]!.toReal).toBe(1);
    expect(siblings.samples[1]!.toReal).toBeLessThan(1);
    expect(siblings.agreement).toBeGreaterThan(0);
    expect(siblings.agreement).toBeLessThan(1);
    expect(siblings.pairwise).toHaveLength(2);
    expect(siblings.real).toBe('a.txt\nb.txt');
  });

  it('counts only the model\'s samples under one prompt: an edit or a perturbation is no "#3/3", and a sweep makes no agreement row', () => {
    const parent = node(null, '', '$', 'imported');
    const a = node(parent.id, 'cat notes.txt', 'milk', 'simulated', { seed: 1, promptHash: 'p1' });
    const b = node(parent.id, 'cat notes.txt', 'milk\neggs', 'simulated', { seed: 2, promptHash: 'p1' });
    const edited = node(parent.id, 'cat notes.txt', 'milk, eggs', 'edited');
    const sweep = ['disk-full', 'permission-denied', 'timeout', 'command-not-found'].map((kind, i) =>
      node(parent.id, 'grep x notes.txt', `error ${i}`, 'perturbed', { perturbations: [{ kind, mode: 'transform', params: {}, seed: i, version: 1 }] }),
    );
    const { rows, labels } = agreementRows([parent, a, b, edited, ...sweep]);
    expect(rows.map((r) => [r.label, r.samples])).toEqual([['cat notes.txt', 2]]);
    expect(labels.find((v) => v.nodeId === edited.id)).toBeUndefined();
    expect(labels.filter((v) => v.nodeId === a.id || v.nodeId === b.id).map((v) => `${v.sample}/${v.of}`)).toEqual(['1/2', '2/2']);
    expect(labels.filter((v) => sweep.some((n) => n.id === v.nodeId)).map((v) => [v.of, v.perturbation])).toEqual([
      [1, 'disk-full'],
      [1, 'permission-denied'],
      [1, 'timeout'],
      [1, 'command-not-found'],
    ]);
    // A sample made after the prompt changed (a new world specification) starts a new set of samples.
    const c = node(parent.id, 'cat notes.txt', 'bread', 'simulated', { seed: 3, promptHash: 'p2' });
    const [siblings] = siblingsByAction([a, b, edited, c], parent.id);
    expect(siblings!.samples.map((n) => n.id)).toEqual([c.id]);
    expect(siblings!.alternatives.map((n) => n.id)).toEqual([a.id, b.id, edited.id]);
  });

  it('lists only states with two or more samples of an action, least agreement first', () => {
    const lonePerturbed = node(real.id, 'cat c.txt', 'boom', 'perturbed', { perturbations: [{ kind: 'disk-full', mode: 'transform', params: {}, seed: 1, version: 1 }] });
    const agreeing = node(real.id, 'cat b.txt', 'same', 'simulated');
    const agreeing2 = node(real.id, 'cat b.txt', 'same', 'simulated');
    const { rows, labels } = agreementRows([...nodes, lonePerturbed, agreeing, agreeing2]);
    expect(rows.map((r) => [r.label, r.samples])).toEqual([
      ['ls -la', 2],
      ['cat b.txt', 2],
    ]);
    expect(rows[0]!.agreement).toBeLessThan(rows[1]!.agreement);
    expect(rows[1]).toMatchObject({ agreement: 1, distinct: 1, preferredNodeId: null });
    // The curator's pick among the siblings may be a perturbed one.
    expect(rows[0]!.preferredNodeId).toBe(p1.id);
    // A perturbed sibling has no sample number, but its row still names its perturbation.
    expect(labels.map((v) => v.nodeId)).toEqual([s1.id, s2.id, p1.id, lonePerturbed.id, agreeing.id, agreeing2.id]);
    expect(labels.find((v) => v.nodeId === lonePerturbed.id)).toMatchObject({ sample: 1, of: 1, perturbation: 'disk-full' });
    expect(labels.find((v) => v.nodeId === p1.id)).toMatchObject({ of: 1, perturbation: 'permission-denied', perturbationMode: 'transform' });
  });
});
