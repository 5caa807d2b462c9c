import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgreementRow, SiblingLabel, ActionSamples } from '../common/contract/siblings';
import type { NodeRecord } from '../common/trajectory/model';
import { dispatch } from './dispatch';
import { Studio } from './studio';

const ok = <T>(envelope: { ok: boolean; value?: unknown; error?: { message: string } }) => {
  if (!envelope.ok) throw new Error(envelope.error!.message);
  return envelope.value as T;
};

function studioWithSamples() {
  const studio = new Studio({ door: 'host', resourcesDir: join(process.cwd(), 'resources') });
  studio.openWorkspace(join(mkdtempSync(join(tmpdir(), 'wl-siblings-')), 's.worldloom'), 'create');
  const store = studio.requireStore();
  const bundle = store.createTrajectory({ title: 'T', domain: 'terminal', systemPrompt: '', initialState: '$' });
  const root = bundle.nodes[0]!;
  const real = store.addNode({ parentId: root.id, action: 'ls -la', observation: 'a.txt\nb.txt', origin: 'real' });
  const samples = ['a.txt\nb.txt', 'a.txt\nb.txt', 'a.txt\nc.txt', 'no such file'].map((observation, i) =>
    store.addNode({ parentId: root.id, action: 'ls -la', observation, origin: 'simulated', provenance: { seed: 100 + i } }),
  );
  return { studio, root, real, samples, trajectoryId: bundle.trajectory.id };
}

describe('the sibling contract', () => {
  it('compares the samples of one action with each other and with the real one', async () => {
    const { studio, root, real, samples } = studioWithSamples();
    const { actions } = ok<{ actions: ActionSamples[] }>(await dispatch(studio, 'siblings.sideBySide', { parentId: root.id }));
    expect(actions).toHaveLength(1);
    const [actionSamples] = actions;
    expect(actionSamples).toMatchObject({ parentId: root.id, action: 'ls -la', realNodeId: real.id, real: 'a.txt\nb.txt', distinct: 3 });
    expect(actionSamples!.samples.map((s) => [s.sample, s.seed])).toEqual([
      [1, 100],
      [2, 101],
      [3, 102],
      [4, 103],
    ]);
    expect(actionSamples!.samples[0]!.toReal).toBe(1);
    expect(actionSamples!.consensusNodeId).toBe(samples[0]!.id);
    expect(actionSamples!.agreement).toBeGreaterThan(0.3);
    expect(actionSamples!.agreement).toBeLessThan(1);
    studio.close();
  });

  it('lists states by agreement with each sample told apart, a lone perturbed one by its kind', async () => {
    const { studio, trajectoryId, samples, root } = studioWithSamples();
    const store = studio.requireStore();
    const lone = store.addNode({ parentId: root.id, action: 'df -h', observation: 'No space left', origin: 'perturbed', provenance: { perturbations: [{ kind: 'disk-full', mode: 'transform', params: {}, seed: 1, version: 1 }] } });
    store.addNode({ parentId: root.id, action: 'pwd', observation: '/', origin: 'simulated' });
    const { rows, labels } = ok<{ rows: AgreementRow[]; labels: SiblingLabel[] }>(await dispatch(studio, 'siblings.agreement', { trajectoryId }));
    expect(rows).toEqual([expect.objectContaining({ parentId: root.id, label: 'ls -la', samples: 4 })]);
    expect(labels.map((v) => v.nodeId)).toEqual([...samples.map((s) => s.id), lone.id]);
    expect(labels.at(-1)).toMatchObject({ perturbation: 'disk-full', of: 1 });
    studio.close();
  });

  it('marks one sample preferred and takes the mark from its siblings, announcing each change', async () => {
    const { studio, samples, real } = studioWithSamples();
    const marked: string[] = [];
    studio.onEvent((event, payload) => {
      if (event === 'nodes.marked') marked.push((payload as { node: NodeRecord }).node.id);
    });
    ok(await dispatch(studio, 'siblings.prefer', { nodeId: samples[2]!.id }));
    ok(await dispatch(studio, 'siblings.prefer', { nodeId: samples[1]!.id }));
    const store = studio.requireStore();
    expect(samples.map((s) => store.getNode(s.id)!.curation.tags.includes('preferred'))).toEqual([false, true, false, false]);
    expect(marked).toEqual([samples[2]!.id, samples[1]!.id, samples[2]!.id]);
    const refused = await dispatch(studio, 'siblings.prefer', { nodeId: real.id });
    expect(refused.ok).toBe(false);
    studio.close();
  });
});
