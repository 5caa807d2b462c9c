import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrajectoryOutline } from '../common/trajectory/outline';
import { dispatch } from './dispatch';
import { Studio } from './studio';

const ok = <T>(envelope: { ok: boolean; value?: unknown; error?: { message: string } }) => {
  if (!envelope.ok) throw new Error(envelope.error!.message);
  return envelope.value as T;
};

describe('the tree part of the workspace contract', () => {
  it('sends a trajectory as an outline, and each node in full on request', async () => {
    const studio = new Studio({ door: 'host', resourcesDir: join(process.cwd(), 'resources') });
    studio.openWorkspace(join(mkdtempSync(join(tmpdir(), 'wl-outline-')), 'o.worldloom'), 'create');
    const store = studio.requireStore();
    const root = store.createTrajectory({ title: 'T', domain: 'terminal', systemPrompt: '', initialState: '$ \nwelcome' }).nodes[0]!;
    const real = store.addNode({ parentId: root.id, action: 'ls -la\n# list', observation: 'a b', origin: 'real' });
    const sim = store.addNode({ parentId: root.id, action: 'ls', observation: 'a b', origin: 'simulated' });
    store.setCuration(sim.id, { starred: true, tags: ['keep'] });

    const outline = ok<TrajectoryOutline>(await dispatch(studio, 'trajectory.outline', { id: root.trajectoryId }));
    expect(outline.ids).toEqual([root.id, real.id, sim.id]);
    expect(outline.parent).toEqual([-1, 0, 0]);
    expect(outline.label).toEqual(['$ ', 'ls -la', 'ls']);
    expect(outline.observation[1]).toBe(outline.observation[2]);
    // Only the real action has more than its label shows, so only it carries an action key.
    expect(outline.actionKeys.map(([i]) => i)).toEqual([1]);
    expect(outline.marks).toEqual([[2, true, null, ['keep']]]);

    const full = ok<{ observation: string; curation: { tags: string[] } }>(await dispatch(studio, 'node.get', { id: sim.id }));
    expect(full).toMatchObject({ observation: 'a b', curation: { tags: ['keep'] } });
    expect(await dispatch(studio, 'node.get', { id: 'nope' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    studio.close();
  });
});
