import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeletionSummary } from '../../../src-main/common/contract/curation';
import { EMPTY_CURATION, type NodeRecord } from '../../../src-main/common/trajectory/model';

// The core as a door shows it: every call recorded with its input and answered by the test.
const calls: { method: string; input: Record<string, unknown> }[] = [];
const answers = new Map<string, (input: Record<string, unknown>) => unknown>();
vi.mock('../api/door', () => ({ lastMessageArrivedAt: () => 0, door: {} }));
class ApiCallError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
vi.mock('../api/client', () => ({
  ApiCallError,
  call: vi.fn(async (method: string, input: Record<string, unknown>) => {
    calls.push({ method, input });
    const answer = answers.get(method);
    if (!answer) throw new Error(`not in this test: ${method}`);
    return answer(input);
  }),
  onEvent: vi.fn(() => () => undefined),
}));

const { deleteNode, deletionEntries, recordAddedNodes, renameTrajectory } = await import('./cleanup-actions');
const { undo, redo } = await import('./curation-actions');
const { useUiStore } = await import('./workspace-actions');
const { EMPTY_HISTORY } = await import('./undo-history');

let deletionCount = 0;
let lastDeleted = '';
const deletion = (kind: DeletionSummary['kind'], roots: string[]): DeletionSummary => ({
  id: `d${++deletionCount}`, kind, label: 'x', roots, trajectoryId: null, nodes: roots.length, trajectories: 0, deletedAt: '',
});
const node = (id: string, parentId: string | null): NodeRecord => ({
  id, trajectoryId: 't1', parentId, editedFromId: null, depth: parentId ? 1 : 0, action: 'ls', observation: id, reasoning: null,
  origin: 'simulated', provenance: {}, curation: EMPTY_CURATION, metrics: null, createdAt: '',
});

beforeEach(() => {
  calls.length = 0;
  answers.clear();
  answers.set('node.delete', (input) => {
    const made = deletion('nodes', input.ids as string[]);
    lastDeleted = made.id;
    return { deletion: made, nodes: [] };
  });
  answers.set('trajectory.delete', (input) => ({ deletion: deletion('trajectories', input.ids as string[]) }));
  answers.set('deletion.restore', () => ({ deletion: deletion('nodes', []), nodes: [], trajectories: [] }));
  useUiStore.setState({ history: EMPTY_HISTORY, notices: [] });
});

