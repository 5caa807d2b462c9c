import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { WorkspaceStore } from '../store/workspace-store';
import { dispatch } from './dispatch';
import { Studio } from './studio';

function studioWithStep() {
  const studio = new Studio({ door: 'host', resourcesDir: join(process.cwd(), 'resources') });
  studio.openWorkspace(join(mkdtempSync(join(tmpdir(), 'wl-curation-')), 'c.worldloom'), 'create');
  const store = studio.requireStore();
  const root = store.createTrajectory({ title: 'T', domain: 'terminal', systemPrompt: '', initialState: '$' }).nodes[0]!;
  const step = store.addNode({ parentId: root.id, action: 'ls', observation: 'a b', origin: 'real' });
  const events: string[] = [];
  studio.onEvent((event, payload) => events.push(`${event}:${(payload as { reason?: string }).reason}`));
  return { studio, step, events };
}

const ok = <T>(envelope: { ok: boolean; value?: unknown; error?: { message: string } }) => {
  if (!envelope.ok) throw new Error(envelope.error!.message);
  return envelope.value as T;
};

describe('the curation contract', () => {
  it('edits, undoes and redoes through the contract, announcing each change', async () => {
    const { studio, step, events } = studioWithStep();
    const edit = ok<{ id: string; origin: string; editedFromId: string }>(await dispatch(studio, 'node.edit', { id: step.id, action: 'ls', observation: 'a b c' }));
    expect(edit).toMatchObject({ origin: 'edited', editedFromId: step.id });
    ok(await dispatch(studio, 'node.undoEdit', { id: edit.id }));
    expect(studio.requireStore().getNode(edit.id)).toBeUndefined();
    ok(await dispatch(studio, 'node.redoEdit', { id: edit.id }));
    expect(studio.requireStore().getNode(edit.id)).toBeDefined();
    expect(events).toEqual(['nodes.added:edited', 'nodes.removed:edit-undone', 'nodes.added:edit-redone']);
    studio.close();
  });

  it('marks and finds nodes, and refuses marks outside their range', async () => {
    const { studio, step } = studioWithStep();
    ok(await dispatch(studio, 'node.setCuration', { id: step.id, curation: { starred: true, tags: ['keep'], rating: 5 } }));
    const found = ok<{ hits: { nodeId: string }[] }>(await dispatch(studio, 'search.nodes', { text: 'keep', starred: true, minRating: 5 }));
    expect(found.hits.map((h) => h.nodeId)).toEqual([step.id]);
    expect(ok(await dispatch(studio, 'tags.list', {}))).toEqual([{ tag: 'keep', count: 1 }]);
    const bad = await dispatch(studio, 'node.setCuration', { id: step.id, curation: { rating: 7 } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    const notEdit = await dispatch(studio, 'node.undoEdit', { id: step.id });
    expect(notEdit).toMatchObject({ ok: false, error: { code: 'invalid', message: expect.stringMatching(/not created by an edit/) } });
    studio.close();
  });

  it('deletes a step and a trajectory, restores both, and keeps a renamed title and an earlier description as versions', async () => {
    const { studio, step, events } = studioWithStep();
    const store = studio.requireStore();
    const below = store.addNode({ parentId: step.id, action: 'cat a', observation: 'x', origin: 'real' });
    const deleted = ok<{ deletion: { id: string; label: string; nodes: number } }>(await dispatch(studio, 'node.delete', { ids: [step.id] }));
    expect(deleted.deletion).toMatchObject({ label: 'step 1 “ls”', nodes: 2 });
    expect(store.getNode(below.id)).toBeUndefined();
    const listed = ok<{ id: string }[]>(await dispatch(studio, 'deletion.list', {}));
    expect(listed.map((d) => d.id)).toEqual([deleted.deletion.id]);
    const restored = ok<{ nodes: { id: string }[] }>(await dispatch(studio, 'deletion.restore', { id: deleted.deletion.id }));
    expect(restored.nodes.map((n) => n.id)).toEqual([step.id, below.id]);

    const trajectoryId = step.trajectoryId;
    const renamed = ok<{ keptVersion: number }>(await dispatch(studio, 'trajectory.revise', { id: trajectoryId, title: 'Cleaned', systemPrompt: 'A bash shell.' }));
    expect(renamed.keptVersion).toBe(1);
    const versions = ok<{ title: string; systemPrompt: string }[]>(await dispatch(studio, 'trajectory.versions', { id: trajectoryId }));
    expect(versions).toMatchObject([{ version: 1, title: 'T', systemPrompt: '' }]);
    ok(await dispatch(studio, 'trajectory.restoreVersion', { id: trajectoryId, version: 1 }));
    expect(store.getTrajectory(trajectoryId)).toMatchObject({ title: 'T', systemPrompt: '' });

    const gone = ok<{ deletion: { id: string; label: string } }>(await dispatch(studio, 'trajectory.delete', { ids: [trajectoryId] }));
    expect(gone.deletion.label).toBe('trajectory “T”');
    expect(store.listTrajectories()).toEqual([]);
    ok(await dispatch(studio, 'deletion.restore', { id: gone.deletion.id }));
    expect(store.getNodes(trajectoryId)).toHaveLength(3);
    expect(events.slice(-6)).toEqual([
      'nodes.removed:deleted',
      'nodes.added:restored',
      'trajectory.changed:revised',
      'trajectory.changed:version-restored',
      'trajectories.removed:deleted',
      'trajectories.added:restored',
    ]);
    studio.close();
  });

  it('announces what another process writes to the open workspace, and not its own changes twice', async () => {
    const { studio, step } = studioWithStep();
    const received: { event: string; payload: Record<string, unknown> }[] = [];
    studio.onEvent((event, payload) => received.push({ event, payload: payload as Record<string, unknown> }));
    ok(await dispatch(studio, 'node.setCuration', { id: step.id, curation: { starred: true } }));
    const other = WorkspaceStore.open(studio.requireStore().path);
    const added = other.addNode({ parentId: step.id, action: 'pwd', observation: '/', origin: 'simulated' });
    other.setCuration(step.id, { rating: 3 });
    const fresh = other.createTrajectory({ title: 'From the CLI', domain: 'terminal', systemPrompt: '', initialState: '$' });
    other.reviseTrajectory(step.trajectoryId, { title: 'Renamed elsewhere' });
    other.close();
    await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(5), { timeout: 5000, interval: 50 });
    const summary = received.map(({ event, payload }) => {
      if (event === 'nodes.added') return `${event}:${(payload.nodes as { id: string }[]).map((n) => n.id).join()}`;
      if (event === 'nodes.marked') return `${event}:${(payload.node as { curation: { rating: number } }).curation.rating}`;
      if (event === 'trajectories.added') return `${event}:${(payload.trajectoryIds as string[]).join()}`;
      if (event === 'trajectory.changed') return `${event}:${(payload.trajectory as { title: string }).title}`;
      return event;
    });
    expect(summary).toEqual([
      'nodes.marked:null',
      `trajectories.added:${fresh.trajectory.id}`,
      'trajectory.changed:Renamed elsewhere',
      'nodes.marked:3',
      `nodes.added:${added.id}`,
    ]);
    studio.close();
  });

  it('announces another process’s deletions with the nodes as they were, and nothing for a node made and deleted between two looks', async () => {
    const { studio, step } = studioWithStep();
    const store = studio.requireStore();
    const kept = store.addNode({ parentId: step.id, action: 'cat a', observation: 'alpha', origin: 'real' });
    const spare = store.createTrajectory({ title: 'Spare', domain: 'terminal', systemPrompt: '', initialState: '$' });
    const received: { event: string; payload: Record<string, unknown> }[] = [];
    studio.onEvent((event, payload) => received.push({ event, payload: payload as Record<string, unknown> }));
    const other = WorkspaceStore.open(store.path);
    const brief = other.addNode({ parentId: step.id, action: 'tmp', observation: '', origin: 'manual' });
    other.deleteNodes([brief.id], 'brief');
    other.deleteNodes([kept.id], 'cli delete');
    other.deleteTrajectories([spare.trajectory.id], 'cli delete');
    other.close();
    await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(2), { timeout: 5000, interval: 50 });
    expect(received).toEqual([
      { event: 'trajectories.removed', payload: { reason: 'elsewhere', trajectoryIds: [spare.trajectory.id] } },
      { event: 'nodes.removed', payload: { reason: 'elsewhere', trajectoryId: step.trajectoryId, nodes: [expect.objectContaining({ id: kept.id, observation: 'alpha' })] } },
    ]);
    studio.close();
  });
});
