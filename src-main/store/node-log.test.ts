import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainBundle } from '../common/trajectory/build';
import { newId } from '../common/trajectory/ids';
import { WorkspaceStore } from './workspace-store';

describe('change log of whole trajectories and single nodes (migrations 5, 6)', () => {
  it('a trajectory written whole logs one entry, not one per node; a node added to it later logs its own', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'wl-quiet-')), 'w.worldloom');
    const studio = WorkspaceStore.create(path);
    const from = studio.changes.latest();
    const cli = WorkspaceStore.open(path);
    const bundles = [1, 2].map((k) =>
      chainBundle({ title: `t${k}`, domain: 'terminal', systemPrompt: 's', initialState: '$', steps: [1, 2, 3].map((i) => ({ action: `a${i}`, observation: `o${i}`, origin: 'real' as const })) }, newId, '2026-01-01T00:00:00Z'),
    );
    cli.transaction(() => bundles.forEach((b) => cli.insertBundle(b)));
    const leaf = bundles[0]!.nodes.at(-1)!;
    const added = cli.addNode({ parentId: leaf.id, action: 'ls', observation: 'x', origin: 'manual' });
    const read = studio.changes.since(from, 100);
    expect(read.entries.map((e) => [e.kind, e.trajectoryId, e.nodeId])).toEqual([
      ['trajectory-added', bundles[0]!.trajectory.id, null],
      ['trajectory-added', bundles[1]!.trajectory.id, null],
      ['node-added', bundles[0]!.trajectory.id, added.id],
    ]);
    // Every node was written.
    expect(studio.getNodes(bundles[1]!.trajectory.id)).toHaveLength(4);
  });

  it('an edit, its redo and a restored deletion each log their nodes as added (no trigger does since migration 6)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'wl-quiet-')), 'w.worldloom');
    const studio = WorkspaceStore.create(path);
    const cli = WorkspaceStore.open(path);
    const bundle = chainBundle({ title: 't', domain: 'terminal', systemPrompt: 's', initialState: '$', steps: [1, 2].map((i) => ({ action: `a${i}`, observation: `o${i}`, origin: 'real' as const })) }, newId, '2026-01-01T00:00:00Z');
    cli.insertBundle(bundle);
    const from = studio.changes.latest();
    const [, first, second] = bundle.nodes;
    const edit = cli.editNode(second!.id, { action: 'a2', observation: 'changed' });
    cli.undoEdit(edit.id);
    cli.redoEdit(edit.id);
    const deleted = cli.deleteNodes([first!.id], 'delete');
    cli.restoreDeletion(deleted.deletion.id);
    const kinds = studio.changes.since(from, 100).entries.map((e) => [e.kind, e.nodeId]);
    expect(kinds.filter(([k]) => k === 'node-added')).toEqual([
      ['node-added', edit.id],
      ['node-added', edit.id],
      // The restore puts back the deleted step with what hung from it, parents first.
      ['node-added', first!.id],
      ['node-added', second!.id],
      ['node-added', edit.id],
    ]);
    const db = (studio as unknown as { db: { prepare(sql: string): { all(): unknown[] } } }).db;
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'log_node_added'`).all()).toEqual([]);
    cli.close();
  });
});