describe('undo of what the user added and deleted', () => {
  it('undoes a simulation by deleting its top samples, redoes it by restoring that deletion, and back again', async () => {
    recordAddedNodes('2 simulated samples', [node('s1', 'p'), node('s2', 'p'), node('s2a', 's2')]);
    await undo();
    expect(calls).toEqual([{ method: 'node.delete', input: { ids: ['s1', 's2'] } }]);
    await redo();
    expect(calls[1]).toEqual({ method: 'deletion.restore', input: { id: lastDeleted } });
    await undo();
    expect(calls[2]).toEqual({ method: 'node.delete', input: { ids: ['s1', 's2'] } });
    expect(useUiStore.getState().notices.filter((n) => n.kind === 'error')).toEqual([]);
  });

  it('waits for an undo still in flight before a redo pressed at once, so the redo finds the deletion to put back', async () => {
    // The tree shows the undo from the change event before node.delete has answered.
    let answerDelete = (): void => undefined;
    answers.set('node.delete', (input) => new Promise((resolve) => {
      answerDelete = () => {
        const made = deletion('nodes', input.ids as string[]);
        lastDeleted = made.id;
        resolve({ deletion: made, nodes: [] });
      };
    }));
    recordAddedNodes('2 simulated samples', [node('s1', 'p'), node('s2', 'p')]);
    const undone = undo();
    const redone = redo();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    answerDelete();
    await Promise.all([undone, redone]);
    expect(calls.map((c) => c.method)).toEqual(['node.delete', 'deletion.restore']);
    expect(calls[1]?.input).toEqual({ id: lastDeleted });
    expect(useUiStore.getState().notices.filter((n) => n.kind === 'error')).toEqual([]);
    expect(useUiStore.getState().history.past).toHaveLength(1);
  });

  it('waits for a delete still in flight before an undo pressed at once, so the undo takes back that delete and not the change before it', async () => {
    let version = 0;
    answers.set('trajectory.revise', () => ({ trajectory: {}, keptVersion: ++version }));
    expect(await renameTrajectory('t1', 'Cleaned')).toBe(true);
    let answerDelete = (): void => undefined;
    let deletedAs = '';
    answers.set('node.delete', (input) => new Promise((resolve) => {
      answerDelete = () => {
        const made = deletion('nodes', input.ids as string[]);
        deletedAs = made.id;
        resolve({ deletion: made, nodes: [] });
      };
    }));
    const tree = { byId: new Map([['n1', node('n1', 'p')]]), shape: { children: new Map(), roots: ['p'], realChild: new Map() } } as unknown as ReturnType<typeof useUiStore.getState>['tree'];
    useUiStore.setState({ tree, trajectory: { id: 't1' } as ReturnType<typeof useUiStore.getState>['trajectory'] });
    const deleted = deleteNode('n1');
    const undone = undo();
    await vi.waitFor(() => expect(calls.map((c) => c.method)).toEqual(['trajectory.revise', 'node.delete']));
    answerDelete();
    await Promise.all([deleted, undone]);
    expect(calls.at(-1)).toEqual({ method: 'deletion.restore', input: { id: deletedAs } });
    expect(useUiStore.getState().history.past.map((e) => e.label)).toEqual(['rename']);
  });

  it('takes back the workspace’s kept deletions after a reload, newest first, and redoes them by deleting again', async () => {
    const older = deletion('trajectories', ['t9']);
    const newer = deletion('nodes', ['n3']);
    useUiStore.setState({ history: { past: deletionEntries([newer, older]), future: [] } });
    await undo();
    expect(calls.at(-1)).toEqual({ method: 'deletion.restore', input: { id: newer.id } });
    await undo();
    expect(calls.at(-1)).toEqual({ method: 'deletion.restore', input: { id: older.id } });
    await redo();
    expect(calls.at(-1)).toEqual({ method: 'trajectory.delete', input: { ids: ['t9'] } });
  });

  it('undoes a rename by putting back the version it kept, and redoes it with the version undo kept', async () => {
    let version = 0;
    answers.set('trajectory.revise', () => ({ trajectory: {}, keptVersion: ++version }));
    answers.set('trajectory.restoreVersion', () => ({ trajectory: {}, keptVersion: ++version }));
    expect(await renameTrajectory('t1', '  ')).toBe(false);
    expect(await renameTrajectory('t1', ' Cleaned ')).toBe(true);
    expect(calls.at(-1)).toEqual({ method: 'trajectory.revise', input: { id: 't1', title: 'Cleaned' } });
    await undo();
    expect(calls.at(-1)).toEqual({ method: 'trajectory.restoreVersion', input: { id: 't1', version: 1 } });
    await redo();
    expect(calls.at(-1)).toEqual({ method: 'trajectory.restoreVersion', input: { id: 't1', version: 2 } });
  });

  it('moves past a deletion another window already took back, instead of sticking on it', async () => {
    answers.set('deletion.restore', () => {
      throw new ApiCallError('There is no deletion d1 to take back (it was restored already).', 'not-found');
    });
    useUiStore.setState({ history: { past: deletionEntries([deletion('nodes', ['n1'])]), future: [] } });
    await undo();
    expect(useUiStore.getState().history).toMatchObject({ past: [], future: [expect.anything()] });
    expect(useUiStore.getState().notices.map((n) => n.title)).toEqual(['That deletion was already taken back']);
  });
});
