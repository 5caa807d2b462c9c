// Large files of the formats in STREAMED_IMPORTERS are read in a worker while the importing
// thread writes: the workspace must end up exactly as when the same file is read in-thread,
// a cancel must stop the worker and keep only whole trajectories, and nothing may hang.
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../store/workspace-store';
import { generatedAwb } from '../testing/awb-fixtures';
import { fileHead, fileSource } from '../parsing/sources';
import { importAsJob, importTrajectories, STREAM_FROM_BYTES } from './import-trajectories';
import { streamOffThread } from './off-thread-import';

function largeFile(trajectories: number, extra: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'wl-streamed-'));
  const file = join(dir, 'terminal_test.jsonl');
  writeFileSync(file, [...generatedAwb(trajectories, 5), ...extra].join('\n') + '\n');
  expect(statSync(file).size).toBeGreaterThanOrEqual(STREAM_FROM_BYTES);
  return file;
}

/** What a workspace holds, without the ids and times an import makes up. */
function contents(store: WorkspaceStore) {
  return store.listTrajectories().map((t) => ({
    title: t.title,
    sourceKey: t.sourceKey,
    systemPrompt: t.systemPrompt,
    nodes: store.getNodes(t.id).map((n) => ({ depth: n.depth, action: n.action, observation: n.observation, origin: n.origin, provenance: n.provenance })),
  }));
}

describe('a large file read in a worker while the import writes', () => {
  it('reads trajectories in the worker as the values their rows bind, telling the caller when to wait', async () => {
    const file = largeFile(800);
    let values = 0;
    let waits = 0;
    for (const item of streamOffThread({ path: file, name: 'terminal_test.jsonl', format: 'agentworldbench', head: fileHead(file), options: {} }, new Date().toISOString())) {
      if (item.kind === 'pending') {
        // This thread must wait for the worker's posts to come in: they arrive through its event loop.
        waits++;
        await item.ready;
        continue;
      }
      expect(item.kind).toBe('values');
      if (item.kind === 'values') {
        values++;
        expect(item.values[1]).toMatch(/^terminal · gen-\d+$/);
      }
    }
    expect(values).toBe(800);
    expect(waits).toBeGreaterThan(0);
  });

  it('writes the same trajectories as reading it on the importing thread, with one bad line reported alike', async () => {
    const file = largeFile(1000, ['{"task": "terminal", "id": 7, "prompt": "not a list"}']);
    const dir = mkdtempSync(join(tmpdir(), 'wl-streamed-ws-'));
    const inThread = WorkspaceStore.create(join(dir, 'a.worldloom'));
    const streamed = WorkspaceStore.create(join(dir, 'b.worldloom'));
    const a = importTrajectories(inThread, fileSource(file), { head: fileHead(file) });
    const added: string[] = [];
    let progress = 0;
    const b = await importAsJob(streamed, fileSource(file), { head: fileHead(file), signal: new AbortController().signal, added, onProgress: () => progress++ });
    expect(b.imported).toBe(1000);
    expect({ ...b, trajectoryIds: [] }).toEqual({ ...a, trajectoryIds: [] });
    expect(b.problems).toHaveLength(1);
    expect(added).toEqual(streamed.listTrajectories().map((t) => t.id));
    expect(progress).toBe(2);
    expect(contents(streamed)).toEqual(contents(inThread));
    expect(streamed.integrityCheck()).toBe('ok');
    // Imported again, every trajectory is recognised and none is written twice.
    const again = await importAsJob(streamed, fileSource(file), { head: fileHead(file), signal: new AbortController().signal, added: [] });
    expect(again.imported).toBe(0);
    expect(again.alreadyPresent).toBe(1000);
    inThread.close();
    streamed.close();
  });

  it('stops reading at a cancel and keeps only whole trajectories', async () => {
    const file = largeFile(3000);
    const store = WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-streamed-cancel-')), 'w.worldloom'));
    const cancel = new AbortController();
    const added: string[] = [];
    const job = importAsJob(store, fileSource(file), { head: fileHead(file), signal: cancel.signal, added, batchSize: 100, onProgress: () => cancel.abort() });
    await expect(job).rejects.toMatchObject({ code: 'cancelled' });
    const list = store.listTrajectories();
    expect(list.length).toBe(added.length);
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThan(3000);
    for (const t of list) expect(t.steps).toBe(5);
    store.close();
  });
});
