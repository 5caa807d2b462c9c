// The simulation slice: the loaded world model and the simulation job in progress.
// Changed only by the actions below and by simulate.token / job.progress events.
import { create } from 'zustand';
import type { ModelSpec, ModelState, Sampling } from '../../../src-main/contract/simulation';
import { call, onEvent } from '../api/client';
import { notify, selectTrajectory } from './store';

export interface SimulationJob {
  jobId: string;
  nodeId: string;
  action: string;
  /** Raw streamed text per sample. */
  samples: string[];
  running: boolean;
  cancelled: boolean;
  tokensPerSecond: number | null;
  device: string | null;
}

interface SimulationState {
  model: ModelState | null;
  job: SimulationJob | null;
  gpuInstallLog: string[];
}

export const useSimulation = create<SimulationState>(() => ({ model: null, job: null, gpuInstallLog: [] }));
const set = useSimulation.setState;
const get = useSimulation.getState;

let listening = false;
/** Subscribes once to the streaming events of the core. */
export function listenForSimulation(): void {
  if (listening) return;
  listening = true;
  onEvent('simulate.token', ({ jobId, sample, text }) => {
    const job = get().job;
    if (!job || job.jobId !== jobId) return;
    const samples = [...job.samples];
    samples[sample] = (samples[sample] ?? '') + text;
    set({ job: { ...job, samples } });
  });
  onEvent('job.progress', ({ jobId, label }) => {
    if (jobId.startsWith('gpu-')) set({ gpuInstallLog: [...get().gpuInstallLog, label].slice(-200) });
  });
}

export async function refreshModel(): Promise<void> {
  try {
    set({ model: await call('model.state', {}) });
  } catch (err) {
    notify('error', 'Could not read the model state', [(err as Error).message]);
  }
}

export async function loadModel(spec: ModelSpec): Promise<boolean> {
  set({ model: get().model ? { ...get().model!, loading: true } : null });
  try {
    set({ model: await call('model.load', { spec }) });
    return true;
  } catch (err) {
    notify('error', 'Could not load the model', [(err as Error).message]);
    await refreshModel();
    return false;
  }
}

export async function unloadModel(): Promise<void> {
  set({ model: await call('model.unload', {}) });
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

export async function simulate(nodeId: string, action: string, samples: number, sampling: Partial<Sampling>): Promise<void> {
  const jobId = `sim-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  set({
    job: { jobId, nodeId, action, samples: Array.from({ length: samples }, () => ''), running: true, cancelled: false, tokensPerSecond: null, device: null },
  });
  try {
    const result = await call('simulate.run', { jobId, nodeId, action, samples, sampling });
    const job = get().job;
    if (job?.jobId === jobId) {
      set({ job: { ...job, running: false, cancelled: result.cancelled, tokensPerSecond: result.tokensPerSecond, device: result.device } });
    }
    const first = result.nodes[0];
    if (first) await selectTrajectory(first.trajectoryId, first.id, result.nodes);
  } catch (err) {
    const job = get().job;
    if (job?.jobId === jobId) set({ job: { ...job, running: false } });
    notify('error', 'Simulation failed', [(err as Error).message]);
  }
}

export async function cancelSimulation(): Promise<void> {
  const job = get().job;
  if (job?.running) await call('simulate.cancel', { jobId: job.jobId });
}
