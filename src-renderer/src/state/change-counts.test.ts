import { describe, expect, it } from 'vitest';
import type { WorkspaceInfo } from '../../../src-main/common/contract/api';
import type { TrajectorySummary } from '../../../src-main/common/trajectory/model';
import { countedNodes } from './change-counts';

const workspace: WorkspaceInfo = { path: '/w.worldloom', trajectories: 2, steps: 5, byDomain: { terminal: 2 }, byOrigin: { real: 3, simulated: 2 } };
const list = [
  { id: 't1', steps: 3, maxDepth: 3 },
  { id: 't2', steps: 2, maxDepth: 2 },
] as TrajectorySummary[];

describe('countedNodes', () => {
  it('adds new steps to the workspace, their origins and their own trajectory only', () => {
    const added = [
      { trajectoryId: 't1', depth: 4, origin: 'simulated' as const, parentId: 'p' },
      { trajectoryId: 't1', depth: 4, origin: 'perturbed' as const, parentId: 'p' },
    ];
    const next = countedNodes(workspace, list, added, 1);
    expect(next.workspace).toMatchObject({ steps: 7, byOrigin: { real: 3, simulated: 3, perturbed: 1 } });
    expect(next.trajectories).toEqual([{ id: 't1', steps: 5, maxDepth: 4 }, list[1]]);
  });

  it('takes removed steps back and drops an origin that has none left', () => {
    const next = countedNodes(workspace, list, [{ trajectoryId: 't2', depth: 2, origin: 'real', parentId: 'p' }], -1);
    expect(next.workspace).toMatchObject({ steps: 4, byOrigin: { real: 2, simulated: 2 } });
    expect(next.trajectories[1]).toEqual({ id: 't2', steps: 1, maxDepth: 2 });
    const none = countedNodes(workspace, list, [1, 2].map(() => ({ trajectoryId: 't1', depth: 1, origin: 'simulated' as const, parentId: 'p' })), -1);
    expect(none.workspace!.byOrigin).toEqual({ real: 3 });
  });
});
