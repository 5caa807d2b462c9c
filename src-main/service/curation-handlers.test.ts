import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
});
