import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathTo } from '../common/trajectory/build';
import { WorkspaceStore } from './workspace-store';

function branchyWorkspace() {
  const store = WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-paths-')), 'p.worldloom'));
  const { nodes } = store.createTrajectory({ title: 'T', domain: 'terminal', systemPrompt: 'sys', initialState: '$ ' });
  let at = nodes[0]!.id;
  const path = [at];
  for (let depth = 1; depth <= 6; depth++) {
    // A sibling at every level, so the path query must leave the subtrees beside it out.
    store.addNode({ parentId: at, action: `other ${depth}`, observation: 'x', origin: 'manual' });
    at = store.addNode({ parentId: at, action: `step ${depth}`, observation: `o${depth}`, origin: 'manual' }).id;
    path.push(at);
  }
  return { store, trajectoryId: nodes[0]!.trajectoryId, rootId: nodes[0]!.id, path };
}

describe('NodePaths', () => {
  it('reads the path from the root to a node, root first, and nothing from the subtrees beside it', () => {
    const { store, trajectoryId, path } = branchyWorkspace();
    const read = store.paths.pathTo(path[4]!);
    expect(read.map((n) => n.id)).toEqual(path.slice(0, 5));
    // The same records the whole-tree walk finds.
    expect(read).toEqual(pathTo(store.getNodes(trajectoryId), path[4]!));
    expect(store.paths.pathTo('no-such-node')).toEqual([]);
  });

  it('lists children in the order written and finds the first child imported with its prompt (raw text or GUI blocks)', () => {
    const { store, rootId } = branchyWorkspace();
    expect(store.childrenOf(rootId).map((n) => n.action)).toEqual(['other 1', 'step 1']);
    expect(store.paths.firstImportedChild(rootId)).toBeUndefined();
    store.addNode({ parentId: rootId, action: 'a', observation: 'o', origin: 'imported', provenance: { source: { format: 'agentworldbench', rawAction: '' } } });
    const raw = store.addNode({ parentId: rootId, action: 'b', observation: 'o', origin: 'imported', provenance: { source: { format: 'agentworldbench', rawAction: '### Turn 1' } } });
    expect(store.paths.firstImportedChild(rootId)?.id).toBe(raw.id);
    const { store: other, rootId: otherRoot } = branchyWorkspace();
    const gui = other.addNode({ parentId: otherRoot, action: 'tap(1)', observation: 'o', origin: 'imported', provenance: { gui: { taskInstruction: 'Open it' } } });
    expect(other.paths.firstImportedChild(otherRoot)?.id).toBe(gui.id);
  });
});
