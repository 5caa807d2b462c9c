// The sim-vs-real slice: the open side-by-side comparison, the step in view, the sandboxes
// in force and the record/run-real/replay job in progress. Changed only by the actions
// below and by job.progress / workspace.changed events from the core.
import { downloadsThroughBrowser, fileNameOf, saveDownload } from '../api/download';
import type { RealEnvironmentSettings, TrajectoryComparison } from '../../../src-main/common/contract/reality';
import type { JobProgress } from '../../../src-main/common/contract/jobs';
import { call } from '../api/client';
import { notify, refreshTrajectories, selectTrajectory, showNewNodes } from './workspace-actions';
import { areaHook } from './ui-store';
import type { CompareState } from './slices/compare';
import { plural } from '../../../src-main/common/plural';

export type { RealityJob } from './slices/compare';

export const useCompare = areaHook('compare');
const set = useCompare.setState;
const get = useCompare.getState;

/** Progress of the reality job this view runs (routed here by state/change-events.ts). */
export function followRealityJob({ jobId, label, done, total, finished, steps }: JobProgress): void {
  if (get().job?.jobId !== jobId) return;
  set({ job: finished ? null : { jobId, label, done, total, ...(steps ? { steps } : {}) } });
}

/** Nodes came into a trajectory: the comparison open for it is read again. */
export function comparisonMayHaveChanged(trajectoryId: string): void {
  const target = get().target;
  if (get().open && target && trajectoryId === target.trajectoryId) void refreshComparison();
}

/** Which sandbox each real environment uses here, asked once: the view says which is in force. */
export function loadSandboxes(): void {
  if (get().sandboxes.length === 0) call('reality.sandboxes', {}).then((sandboxes) => set({ sandboxes }), () => {});
}

function show(target: CompareState['target'], comparison: TrajectoryComparison, step: number): void {
  loadSandboxes();
  set({ open: true, target, comparison, step: Math.max(0, step) });
}

export async function openCompare(trajectoryId: string, nodeId?: string): Promise<void> {
  loadSandboxes();
  set({ open: true, target: { trajectoryId, nodeId }, step: 0 });
  await refreshComparison();
}

export function closeCompare(): void {
  set({ open: false });
}

export async function refreshComparison(): Promise<void> {
  const target = get().target;
  if (!target) return;
  try {
    const comparison = await call('reality.compare', target);
    set({ comparison, step: Math.min(get().step, Math.max(0, comparison.steps.length - 1)) });
  } catch (err) {
    notify('error', 'Could not compare simulated and real steps', [(err as Error).message]);
  }
}

export function showStep(index: number): void {
  const steps = get().comparison?.steps.length ?? 0;
  if (steps > 0) set({ step: Math.max(0, Math.min(steps - 1, index)) });
}

/** Moves to the next step (after the one in view) where the simulation diverged; wraps around. */
export function nextDivergence(direction: 1 | -1 = 1): void {
  const steps = get().comparison?.steps ?? [];
  const n = steps.length;
  for (let k = 1; k <= n; k++) {
    const i = (get().step + direction * k + n) % n;
    if (steps[i]?.diverged) return showStep(i);
  }
}

export async function runJob<T>(label: string, work: (jobId: string) => Promise<T>): Promise<T | undefined> {
  const jobId = `real-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  set({ job: { jobId, label, done: 0, total: null } });
  try {
    return await work(jobId);
  } catch (err) {
    notify('error', `${label} failed`, [(err as Error).message]);
    return undefined;
  } finally {
    if (get().job?.jobId === jobId) set({ job: null });
  }
}

export async function replay(trajectoryId: string): Promise<void> {
  const result = await runJob('Replaying through the world model', (jobId) => call('reality.replay', { jobId, trajectoryId, sampling: {} }));
  if (!result) return;
  if (result.failures.length > 0) {
    notify('error', `${plural(result.failures.length, 'replayed step')} failed; the others kept their predictions`, [
      ...result.failures.map((f) => `${f.step}: ${f.message}`),
      'Replay again to retry them: the steps already predicted are reused, not simulated again.',
    ]);
  }
  if (result.incomplete.length > 0) {
    notify('info', `${plural(result.incomplete.length, 'replayed step')} ran out of tokens and ${result.incomplete.length === 1 ? 'was' : 'were'} not stored`, [
      ...result.incomplete.map((cut) => `Step ${cut.step}: ${cut.message}.`),
      'Raise the budget in the simulate panel (it is remembered for this workspace), or turn thinking off, and replay again.',
    ]);
  }
  show({ trajectoryId }, result.comparison, result.comparison.steps.findIndex((s) => s.diverged));
  await showNewNodes(result.nodes, trajectoryId);
}

/** Runs the path with the settings and the steps the user confirmed in the Run real dialog (never the trajectory's own). */
export async function runReal(nodeId: string, trajectoryId: string, environment: RealEnvironmentSettings, confirmedActions: string[]): Promise<void> {
  const result = await runJob('Running the path for real', (jobId) => call('reality.runReal', { jobId, nodeId, environment, confirmedActions }));
  if (!result) return;
  notify('info', `Ran ${plural(result.comparison.steps.length, 'step')} for real`, [`Sandbox: ${result.sandbox}`, `${plural(result.nodes.length, 'real node')} added beside the simulated ones.`]);
  show({ trajectoryId, nodeId }, result.comparison, 0);
  await showNewNodes(result.nodes, trajectoryId);
}

export async function cancelRealityJob(): Promise<void> {
  const job = get().job;
  if (job) await call('job.cancel', { jobId: job.jobId });
}

export async function exportReport(path: string, format: 'html' | 'json'): Promise<void> {
  const target = get().target;
  await writeReport(path, format, target ? { trajectoryIds: [target.trajectoryId] } : {});
}

/** Writes a report (of some trajectories, or an A/B of `models`) to `path`, or hands it to the browser as a download. */
export async function writeReport(path: string, format: 'html' | 'json', what: { trajectoryIds?: string[]; models?: string[] }): Promise<void> {
  try {
    const download = downloadsThroughBrowser();
    const result = await call('reality.exportReport', { path: download ? fileNameOf(path) : path, format, download, ...what });
    if (result.downloadId) {
      saveDownload(result.downloadId);
      notify('info', 'Report downloaded by the browser', [result.path]);
    } else notify('info', 'Report written', [result.path]);
  } catch (err) {
    notify('error', 'Could not write the report', [(err as Error).message]);
  }
}

/** Runs actions in a fresh real environment (a sandboxed shell, an MCP server, a browser) as a new real trajectory. */
export async function record(input: {
  domain: 'terminal' | 'mcp' | 'web';
  title: string;
  actions: string[];
  mcpCommand?: string;
  mcpArgs?: string[];
  mcpCwd?: string;
}): Promise<boolean> {
  const environment =
    input.domain === 'mcp' && input.mcpCommand
      ? { mcp: { command: input.mcpCommand, args: input.mcpArgs ?? [], ...(input.mcpCwd ? { cwd: input.mcpCwd } : {}) } }
      : {};
  const result = await runJob('Recording for real', (jobId) =>
    call('reality.record', { jobId, domain: input.domain, actions: input.actions, ...(input.title ? { title: input.title } : {}), environment }),
  );
  if (!result) return false;
  notify('info', `Recorded ${result.steps} real steps`, [`Sandbox: ${result.sandbox}`]);
  await refreshTrajectories();
  await selectTrajectory(result.trajectoryId);
  return true;
}
