import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_CURATION, type NodeRecord, type TrajectoryRecord } from '../../../src-main/common/trajectory/model';
import { buildOutline } from '../../../src-main/common/trajectory/outline';

// The core, as far as these tests need it: outlines and nodes from `workspace`, per trajectory.
const workspace = new Map<string, NodeRecord[]>();
const failing = new Map<string, string>();
const fetched: string[] = [];
vi.mock('../api/door', () => ({ lastMessageArrivedAt: () => 0, door: {} }));
vi.mock('../api/client', () => ({
  call: vi.fn(async (method: string, input: { id: string }) => {
    if (method === 'trajectory.outline') {
      const nodes = workspace.get(input.id)!;
      return buildOutline(trajectoryRecord(input.id), nodes.map((n) => ({ ...n, ...n.curation })));
    }
    if (method === 'node.get') {
      fetched.push(input.id);
      const reason = failing.get(input.id);
      if (reason) throw new Error(reason);
      const node = [...workspace.values()].flat().find((n) => n.id === input.id);
      if (!node) throw new Error(`No node ${input.id}`);
      return node;
    }
    throw new Error(`not in this test: ${method}`);
  }),
}));

const { nodeRecord, retryNode, useNodeRecords } = await import('./node-records');
const { selectTrajectory, useUiStore } = await import('./workspace-actions');

function trajectoryRecord(id: string): TrajectoryRecord {
  return { id, title: id, domain: 'terminal', systemPrompt: '', worldSpec: null, createdAt: '', sourceKey: null };
}

function node(id: string, trajectoryId: string, parentId: string | null, observation = id): NodeRecord {
  return {
    id, trajectoryId, parentId, editedFromId: null, depth: parentId ? 1 : 0, action: parentId ? 'ls' : '', observation, reasoning: null,
    origin: 'manual', provenance: {}, curation: EMPTY_CURATION, metrics: null, createdAt: '2026-01-01T00:00:00Z',
  };
}

const kept = (id: string) => useNodeRecords.getState().records.get(id);

beforeEach(() => {
  workspace.clear();
  failing.clear();
  fetched.length = 0;
  workspace.set('t1', [node('r1', 't1', null), node('a', 't1', 'r1', 'before'), node('b', 't1', 'r1')]);
  workspace.set('t2', [node('r2', 't2', null)]);
});

describe('node records across reloads', () => {
  it('keeps the shown records while the same trajectory reloads, and fetches them again behind them', async () => {
    await selectTrajectory('t1', 'a');
    await nodeRecord('a');
    await nodeRecord('b');
    expect(kept('a')!.observation).toBe('before');

    // Another window changes `a` and removes `b`.
    workspace.set('t1', [node('r1', 't1', null), node('a', 't1', 'r1', 'after')]);
    await selectTrajectory('t1');
    expect(useUiStore.getState().selectedNodeId).toBe('a');
    // Still shown, so the inspector neither blanks nor loses what is typed in it.
    expect(kept('a')!.observation).toBe('before');
    expect(useNodeRecords.getState().stale.has('a')).toBe(true);
    expect(kept('b')).toBeUndefined();

    expect((await nodeRecord('a'))!.observation).toBe('before');
    // The fetch behind the shown record lands by itself.
    await vi.waitFor(() => expect(kept('a')!.observation).toBe('after'));
    expect(useNodeRecords.getState().stale.has('a')).toBe(false);
  });

  it('drops them when another trajectory opens, and keeps the records a change returned', async () => {
    await selectTrajectory('t1', 'a');
    await nodeRecord('a');
    const sample = node('s', 't2', 'r2');
    workspace.set('t2', [node('r2', 't2', null), sample]);
    fetched.length = 0;
    await selectTrajectory('t2', 's', [sample]);
    expect(kept('a')).toBeUndefined();
    expect(await nodeRecord('s')).toEqual(sample);
    expect(fetched).toEqual([]);
  });

  it('keeps why a node could not be fetched, until it is fetched again', async () => {
    await selectTrajectory('t1', 'a');
    failing.set('b', 'the workspace is locked');
    expect(await nodeRecord('b')).toBeUndefined();
    expect(useNodeRecords.getState().errors.get('b')).toBe('the workspace is locked');

    failing.clear();
    retryNode('b');
    expect(useNodeRecords.getState().errors.has('b')).toBe(false);
    await vi.waitFor(() => expect(kept('b')!.id).toBe('b'));
  });
});
