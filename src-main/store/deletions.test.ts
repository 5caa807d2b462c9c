import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, WORKSPACE_APPLICATION_ID } from './migrations';
import { WorkspaceStore } from './workspace-store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wl-deletions-'));
});

/** root → a → a1, root → b, and an edit of a (a′) beside it. */
function sample(store: WorkspaceStore) {
  const bundle = store.createTrajectory({ title: 'T', domain: 'terminal', systemPrompt: 'sys', initialState: '$ ' });
  const root = bundle.nodes[0]!;
  const a = store.addNode({ parentId: root.id, action: 'ls', observation: 'alpha beta', origin: 'manual' });
  const a1 = store.addNode({ parentId: a.id, action: 'cat alpha', observation: 'zebra stripes', origin: 'manual' });
  const b = store.addNode({ parentId: root.id, action: 'pwd', observation: '/home', origin: 'manual' });
  const edited = store.editNode(a.id, { action: 'ls', observation: 'alpha gamma' });
  return { trajectoryId: bundle.trajectory.id, root, a, a1, b, edited };
}

describe('deleting and restoring', () => {
  it('deletes a subtree with the edits made of it, and a restore after a reopen puts back the same nodes, marks and search text', () => {
    const path = join(dir, 'w.worldloom');
    const store = WorkspaceStore.create(path);
    const t = sample(store);
    store.setCuration(t.a1.id, { starred: true, tags: ['keep'], note: 'nice' });
    expect(store.searchNodes({ text: 'zebra' }).hits).toHaveLength(1);

    const deleted = store.deleteNodes([t.a.id], 'delete of step 1');
    expect(new Set(deleted.nodes.map((n) => n.id))).toEqual(new Set([t.a.id, t.a1.id, t.edited.id]));
    expect(store.getNodes(t.trajectoryId).map((n) => n.id)).toEqual([t.root.id, t.b.id]);
    expect(store.searchNodes({ text: 'zebra' }).hits).toHaveLength(0);
    store.close();

    const again = WorkspaceStore.open(path);
    const [kept] = again.listDeletions();
    expect(kept).toMatchObject({ id: deleted.deletion.id, kind: 'nodes', roots: [t.a.id], nodes: 3, label: 'delete of step 1' });
    const restored = again.restoreDeletion(kept!.id);
    expect(restored.nodes.map((n) => n.id)).toEqual([t.a.id, t.a1.id, t.edited.id]);
    // Same order among siblings as before the deletion (rowids kept).
    expect(again.getNodes(t.trajectoryId).map((n) => n.id)).toEqual([t.root.id, t.a.id, t.a1.id, t.b.id, t.edited.id]);
    expect(again.getNode(t.a1.id)!.curation).toEqual({ starred: true, rating: null, tags: ['keep'], note: 'nice' });
    expect(again.searchNodes({ text: 'zebra' }).hits.map((h) => h.nodeId)).toEqual([t.a1.id]);
    expect(again.listDeletions()).toEqual([]);
    expect(() => again.restoreDeletion(kept!.id)).toThrow(/no deletion/);
    expect(again.integrityCheck()).toBe('ok');
  });

  it('refuses the initial state, and a restore whose parent was deleted later says to restore that first', () => {
    const store = WorkspaceStore.create(join(dir, 'w.worldloom'));
    const t = sample(store);
    expect(() => store.deleteNodes([t.root.id], 'x')).toThrow(/delete the whole trajectory/);
    const inner = store.deleteNodes([t.a1.id], 'inner');
    const outer = store.deleteNodes([t.a.id], 'outer');
    expect(() => store.restoreDeletion(inner.deletion.id)).toThrow(/Restore that deletion first/);
    store.restoreDeletion(outer.deletion.id);
    store.restoreDeletion(inner.deletion.id);
    expect(store.getNodes(t.trajectoryId)).toHaveLength(5);
  });

  it('deletes whole trajectories and brings them back with their nodes', () => {
    const store = WorkspaceStore.create(join(dir, 'w.worldloom'));
    const t = sample(store);
    const other = store.createTrajectory({ title: 'U', domain: 'mcp', systemPrompt: 's', initialState: '{}' });
    const deleted = store.deleteTrajectories([t.trajectoryId], 'delete of T');
    expect(deleted.deletion).toMatchObject({ kind: 'trajectories', trajectories: 1, nodes: 5 });
    expect(store.listTrajectories().map((x) => x.id)).toEqual([other.trajectory.id]);
    expect(store.searchNodes({ text: 'zebra' }).hits).toHaveLength(0);
    const restored = store.restoreDeletion(deleted.deletion.id);
    expect(restored.trajectories.map((x) => x.title)).toEqual(['T']);
    expect(store.listTrajectories().map((x) => x.id)).toEqual([t.trajectoryId, other.trajectory.id]);
    expect(store.getNodes(t.trajectoryId)).toHaveLength(5);
    expect(store.searchNodes({ text: 'zebra' }).hits).toHaveLength(1);
  });
});

