import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GenerationSettings, IncompleteSample, Sampling, SimulateResult } from '../../../src-main/common/contract/simulation';
import { buildOutline } from '../../../src-main/common/trajectory/outline';
import { EMPTY_CURATION, type NodeRecord, type TrajectoryRecord } from '../../../src-main/common/trajectory/model';

// The core, as far as these tests need it: what each call was sent, answers the test decides.
const calls: { method: string; input: Record<string, unknown> }[] = [];
const answers = new Map<string, (input: Record<string, unknown>) => unknown>();
const listeners = new Map<string, (payload: unknown) => void>();
vi.mock('../api/door', () => ({ lastMessageArrivedAt: () => 0, door: {} }));
vi.mock('../api/client', () => ({
  call: vi.fn(async (method: string, input: Record<string, unknown>) => {
    calls.push({ method, input });
    const answer = answers.get(method);
    if (!answer) throw new Error(`not in this test: ${method}`);
    const value = answer(input);
    // As the core does: the new nodes are announced (nodes.added) before the reply, and the
    // event is what puts them into the tree.
    const made = (value as { nodes?: NodeRecord[] } | undefined)?.nodes;
    if (method === 'simulate.run' && made?.length) listeners.get('nodes.added')?.({ reason: 'simulated', trajectoryId: made[0]!.trajectoryId, nodes: made });
    return value;
  }),
  onEvent: vi.fn((event: string, listener: (payload: unknown) => void) => {
    listeners.set(event, listener);
    return () => listeners.delete(event);
  }),
}));

const simulation = await import('./simulation');
const { useSimulation, simulate, resample, freshSeed, MAX_SEED, continueSample, retryWithLargerBudget, runOrCancelSimulation, changeDraft } = simulation;
const { useGenerationSettings } = await import('./generation-settings');
const { selectTrajectory, useUiStore } = await import('./workspace-actions');
// The one router of the core's events, as the app starts it.
(await import('./change-events')).followChanges();

const SAMPLING: Sampling = { temperature: 0.6, topK: 20, topP: 0.95, maxTokens: 64, seed: 7, stop: [], presencePenalty: 0, repetitionPenalty: 1, thinking: true };

function node(id: string, parentId: string | null, action = ''): NodeRecord {
  return {
    id, trajectoryId: 't1', parentId, editedFromId: null, depth: parentId ? 1 : 0, action, observation: id, reasoning: null,
    origin: parentId ? 'simulated' : 'real', provenance: {}, curation: EMPTY_CURATION, metrics: null, createdAt: '2026-01-01T00:00:00Z',
  };
}
const trajectory: TrajectoryRecord = { id: 't1', title: 't1', domain: 'terminal', systemPrompt: '', worldSpec: null, createdAt: '', sourceKey: null };

function incomplete(sample: number, text: string, completionTokens: number, maxTokens = 64): IncompleteSample {
  return { sample, seed: 7 + sample, reason: 'reasoning', message: `ran out of tokens while reasoning (${completionTokens} used)`, completionTokens, text, reasoning: text.replace('<think>', ''), maxTokens };
}

function result(nodes: NodeRecord[], incompleteSamples: IncompleteSample[] = []): SimulateResult {
  return { nodes, incomplete: incompleteSamples, cancelled: false, tokensPerSecond: 10, device: 'cpu', sampling: SAMPLING };
}

const settings: GenerationSettings = {
  model: { temperature: 0.6, maxTokens: 32_768 },
  workspace: { maxTokens: 64 },
  effective: SAMPLING,
  sources: { maxTokens: 'workspace', temperature: 'model' },
  maxTokensLimit: 100,
  reasoning: { reasons: true, canDisable: true },
};

const runs = () => calls.filter((c) => c.method === 'simulate.run').map((c) => c.input);

