// The simulation slice: the loaded world model, what the simulate panel holds between runs,
// the simulation job in progress with its live streams, and the samples that ran out of
// tokens. Changed only by the actions below and by simulate.token / job.progress events.
// The tree never reads this slice, so streaming tokens re-render the simulate panel alone.
import type { IncompleteSample, ModelSpec, SamplingOverrides } from '../../../src-main/common/contract/simulation';
import type { ApiEventPayload } from '../../../src-main/common/contract/api';
import { call } from '../api/client';
import { refreshSettings, useGenerationSettings } from './generation-settings';
import { appendTokens, continuedStream, EMPTY_STREAM } from './sample-streams';
import { notify, selectNewNode, useUiStore } from './workspace-actions';
import { recordAddedNodes } from './cleanup-actions';
import { areaHook } from './ui-store';
import type { PendingSample, SimulateDraft } from './slices/simulation';
import { plural } from '../../../src-main/common/plural';

/** The largest seed the contract takes (Sampling.seed). */
export const MAX_SEED = 2 ** 31 - 1;

export type { PendingSample, SimulateDraft, SimulationJob } from './slices/simulation';

export const useSimulation = areaHook('simulation');
const set = useSimulation.setState;
const get = useSimulation.getState;

/** At most this many pending samples are kept; the oldest go first. */
const MAX_PENDING = 32;
/** Token events are applied together at most this often: a thousand tokens a second would otherwise mean a thousand renders. */
const FLUSH_MS = 50;

type TokenEvent = { sample: number; text: string; completionTokens: number; elapsedMs: number };
let buffered: { jobId: string; events: TokenEvent[] } | null = null;
let flushTimer: ReturnType<typeof setTimeout> | null = null;

function flushTokens(): void {
  flushTimer = null;
  const batch = buffered;
  buffered = null;
  const job = get().job;
  if (!batch || !job || job.jobId !== batch.jobId) return;
  const streams = [...job.streams];
  for (const e of batch.events) streams[e.sample] = appendTokens(streams[e.sample] ?? EMPTY_STREAM, e.text, e.completionTokens, e.elapsedMs);
  set({ job: { ...job, streams } });
}

let listening = false;
/** A streamed piece of a sample (routed here by state/change-events.ts): applied in batches, to the running job only. */
export function receiveToken({ jobId, sample, text, completionTokens, elapsedMs }: ApiEventPayload<'simulate.token'>): void {
  if (get().job?.jobId !== jobId) return;
  if (buffered?.jobId !== jobId) buffered = { jobId, events: [] };
  buffered.events.push({ sample, text, completionTokens, elapsedMs });
  flushTimer ??= setTimeout(flushTokens, FLUSH_MS);
}

/** A line the CUDA runtime install wrote. */
export function receiveGpuInstallLine(line: string): void {
  set({ gpuInstallLog: [...get().gpuInstallLog, line].slice(-200) });
}

/** Follows workspace switches once: generation overrides are remembered per workspace. */
export function listenForSimulation(): void {
  if (listening) return;
  listening = true;
  // Overrides are remembered per workspace: another workspace has its own.
  useUiStore.subscribe((now, before) => {
    if (now.workspace?.path === before.workspace?.path) return;
    set({ pending: [] });
    if (now.workspace) {
      void refreshSettings();
      void rememberedDraft(now.workspace.path);
    }
  });
}

/** The samples and seed this workspace last ran with: the panel opens as it was left. */
async function rememberedDraft(path: string): Promise<void> {
  try {
    const remembered = await call('simulate.remembered', {});
    if (useUiStore.getState().workspace?.path !== path) return;
    const draft = { ...get().draft, ...remembered };
    // Said where it is kept, so "Simulate ×3" after a reload is not a surprise.
    const restored = draft.samples !== 1 || draft.seed !== 0;
    set({ draft: { ...draft, setBy: restored ? `Samples ${draft.samples} and seed ${draft.seed}: as this workspace last ran them` : null } });
  } catch (err) {
    notify('error', 'Could not read the simulate settings of this workspace', [(err as Error).message]);
  }
}

export async function refreshModel(): Promise<void> {
  try {
    set({ model: await call('model.state', {}) });
  } catch (err) {
    notify('error', 'Could not read the model state', [(err as Error).message]);
  }
  if (useUiStore.getState().workspace) await refreshSettings();
}

export async function loadModel(spec: ModelSpec): Promise<boolean> {
  set({ model: get().model ? { ...get().model!, loading: true } : null });
  try {
    set({ model: await call('model.load', { spec }) });
    if (useUiStore.getState().workspace) await refreshSettings();
    return true;
  } catch (err) {
    notify('error', 'Could not load the model', [(err as Error).message]);
    await refreshModel();
    return false;
  }
}

