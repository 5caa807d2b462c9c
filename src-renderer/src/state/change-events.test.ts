import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceInfo } from '../../../src-main/common/contract/api';
import type { Sampling } from '../../../src-main/common/contract/simulation';
import { buildOutline } from '../../../src-main/common/trajectory/outline';
import { EMPTY_CURATION, type NodeRecord, type TrajectoryRecord } from '../../../src-main/common/trajectory/model';

// The core as a door shows it: calls answered by the test, events pushed to every listener.
const calls: string[] = [];
const answers = new Map<string, (input: Record<string, unknown>) => unknown>();
const listeners = new Map<string, ((payload: unknown) => void)[]>();
const emit = (event: string, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload));
vi.mock('../api/door', () => ({ lastMessageArrivedAt: () => 0, door: {} }));
vi.mock('../api/client', () => ({
  call: vi.fn(async (method: string, input: Record<string, unknown>) => {
    calls.push(method);
    const answer = answers.get(method);
    if (!answer) throw new Error(`not in this test: ${method}`);
    return answer(input);
  }),
  onEvent: vi.fn((event: string, listener: (payload: unknown) => void) => {
    listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    return () => undefined;
  }),
}));

const { followChanges } = await import('./change-events');
const { selectTrajectory, useUiStore } = await import('./workspace-actions');
const { simulate, useSimulation } = await import('./simulation');
const { useGenerationSettings } = await import('./generation-settings');

const SAMPLING: Sampling = { temperature: 0.6, topK: 20, topP: 0.95, maxTokens: 64, seed: 7, stop: [], presencePenalty: 0, repetitionPenalty: 1, thinking: true };
const trajectory: TrajectoryRecord = { id: 't1', title: 't1', domain: 'terminal', systemPrompt: '', worldSpec: null, createdAt: '', sourceKey: null };
const workspace: WorkspaceInfo = { path: '/w.worldloom', trajectories: 1, steps: 0, byDomain: { terminal: 1 }, byOrigin: {} };

function node(id: string, parentId: string | null, origin: NodeRecord['origin'] = 'simulated'): NodeRecord {
  return {
    id, trajectoryId: 't1', parentId, editedFromId: null, depth: parentId ? 1 : 0, action: parentId ? 'ls' : '', observation: id, reasoning: null,
    origin, provenance: {}, curation: EMPTY_CURATION, metrics: null, createdAt: '2026-01-01T00:00:00Z',
  };
}

beforeEach(async () => {
  followChanges();
  calls.length = 0;
  answers.clear();
  answers.set('trajectory.outline', () => buildOutline(trajectory, [node('root', null, 'real')].map((n) => ({ ...n, ...n.curation }))));
  await selectTrajectory('t1', 'root');
  useUiStore.setState({ workspace, trajectories: [{ ...trajectory, steps: 0, maxDepth: 0 }] });
  useSimulation.setState({ job: null, pending: [], model: { loaded: {} as never, defaultModelPath: null, gpuRuntime: 'unsupported-platform', loading: false } });
  useGenerationSettings.setState({ settings: null });
  calls.length = 0;
});

describe('applying change events', () => {
  it('costs one simulate one round trip: the announced nodes go into the tree and the counts, the answer selects the first', async () => {
    const added = [node('n1', 'root'), node('n2', 'root')];
    answers.set('simulate.run', () => {
      // The host announces before it answers, as the core does.
      emit('nodes.added', { reason: 'simulated', trajectoryId: 't1', nodes: added });
      return { nodes: added, incomplete: [], cancelled: false, tokensPerSecond: 10, device: 'cpu', sampling: SAMPLING };
    });
    await simulate('root', 'ls', 2, 3);
    expect(calls).toEqual(['simulate.run']);
    const state = useUiStore.getState();
    expect([...state.tree!.byId.keys()]).toEqual(['root', 'n1', 'n2']);
    expect(state.selectedNodeId).toBe('n1');
    expect(state.workspace).toMatchObject({ steps: 2, byOrigin: { simulated: 2 } });
    expect(state.trajectories[0]).toMatchObject({ steps: 2, maxDepth: 1 });
  });

  it('applies another window’s marks, removals and world specification without asking the core', () => {
    emit('nodes.added', { reason: 'added', trajectoryId: 't1', nodes: [node('n1', 'root', 'manual')] });
    emit('nodes.marked', { trajectoryId: 't1', node: { ...node('n1', 'root', 'manual'), curation: { ...EMPTY_CURATION, starred: true, tags: ['keep'] } } });
    expect(useUiStore.getState().tree!.byId.get('n1')).toMatchObject({ starred: true, tags: ['keep'] });
    // The tag filter lists the new tag at once, counted from the change itself.
    expect(useUiStore.getState().search.tags).toEqual([{ tag: 'keep', count: 1 }]);
    useUiStore.setState({ selectedNodeId: 'n1' });
    emit('nodes.removed', { reason: 'edit-undone', trajectoryId: 't1', nodes: [node('n1', 'root', 'manual')] });
    expect(useUiStore.getState().tree!.byId.has('n1')).toBe(false);
    expect(useUiStore.getState().selectedNodeId).toBe('root');
    expect(useUiStore.getState().workspace).toMatchObject({ steps: 0, byOrigin: {} });
    const worldSpec = { text: 'The disk is full.', facts: [{ subject: 'disk', value: 'full' }] };
    emit('trajectory.changed', { reason: 'world-spec', trajectory: { ...trajectory, worldSpec } });
    expect(useUiStore.getState().trajectory?.worldSpec).toEqual(worldSpec);
    expect(calls).toEqual([]);
  });
});
