// Handlers for the sim-vs-real part of the contract (contract/reality.ts).
import { resolve } from 'node:path';
import type { realityApi } from '../common/contract/reality';
import { buildReport, compareTrajectory } from '../reality/comparison';
import { recordTrajectory } from '../reality/record';
import { sandboxStates } from '../reality/registry';
import { replayTrajectory } from '../reality/replay';
import { reportHtml } from '../reality/report-html';
import { runReal } from '../reality/run-real';
import type { WorkspaceStore } from '../store/workspace-store';
import { writeTextFile } from '../dataset/export-file';
import type { JobKind } from '../common/contract/jobs';
import type { HandlersOf, Studio } from './studio';
import { UserError } from '../common/user-error';

export function realityHandlers(studio: Studio): HandlersOf<typeof realityApi> {
  /** Runs a reality job under the one job runner; its steps report progress with their own labels. */
  const job = <T>(kind: JobKind, jobId: string, label: string, work: (progress: (done: number, total: number, label: string) => void, signal: AbortSignal) => Promise<T>): Promise<T> =>
    studio.jobs.start(kind, label, (context) => work((done, total, text) => context.progress(done, total, text), context.signal), jobId);

  const comparison = (store: WorkspaceStore, trajectoryId: string, nodeId?: string) => {
    const trajectory = store.getTrajectory(trajectoryId);
    if (!trajectory) throw new UserError(`Trajectory ${trajectoryId} is not in this workspace.`, 'not-found');
    return compareTrajectory(trajectory, store.getNodes(trajectoryId), nodeId);
  };

  const report = (trajectoryIds?: string[]) => {
    const store = studio.requireStore();
    const ids = trajectoryIds ?? store.listTrajectories().map((t) => t.id);
    return buildReport(ids.map((id) => comparison(store, id)));
  };

  return {
    'reality.sandboxes': () => sandboxStates(),
    'reality.record': ({ jobId, domain, actions, title, environment }) =>
      job('record', jobId, `Recording a real ${domain} session`, async (progress, signal) => {
        const result = await recordTrajectory(studio.requireStore(), { domain, actions, title, settings: environment }, progress, signal);
        studio.announceTrajectoriesAdded('recorded', [result.trajectoryId]);
        return result;
      }),
    'reality.runReal': ({ jobId, nodeId, environment, confirmedActions }) =>
      job('run-real', jobId, 'Running the path for real', async (progress, signal) => {
        const store = studio.requireStore();
        const result = await runReal(store, { nodeId, settings: environment, confirmedActions }, progress, signal);
        const trajectoryId = store.getNode(nodeId)!.trajectoryId;
        studio.announceNodesAdded('ran-real', result.nodes);
        return { ...result, comparison: comparison(store, trajectoryId, nodeId) };
      }),
    'reality.replay': ({ jobId, trajectoryId, sampling }) =>
      job('replay', jobId, 'Replaying through the world model', async (progress, signal) => {
        // The simulator announces each step's prediction as it is made.
        const result = await replayTrajectory(studio.simulator, { trajectoryId, sampling }, progress, signal);
        return { ...result, comparison: comparison(studio.requireStore(), trajectoryId) };
      }),
    'reality.compare': ({ trajectoryId, nodeId }) => comparison(studio.requireStore(), trajectoryId, nodeId),
    'reality.report': ({ trajectoryIds }) => report(trajectoryIds),
    'reality.exportReport': async ({ path, format, trajectoryIds, download }) => {
      const built = report(trajectoryIds);
      // For a browser the file goes into a private folder and is fetched once; never into the server's working directory.
      const full = download ? studio.downloads.pathFor(path) : resolve(path);
      // Written beside and renamed into place, so a failed export leaves no half file and no partial one.
      await writeTextFile(full, format === 'html' ? reportHtml(built) : JSON.stringify(built, null, 2) + '\n');
      if (!download) return { path: full, trajectories: built.trajectories.length };
      const downloadId = studio.downloads.offer(full, path, format === 'html' ? 'text/html; charset=utf-8' : 'application/json');
      return { path, trajectories: built.trajectories.length, downloadId };
    },
  };
}
