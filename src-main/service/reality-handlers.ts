// Handlers for the sim-vs-real part of the contract (contract/reality.ts).
import { resolve } from 'node:path';
import type { realityApi } from '../common/contract/reality';
import { buildReport, compareTrajectory, recordedChain } from '../reality/comparison';
import { recordTrajectory } from '../reality/record';
import { sandboxStates } from '../reality/registry';
import { replayTrajectories } from '../reality/replay';
import { compareModels, replayedModels, type ReplayedTrajectory } from '../reality/model-comparison';
import { modelComparisonHtml, reportHtml } from '../reality/report-html';
import { parseFilter, FilterError } from '../dataset/filter-expression';
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

  const replayed = (trajectoryIds?: string[]): ReplayedTrajectory[] => {
    const store = studio.requireStore();
    return (trajectoryIds ?? store.listTrajectories().map((t) => t.id)).map((id) => {
      const trajectory = store.getTrajectory(id);
      if (!trajectory) throw new UserError(`Trajectory ${id} is not in this workspace.`, 'not-found');
      return { trajectory, nodes: store.getNodes(id) };
    });
  };

  /** The trajectories a replay names: one, a list, or those with a recorded step the filter selects. */
  const replayTargets = (input: { trajectoryId?: string; trajectoryIds?: string[]; filter?: string }): string[] => {
    if (input.trajectoryId) return [input.trajectoryId];
    if (input.trajectoryIds) return [...new Set(input.trajectoryIds)];
    const store = studio.requireStore();
    let matches;
    try {
      matches = parseFilter(input.filter!);
    } catch (error) {
      if (error instanceof FilterError) throw new UserError(`The replay filter does not parse: ${error.message}.`, 'invalid');
      throw error;
    }
    const ids = store.listTrajectories().filter((trajectory) => {
      const chain = recordedChain(store.getNodes(trajectory.id));
      return chain.length > 1 && chain.slice(1).some((node) => matches({ trajectory, node }));
    }).map((t) => t.id);
    if (!ids.length) throw new UserError(`No recorded trajectory here has a step that "${input.filter}" selects. Loosen the filter, or list trajectories with 'worldloom ls'.`, 'invalid');
    return ids;
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
    'reality.replay': (input) => {
      const trajectoryIds = replayTargets(input);
      const label = trajectoryIds.length > 1 ? `Replaying ${trajectoryIds.length} trajectories through the world model` : 'Replaying through the world model';
      return studio.jobs.start('replay', label, async (context) => {
        // The simulator announces each step's prediction as it is made.
        const result = await replayTrajectories(
          studio.simulator,
          { trajectoryIds, sampling: input.sampling },
          (done, total, text) => context.progress(done, total, text),
          context.signal,
          (progress, text) => context.steps(progress, text),
        );
        const store = studio.requireStore();
        return { ...result, trajectoryIds, comparison: comparison(store, trajectoryIds[0]!), report: report(trajectoryIds) };
      }, input.jobId);
    },
    'reality.compare': ({ trajectoryId, nodeId }) => comparison(studio.requireStore(), trajectoryId, nodeId),
    'reality.report': ({ trajectoryIds }) => report(trajectoryIds),
    'reality.replayedModels': ({ trajectoryIds }) => replayedModels(replayed(trajectoryIds)),
    'reality.compareModels': ({ trajectoryIds, models }) => compareModels(replayed(trajectoryIds), models),
    'reality.exportReport': async ({ path, format, trajectoryIds, models, download }) => {
      const ab = models ? compareModels(replayed(trajectoryIds), models) : null;
      const built = ab ? ab.models[0]!.report : report(trajectoryIds);
      // For a browser the file goes into a private folder and is fetched once; never into the server's working directory.
      const full = download ? studio.downloads.pathFor(path) : resolve(path);
      // Written beside and renamed into place, so a failed export leaves no half file and no partial one.
      const text = format === 'html' ? (ab ? modelComparisonHtml(ab) : reportHtml(built)) : JSON.stringify(ab ?? built, null, 2) + '\n';
      await writeTextFile(full, text);
      if (!download) return { path: full, trajectories: built.trajectories.length };
      const downloadId = studio.downloads.offer(full, path, format === 'html' ? 'text/html; charset=utf-8' : 'application/json');
      return { path, trajectories: built.trajectories.length, downloadId };
    },
  };
}
