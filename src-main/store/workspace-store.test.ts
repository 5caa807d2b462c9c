import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION, WORKSPACE_APPLICATION_ID } from './migrations';
import { WorkspaceError, WorkspaceStore } from './workspace-store';
import { chainBundle } from '../common/trajectory/build';
import { newId } from '../common/trajectory/ids';
import { bundleValues } from './rows';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wl-store-'));
});

describe('WorkspaceStore', () => {
  it('creates a workspace that reopens with its trajectories and nodes', () => {
    const path = join(dir, 'a.worldloom');
    const store = WorkspaceStore.create(path);
    const bundle = store.createTrajectory({ title: 'T', domain: 'terminal', systemPrompt: 'sys', initialState: '$ ' });
    const step = store.addNode({ parentId: bundle.nodes[0]!.id, action: 'ls', observation: 'a b', origin: 'manual' });
    store.close();

    const again = WorkspaceStore.open(path);
    const nodes = again.getNodes(bundle.trajectory.id);
    expect(nodes.map((n) => [n.depth, n.action, n.observation, n.origin])).toEqual([
      [0, '', '$ ', 'manual'],
      [1, 'ls', 'a b', 'manual'],
    ]);
    expect(nodes[1]!.id).toBe(step.id);
    expect(again.info()).toMatchObject({ trajectories: 1, steps: 1, byDomain: { terminal: 1 }, byOrigin: { manual: 1 } });
    expect(again.integrityCheck()).toBe('ok');
    again.close();
  });

  it('writes an imported trajectory once: the same id or source key again is left out, and plain rows equal full ones', () => {
    const path = join(dir, 'i.worldloom');
    const store = WorkspaceStore.create(path);
    const draft = {
      title: 'T',
      domain: 'terminal' as const,
      systemPrompt: 'sys',
      sourceKey: 'key-1',
      steps: [
        { action: 'ls', observation: 'a', origin: 'imported' as const, provenance: { source: { format: 'x', file: 'f', line: 1 } } },
        { action: 'pwd', observation: '/', origin: 'imported' as const, reasoning: 'because', agentReasoning: 'look first' },
      ],
    };
    const bundle = chainBundle(draft, newId, '2026-01-01T00:00:00.000Z');
    const before = store.changes.latest();
    expect(store.insertNewBundles([bundleValues(bundle)])).toEqual([bundle.trajectory.id]);
    expect(store.insertNewBundles([bundleValues(bundle)])).toEqual([]);
    const sameKey = chainBundle({ ...draft, title: 'other' }, newId, '2026-01-01T00:00:00.000Z');
    expect(store.insertNewBundles([bundleValues(sameKey)])).toEqual([]);
    expect(store.getNodes(bundle.trajectory.id)).toEqual(bundle.nodes);
    expect(store.listTrajectories().map((t) => t.title)).toEqual(['T']);
    expect(store.changes.latest() - before).toBe(1);
    store.close();
    // The plain rows (root, first step) hold what the full statement writes for the same values.
    const db = new Database(path, { readonly: true });
    const rows = db.prepare(`SELECT edited_from_id, reasoning, agent_reasoning, starred, rating, tags, note, metrics, provenance FROM nodes ORDER BY rowid`).raw().all();
    db.close();
    expect(rows).toEqual([
      [null, null, null, 0, null, '[]', '', null, '{}'],
      [null, null, null, 0, null, '[]', '', null, '{"source":{"format":"x","file":"f","line":1}}'],
      [null, 'because', 'look first', 0, null, '[]', '', null, '{}'],
    ]);
  });

  it("writes an import's batch as flat row values, foreign keys checked before and on again after", () => {
    const path = join(dir, 'b.worldloom');
    const store = WorkspaceStore.create(path);
    const draft = (sourceKey: string) => ({
      title: sourceKey,
      domain: 'terminal' as const,
      systemPrompt: 'sys',
      sourceKey,
      steps: [
        { action: 'ls', observation: 'a', origin: 'imported' as const, provenance: { source: { format: 'x', file: 'f', line: 1 } } },
        { action: 'pwd', observation: '/', origin: 'imported' as const, reasoning: 'because' },
      ],
    });
    const one = chainBundle(draft('k1'), newId, '2026-01-01T00:00:00.000Z');
    const two = chainBundle(draft('k2'), newId, '2026-01-01T00:00:00.000Z');
    expect(store.insertNewBundles([bundleValues(one)])).toEqual([one.trajectory.id]);
    // Already there (the same id, then the same source key) is left out; the rest is written.
    const sameKey = chainBundle({ ...draft('k1'), title: 'other' }, newId, '2026-01-01T00:00:00.000Z');
    expect(store.insertNewBundles([bundleValues(one), bundleValues(sameKey), bundleValues(two)])).toEqual([two.trajectory.id]);
    expect(store.getNodes(two.trajectory.id)).toEqual(two.nodes);
    // A node pointing outside its bundle is refused before anything is written.
    const stray = chainBundle(draft('k3'), newId, '2026-01-01T00:00:00.000Z');
    stray.nodes[2] = { ...stray.nodes[2]!, parentId: one.nodes[0]!.id };
    expect(() => bundleValues(stray)).toThrow(/refers to a node or trajectory outside it/);
    const foreign = chainBundle(draft('k4'), newId, '2026-01-01T00:00:00.000Z');
    foreign.nodes[1] = { ...foreign.nodes[1]!, trajectoryId: one.trajectory.id };
    expect(() => bundleValues(foreign)).toThrow(/outside it/);
    expect(store.listTrajectories().map((t) => t.title)).toEqual(['k1', 'k2']);
    // Foreign keys are on again for every other write: a row naming a missing parent is refused.
    const values = bundleValues(chainBundle(draft('k5'), newId, '2026-01-01T00:00:00.000Z'));
    values[8 + 10 + 3] = 'no-such-node';
    expect(() => store.transaction(() => (store as unknown as { writeBundleValues(v: unknown[]): boolean }).writeBundleValues(values))).toThrow(/FOREIGN KEY/);
    expect(store.integrityCheck()).toBe('ok');
    store.close();
  });

  it('keeps the original node when an edit is recorded as a new node', () => {
    const store = WorkspaceStore.create(join(dir, 'e.worldloom'));
    const { nodes } = store.createTrajectory({ title: 'T', domain: 'mcp', systemPrompt: '', initialState: '' });
    const original = store.addNode({ parentId: nodes[0]!.id, action: 'call', observation: 'old', origin: 'simulated' });
    const edited = store.addNode({ parentId: nodes[0]!.id, action: 'call', observation: 'new', origin: 'edited', editedFromId: original.id });
    expect(store.getNode(original.id)!.observation).toBe('old');
    expect(store.getNode(edited.id)).toMatchObject({ observation: 'new', editedFromId: original.id, origin: 'edited' });
    store.close();
  });

  it('updates curation without touching content', () => {
    const store = WorkspaceStore.create(join(dir, 'c.worldloom'));
    const { nodes } = store.createTrajectory({ title: 'T', domain: 'web', systemPrompt: '', initialState: 'page' });
    const node = store.setCuration(nodes[0]!.id, { starred: true, rating: 4, tags: ['keep'] });
    expect(node.curation).toEqual({ starred: true, rating: 4, tags: ['keep'], note: '' });
    expect(store.getNode(nodes[0]!.id)!.observation).toBe('page');
    expect(() => store.setCuration(nodes[0]!.id, { rating: 9 })).toThrow();
    store.close();
  });

  it('refuses a file that is not SQLite and leaves it untouched', () => {
    const path = join(dir, 'notes.worldloom');
    writeFileSync(path, 'just some notes, not a database\n'.repeat(200));
    const before = readFileSync(path);
    expect(() => WorkspaceStore.open(path)).toThrow(/not a Worldloom workspace/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses another application\'s SQLite database and leaves it untouched', () => {
    const path = join(dir, 'other.db');
    const db = new Database(path);
    db.exec('CREATE TABLE t(x); INSERT INTO t VALUES (1);');
    db.close();
    const before = readFileSync(path);
    expect(() => WorkspaceStore.open(path)).toThrow(/not a Worldloom workspace/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a workspace from a newer schema and leaves it untouched', () => {
    const path = join(dir, 'future.worldloom');
    const db = new Database(path);
    db.pragma(`application_id = ${WORKSPACE_APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.exec('CREATE TABLE future(x)');
    db.close();
    const before = readFileSync(path);
    let error: unknown;
    try {
      WorkspaceStore.open(path);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(WorkspaceError);
    expect((error as WorkspaceError).code).toBe('newer-schema');
    expect((error as Error).message).toMatch(/update Worldloom/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('will not create over an existing file, and says what to do about a missing one', () => {
    const path = join(dir, 'x.worldloom');
    WorkspaceStore.create(path).close();
    expect(() => WorkspaceStore.create(path)).toThrow(/already exists/);
    expect(() => WorkspaceStore.open(join(dir, 'missing.worldloom'))).toThrow(/No workspace at .*New workspace… on the start screen/);
  });

  it('writes the schema version and application id', () => {
    const path = join(dir, 'v.worldloom');
    WorkspaceStore.create(path).close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('application_id', { simple: true })).toBe(WORKSPACE_APPLICATION_ID);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });
  it('upgrades a schema-2 workspace to agent reasoning and the agent origin, keeping nodes, links and search', () => {
    const path = join(dir, 'v2.worldloom');
    const db = new Database(path);
    db.exec(MIGRATIONS[0]!);
    db.exec(MIGRATIONS[1]!);
    db.pragma(`application_id = ${WORKSPACE_APPLICATION_ID}`);
    db.pragma('user_version = 2');
    db.exec(`INSERT INTO trajectories VALUES ('t1', 'Old', 'terminal', 'sys', NULL, NULL, '2026-01-01')`);
    db.exec(`INSERT INTO nodes (id, trajectory_id, parent_id, depth, action, observation, origin, created_at)
      VALUES ('r', 't1', NULL, 0, '', '$ ', 'manual', '2026-01-01'),
             ('a', 't1', 'r', 1, 'ls', 'alpha.txt', 'real', '2026-01-01')`);
    db.exec(`INSERT INTO node_text(rowid, action, observation, note, tags) SELECT rowid, action, observation, note, tags FROM nodes`);
    db.close();

    const store = WorkspaceStore.open(path);
    expect(store.getNodes('t1').map((n) => [n.id, n.parentId, n.observation])).toEqual([
      ['r', null, '$ '],
      ['a', 'r', 'alpha.txt'],
    ]);
    expect(store.searchNodes({ text: 'alpha' }).hits.map((h) => h.nodeId)).toEqual(['a']);
    const agentStep = store.addNode({ parentId: 'a', action: 'pwd', observation: '/w', origin: 'agent', agentReasoning: 'Where am I?' });
    expect(store.getNode(agentStep.id)).toMatchObject({ origin: 'agent', agentReasoning: 'Where am I?' });
    expect(store.integrityCheck()).toBe('ok');
    store.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(check.pragma('foreign_key_check')).toEqual([]);
    check.close();
  });
});