describe('trajectory versions', () => {
  it('keeps the description and world specification as they were before each change, and puts one back', () => {
    const store = WorkspaceStore.create(join(dir, 'w.worldloom'));
    const t = sample(store);
    const first = store.reviseTrajectory(t.trajectoryId, { systemPrompt: 'sys 2' });
    expect(first.keptVersion).toBe(1);
    store.setWorldSpec(t.trajectoryId, { text: '', facts: [{ subject: 'cwd', value: '/srv' }] });
    store.reviseTrajectory(t.trajectoryId, { title: 'Renamed' });
    expect(store.reviseTrajectory(t.trajectoryId, { title: 'Renamed' }).keptVersion).toBeNull();
    const versions = store.trajectoryVersions(t.trajectoryId);
    expect(versions.map((v) => [v.version, v.title, v.systemPrompt])).toEqual([
      [3, 'T', 'sys 2'],
      [2, 'T', 'sys 2'],
      [1, 'T', 'sys'],
    ]);
    const back = store.restoreTrajectoryVersion(t.trajectoryId, 1);
    expect(back.trajectory).toMatchObject({ title: 'T', systemPrompt: 'sys', worldSpec: null });
    expect(store.getTrajectory(t.trajectoryId)).toMatchObject({ title: 'T', systemPrompt: 'sys' });
    expect(store.trajectoryVersions(t.trajectoryId)[0]).toMatchObject({ version: 4, title: 'Renamed' });
    expect(() => store.reviseTrajectory(t.trajectoryId, { title: '  ' })).toThrow(/needs a title/);
  });
});

describe('change log', () => {
  it('shows one connection what another wrote, and not its own writes', () => {
    const path = join(dir, 'w.worldloom');
    const studio = WorkspaceStore.create(path);
    const t = sample(studio);
    const from = studio.changes.latest();
    expect(studio.changes.othersWrote()).toBe(false);

    const cli = WorkspaceStore.open(path);
    const added = cli.addNode({ parentId: t.b.id, action: 'whoami', observation: 'me', origin: 'manual' });
    cli.setCuration(t.b.id, { rating: 4 });
    cli.deleteNodes([t.a1.id], 'cli delete');
    cli.reviseTrajectory(t.trajectoryId, { title: 'From the CLI' });
    studio.addNode({ parentId: t.root.id, action: 'mine', observation: 'mine', origin: 'manual' });

    expect(studio.changes.othersWrote()).toBe(true);
    const read = studio.changes.since(from, 100);
    expect(read.entries.map((e) => [e.kind, e.nodeId])).toEqual([
      ['node-added', added.id],
      ['node-marked', t.b.id],
      ['node-removed', t.a1.id],
      ['trajectory-changed', null],
    ]);
    expect(JSON.parse(read.entries[2]!.removed!)).toMatchObject({ parentId: t.a.id, depth: 2, origin: 'manual' });
    expect(studio.deletedNode(t.a1.id)?.observation).toBe('zebra stripes');
    expect(studio.changes.since(read.next, 100).entries).toEqual([]);
    expect(studio.changes.othersWrote()).toBe(false);
    cli.close();
  });
});

describe('schema 4 upgrade', () => {
  it('upgrades a schema-3 workspace: its nodes can be deleted and restored, and later writes are logged', () => {
    const path = join(dir, 'v3.worldloom');
    const db = new Database(path);
    for (const m of MIGRATIONS.slice(0, 3)) db.exec(m);
    db.pragma(`application_id = ${WORKSPACE_APPLICATION_ID}`);
    db.pragma('user_version = 3');
    db.exec(`INSERT INTO trajectories VALUES ('t1', 'Old', 'terminal', 'sys', NULL, NULL, '2026-01-01')`);
    db.exec(`INSERT INTO nodes (id, trajectory_id, parent_id, edited_from_id, depth, action, observation, origin, created_at)
      VALUES ('r', 't1', NULL, NULL, 0, '', '$ ', 'manual', '2026-01-01'),
             ('a', 't1', 'r', NULL, 1, 'ls', 'alpha.txt', 'real', '2026-01-01'),
             ('e', 't1', 'r', 'a', 1, 'ls', 'beta.txt', 'edited', '2026-01-01')`);
    db.close();

    const store = WorkspaceStore.open(path);
    const from = store.changes.latest();
    const deleted = store.deleteNodes(['a'], 'delete of ls');
    expect(deleted.nodes.map((n) => n.id)).toEqual(['a', 'e']);
    store.restoreDeletion(deleted.deletion.id);
    expect(store.getNodes('t1').map((n) => n.id)).toEqual(['r', 'a', 'e']);
    expect(store.trajectoryVersions('t1')).toEqual([]);
    expect(store.integrityCheck()).toBe('ok');
    store.close();

    const other = WorkspaceStore.open(path);
    other.addNode({ parentId: 'a', action: 'pwd', observation: '/', origin: 'manual' });
    other.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare(`SELECT kind FROM change_log WHERE seq > ? ORDER BY seq`).pluck().all(from).slice(-1)).toEqual(['node-added']);
    expect(check.pragma('foreign_key_check')).toEqual([]);
    check.close();
  });
});