export async function unloadModel(): Promise<void> {
  set({ model: await call('model.unload', {}) });
  if (useUiStore.getState().workspace) await refreshSettings();
}

export async function installGpuRuntime(): Promise<void> {
  set({ gpuInstallLog: [] });
  try {
    await call('model.installGpuRuntime', { jobId: `gpu-${Date.now()}` });
    notify('info', 'CUDA runtime installed. Load the model again to run it on the GPU.');
  } catch (err) {
    notify('error', 'Installing the CUDA runtime failed', [(err as Error).message]);
  }
  await refreshModel();
}

export function changeDraft(patch: Partial<SimulateDraft>): void {
  // Once the user sets Samples or Seed, the note on where they came from no longer holds.
  const touched = patch.samples !== undefined || patch.seed !== undefined;
  set({ draft: { ...get().draft, ...patch, ...(touched ? { setBy: null } : {}) } });
}

export function toggleReasoningExpanded(): void {
  set({ reasoningExpanded: !get().reasoningExpanded });
}

/** The seed of a resample: another on each press (each is recorded in provenance), within what the contract takes. */
export function freshSeed(seed: number, now = Date.now()): number {
  return (seed + 1000 * (now % 1000) + 1) % (MAX_SEED + 1);
}

interface RunRequest {
  nodeId: string;
  action: string;
  samples: number;
  sampling: SamplingOverrides;
  /** Resume this sample from its partial output. */
  continuation?: IncompleteSample;
  /** The pending sample this run continues or retries: it leaves the list once the run ends (uncancelled). */
  settles?: string;
}