beforeEach(async () => {
  calls.length = 0;
  answers.clear();
  answers.set('trajectory.outline', () => buildOutline(trajectory, [node('root', null)].map((n) => ({ ...n, ...n.curation }))));
  await selectTrajectory('t1', 'root');
  useSimulation.setState({ job: null, pending: [], model: { loaded: {} as never, defaultModelPath: null, gpuRuntime: 'unsupported-platform', loading: false } });
  useGenerationSettings.setState({ settings });
});

afterEach(() => vi.useRealTimers());

describe('simulating from the panel', () => {
  it('sends the workspace overrides and the seed, and shows the first new state', async () => {
    answers.set('simulate.run', () => result([node('n1', 'root', 'ls'), node('n2', 'root', 'ls')]));
    await simulate('root', 'ls', 2, 3);
    expect(runs()[0]).toMatchObject({ nodeId: 'root', action: 'ls', samples: 2, sampling: { maxTokens: 64, seed: 3 } });
    expect(useUiStore.getState().selectedNodeId).toBe('n1');
    expect(useUiStore.getState().tree!.byId.has('n2')).toBe(true);
    expect(useSimulation.getState().pending).toEqual([]);
  });

  it('resamples from the parent with another seed each time, within what the contract takes, and shows the seed it used', async () => {
    // The core answers with the settings in force, the seed it was sent among them.
    answers.set('simulate.run', (input) => ({ ...result([]), sampling: { ...SAMPLING, seed: (input.sampling as { seed: number }).seed } }));
    changeDraft({ seed: MAX_SEED });
    await resample('root', 'ls', 3);
    const sent = runs()[0]!.sampling as { seed: number };
    expect(runs()[0]).toMatchObject({ nodeId: 'root', action: 'ls', samples: 3 });
    expect(sent.seed).not.toBe(MAX_SEED);
    expect(sent.seed).toBeGreaterThanOrEqual(0);
    expect(sent.seed).toBeLessThanOrEqual(MAX_SEED);
    expect(useSimulation.getState().draft).toMatchObject({ seed: sent.seed, samples: 3 });
    expect(freshSeed(5, 2000)).not.toBe(5);
  });

  it('keeps a sample that ran out of tokens out of the tree, pending at its node, and the selection there', async () => {
    answers.set('simulate.run', () => result([node('n1', 'root', 'ls')], [incomplete(1, '<think>long', 64)]));
    await simulate('root', 'ls', 2, 7);
    const { pending } = useSimulation.getState();
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ nodeId: 'root', action: 'ls', sampling: { seed: 8, maxTokens: 64 }, sample: { completionTokens: 64 } });
    expect(useUiStore.getState().selectedNodeId).toBe('root');
    expect(useUiStore.getState().tree!.byId.has('n1')).toBe(true);
    expect(useUiStore.getState().notices.at(-1)!.title).toBe('1 of 2 samples ran out of tokens and was not stored');
  });

  it('continues a pending sample from its partial output with its own seed, and settles it when that run ends', async () => {
    answers.set('simulate.run', () => result([], [incomplete(0, '<think>half', 64)]));
    await simulate('root', 'ls', 1, 7);
    const key = useSimulation.getState().pending[0]!.key;

    answers.set('simulate.run', () => result([node('done', 'root', 'ls')]));
    const running = continueSample(key);
    // While it runs, the earlier part shows first in its stream.
    expect(useSimulation.getState().job!.streams[0]!.carried).toEqual({ text: '<think>half', tokens: 64 });
    await running;
    expect(runs()[1]).toMatchObject({ samples: 1, sampling: { seed: 7, maxTokens: 64 }, continuation: { text: '<think>half', completionTokens: 64 } });
    expect(useSimulation.getState().pending).toEqual([]);
    expect(useUiStore.getState().selectedNodeId).toBe('done');
  });

  it('retries with double the budget, no more than the model takes, from the start', async () => {
    answers.set('simulate.run', () => result([], [incomplete(0, '<think>half', 64)]));
    await simulate('root', 'ls', 1, 7);
    const key = useSimulation.getState().pending[0]!.key;
    answers.set('simulate.run', () => result([], [incomplete(0, '<think>longer', 100, 100)]));
    await retryWithLargerBudget(key);
    expect(runs()[1]).toMatchObject({ samples: 1, sampling: { seed: 7, maxTokens: 100 } });
    expect(runs()[1]!.continuation).toBeUndefined();
    // The retry ran out again: its own notice replaces the old one.
    const { pending } = useSimulation.getState();
    expect(pending).toHaveLength(1);
    expect(pending[0]!.key).not.toBe(key);
    expect(pending[0]!.sample.completionTokens).toBe(100);
  });

  it('stays at the node while another sample there still waits to be continued', async () => {
    answers.set('simulate.run', () => result([], [incomplete(0, '<think>a', 64), incomplete(1, '<think>b', 64)]));
    await simulate('root', 'ls', 2, 7);
    const [first, second] = useSimulation.getState().pending;
    answers.set('simulate.run', () => result([node('c1', 'root', 'ls')]));
    await continueSample(first!.key);
    expect(useUiStore.getState().tree!.byId.has('c1')).toBe(true);
    expect(useUiStore.getState().selectedNodeId).toBe('root');
    answers.set('simulate.run', () => result([node('c2', 'root', 'ls')]));
    await continueSample(second!.key);
    expect(useUiStore.getState().selectedNodeId).toBe('c2');
  });

  it('keeps pending samples when a continuation is cancelled', async () => {
    answers.set('simulate.run', () => result([], [incomplete(0, '<think>half', 64)]));
    await simulate('root', 'ls', 1, 7);
    answers.set('simulate.run', () => ({ ...result([]), cancelled: true }));
    await continueSample(useSimulation.getState().pending[0]!.key);
    expect(useSimulation.getState().pending).toHaveLength(1);
  });

  it('applies streamed tokens in batches, to the running job only', async () => {
    vi.useFakeTimers();
    let finish: (r: SimulateResult) => void = () => undefined;
    answers.set('simulate.run', () => new Promise((resolve) => (finish = resolve)));
    const running = simulate('root', 'ls', 2, 0);
    const jobId = useSimulation.getState().job!.jobId;
    // The event router (state/change-events.ts) hands every simulate.token event to receiveToken.
    const token = simulation.receiveToken;
    token({ jobId, sample: 1, text: '<think>a', completionTokens: 1, elapsedMs: 100 });
    token({ jobId, sample: 1, text: ' b', completionTokens: 2, elapsedMs: 200 });
    token({ jobId: 'someone-else', sample: 0, text: 'x', completionTokens: 1, elapsedMs: 100 });
    expect(useSimulation.getState().job!.streams[1]!.text).toBe('');
    vi.advanceTimersByTime(60);
    const streams = useSimulation.getState().job!.streams;
    expect(streams[1]).toMatchObject({ text: '<think>a b', tokens: 2 });
    expect(streams[0]!.text).toBe('');
    finish(result([]));
    await running;
    expect(useSimulation.getState().job!.running).toBe(false);
  });

  it('Ctrl+Enter cancels a running simulation, and asks for an action when none is typed', async () => {
    changeDraft({ action: '' });
    expect(runOrCancelSimulation()).toBe(false);
    let finish: (r: SimulateResult) => void = () => undefined;
    answers.set('simulate.run', () => new Promise((resolve) => (finish = resolve)));
    answers.set('job.cancel', () => ({ cancelled: true }));
    changeDraft({ action: 'sleep 100', samples: 1, seed: 0 });
    expect(runOrCancelSimulation()).toBe(true);
    expect(useSimulation.getState().job!.running).toBe(true);
    expect(runOrCancelSimulation()).toBe(true);
    expect(calls.some((c) => c.method === 'job.cancel')).toBe(true);
    finish({ ...result([]), cancelled: true });
    await vi.waitFor(() => expect(useSimulation.getState().job!.running).toBe(false));
  });
});
