// `npm run make:workspace` (bench/make-workspace.ts): a large workspace written through the store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace } from '../../bench/make-workspace';
import { WorkspaceStore } from './workspace-store';

describe('make:workspace', () => {
  it('writes the asked number of nodes over the asked trajectories, searchable, and refuses an existing file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'wl-large-')), 'large.worldloom');
    const progress: number[] = [];
    expect(makeWorkspace(path, 2001, 2, (n) => progress.push(n))).toEqual({ path, trajectories: 2, nodes: 2001 });
    expect(progress).toEqual([1001, 2001]);
    const store = WorkspaceStore.open(path);
    const trajectories = store.listTrajectories();
    expect(trajectories.map((t) => t.steps + 1)).toEqual([1001, 1000]);
    expect(store.searchNodes({ text: 'pytest', limit: 5 }).hits).toHaveLength(5);
    expect(store.integrityCheck()).toBe('ok');
    store.close();
    expect(() => makeWorkspace(path, 10)).toThrow(/already exists/);
    expect(() => makeWorkspace(join(path, '..', 'other.worldloom'), 0)).toThrow(/--nodes must be/);
  });
});