async function run(request: RunRequest): Promise<void> {
  if (get().job?.running) return;
  const jobId = `sim-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const carried = request.continuation;
  const streams = carried ? [continuedStream(carried.text, carried.completionTokens)] : Array.from({ length: request.samples }, () => EMPTY_STREAM);
  set({
    job: { jobId, nodeId: request.nodeId, action: request.action, streams, running: true, cancelled: false, tokensPerSecond: null, device: null },
  });
  try {
    const result = await call('simulate.run', {
      jobId,
      nodeId: request.nodeId,
      action: request.action,
      samples: request.samples,
      sampling: request.sampling,
      ...(carried ? { continuation: { text: carried.text, completionTokens: carried.completionTokens } } : {}),
    });
    if (flushTimer) {
      clearTimeout(flushTimer);
      flushTokens();
    }
    const job = get().job;
    if (job?.jobId === jobId) set({ job: { ...job, running: false, cancelled: result.cancelled, tokensPerSecond: result.tokensPerSecond, device: result.device } });
    // The seed field shows the seed this run used (a resample picks a fresh one), as provenance records it.
    if (!request.settles) {
      const before = get().draft;
      const seed = result.sampling.seed;
      const setBy = seed !== before.seed ? `Seed ${seed}: the fresh seed the last resample used (it was ${before.seed})` : before.setBy;
      set({ draft: { ...before, seed, samples: request.samples, setBy } });
    }
    const reused = new Set(result.reused ?? []);
    const made = result.nodes.filter((n) => !reused.has(n.id));
    recordAddedNodes(made.length === 1 ? 'simulated sample' : `${made.length} simulated samples`, made);
    if (reused.size > 0) {
      notify('info', `${reused.size} sample${reused.size === 1 ? ' was' : 's were'} already in the workspace with this seed and settings`, [
        'The existing one was selected instead of storing an identical copy. Change the seed (or Resample) for a new sample.',
      ]);
    }
    // A continued or retried sample is settled by this run, whatever it ended with; what ran out again is pending anew.
    const settled = request.settles;
    const fresh: PendingSample[] = result.incomplete.map((sample) => ({
      key: `${jobId}/${sample.sample}`,
      nodeId: request.nodeId,
      action: request.action,
      sampling: { ...result.sampling, seed: sample.seed, maxTokens: sample.maxTokens },
      sample,
    }));
    if (!result.cancelled) set({ pending: [...get().pending.filter((p) => p.key !== settled), ...fresh].slice(-MAX_PENDING) });
    // With a sample left to continue at this node, the selection stays where its notice shows; else the first new state is shown.
    const left = get().pending.some((p) => p.nodeId === request.nodeId);
    // The new nodes are in the tree from their nodes.added event; the reply only selects.
    if (result.nodes[0] && !left) selectNewNode(result.nodes[0]);
    if (fresh.length > 0) {
      notify('error', `${fresh.length} of ${plural(request.samples, 'sample')} ran out of tokens and ${fresh.length === 1 ? 'was' : 'were'} not stored`, [
        ...fresh.map((p) => `sample ${p.sample.sample + 1}: ${p.sample.message}`),
        'Continue it or retry with a larger budget in the simulate panel.',
      ]);
    }
  } catch (err) {
    const job = get().job;
    if (job?.jobId === jobId) set({ job: { ...job, running: false } });
    notify('error', 'Simulation failed', [(err as Error).message]);
  }
}

/** The user's settings for a call: the workspace overrides (so the run matches what the panel shows) and a seed. */
function callSampling(seed: number): SamplingOverrides {
  return { ...(useGenerationSettings.getState().settings?.workspace ?? {}), seed };
}

export async function simulate(nodeId: string, action: string, samples: number, seed: number): Promise<void> {
  await run({ nodeId, action, samples, sampling: callSampling(seed) });
}

/** The same action again from the node's parent, with a fresh seed: new sibling samples. */
export async function resample(parentId: string, action: string, samples: number): Promise<void> {
  await run({ nodeId: parentId, action, samples, sampling: callSampling(freshSeed(get().draft.seed)) });
}

/** Resumes a sample from where it ran out, with its own seed and another budget of the same size. */
export async function continueSample(key: string): Promise<void> {
  const pending = get().pending.find((p) => p.key === key);
  if (!pending) return;
  await run({ nodeId: pending.nodeId, action: pending.action, samples: 1, sampling: { ...pending.sampling }, continuation: pending.sample, settles: key });
}

/** The budget a retry gets: double what ran out, within what the model can take. */
export function largerBudget(maxTokens: number, limit: number): number {
  return Math.max(1, Math.min(limit, maxTokens * 2));
}

/** Runs the sample again from the start, its own seed, with a larger budget. */
export async function retryWithLargerBudget(key: string): Promise<void> {
  const pending = get().pending.find((p) => p.key === key);
  if (!pending) return;
  const limit = useGenerationSettings.getState().settings?.maxTokensLimit ?? pending.sampling.maxTokens * 2;
  const maxTokens = largerBudget(pending.sampling.maxTokens, limit);
  await run({ nodeId: pending.nodeId, action: pending.action, samples: 1, sampling: { ...pending.sampling, maxTokens }, settles: key });
}

export function dismissPending(key: string): void {
  set({ pending: get().pending.filter((p) => p.key !== key) });
}

export async function cancelSimulation(): Promise<void> {
  const job = get().job;
  if (job?.running) await call('job.cancel', { jobId: job.jobId });
}

/**
 * Ctrl+Enter outside a field: simulate the typed action at the selected node, or cancel the
 * running simulation. False when there is no action typed yet (the caller puts the cursor there).
 */
export function runOrCancelSimulation(): boolean {
  const { job, draft, model } = get();
  if (job?.running) {
    void cancelSimulation();
    return true;
  }
  if (!draft.action.trim()) return false;
  const nodeId = useUiStore.getState().selectedNodeId;
  if (nodeId && model?.loaded) void simulate(nodeId, draft.action, draft.samples, draft.seed);
  return true;
}

/**
 * Every simulated step on the path to `nodeId` simulated again at once, each from its own
 * parent with its own action and one fresh seed: what else could have happened at each step.
 */
export async function resamplePath(nodeId: string): Promise<void> {
  const tree = useUiStore.getState().tree;
  const steps: string[] = [];
  for (let node = tree?.byId.get(nodeId); node?.parentId; node = tree!.byId.get(node.parentId)) {
    if (node.origin !== 'real' && node.origin !== 'imported') steps.unshift(node.id);
  }
  if (steps.length === 0) {
    notify('info', 'No simulated step on this path to resample', ['Its steps are real (recorded or imported): replay the trajectory to simulate them.']);
    return;
  }
  const jobId = `resample-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    const result = await call('simulate.resample', { jobId, nodeIds: steps, samples: 1, sampling: callSampling(freshSeed(get().draft.seed)) });
    recordAddedNodes(plural(result.nodes.length, 'resampled step'), result.nodes);
    const problems = [...result.failures.map((f) => `${f.step}: ${f.message}`), ...result.incomplete.map((cut) => `node ${cut.nodeId}: ${cut.message}`)];
    notify(problems.length ? 'error' : 'info', `Resampled ${plural(result.nodes.length, 'step')} of the path with seed ${result.seed}`, problems);
  } catch (err) {
    notify('error', 'Resampling the path failed', [(err as Error).message]);
  }
}
