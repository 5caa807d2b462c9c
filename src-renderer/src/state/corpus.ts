// Sim vs real over many recorded trajectories (a user's whole corpus, or what a filter
// selects), and which of two world models came closer: the corpus part of the compare slice.
// The replay itself runs as the compare slice's reality job, so its progress (done, in
// flight, failed, rate) shows where every replay's does.
import type { ApiOutput } from '../../../src-main/common/contract/api';
import { call } from '../api/client';
import { plural } from '../../../src-main/common/plural';
import { runJob, useCompare, writeReport } from './compare';
import { notify, refreshTrajectories } from './workspace-actions';

const corpus = () => useCompare.getState().corpus;
const setCorpus = (change: Partial<ReturnType<typeof corpus>>) => useCompare.setState((s) => ({ corpus: { ...s.corpus, ...change } }));

export function openCorpus(): void {
  setCorpus({ open: true });
}

export function closeCorpus(): void {
  setCorpus({ open: false });
}

export function changeCorpusFilter(filter: string): void {
  setCorpus({ filter });
}

/** Replays every recorded trajectory the filter selects through the loaded model, all steps at once up to what it takes. */
export async function replayCorpus(): Promise<void> {
  const filter = corpus().filter.trim();
  await replayInto((jobId) => call('reality.replay', { jobId, filter, sampling: {} }));
}

/** Replays these trajectories (sessions just imported, say) as one corpus and opens its report. */
export async function replayTrajectories(trajectoryIds: string[]): Promise<void> {
  if (trajectoryIds.length === 0) return;
  setCorpus({ open: true, trajectoryIds, report: null, failures: [], ab: null });
  await replayInto((jobId) => call('reality.replay', { jobId, trajectoryIds, sampling: {} }));
}

async function replayInto(replay: (jobId: string) => Promise<ApiOutput<'reality.replay'>>): Promise<void> {
  const result = await runJob('Replaying the recorded trajectories', replay);
  if (!result) return;
  setCorpus({ trajectoryIds: result.trajectoryIds, report: result.report, failures: result.failures, tokensPerSecond: result.tokensPerSecond, ab: null });
  if (result.failures.length > 0) {
    notify('error', `${plural(result.failures.length, 'replayed step')} failed; the others kept their predictions`, [
      ...result.failures.slice(0, 10).map((f) => `${f.step}: ${f.message}`),
      'Replay again to retry them: the steps already predicted are reused.',
    ]);
  }
  if (result.incomplete.length > 0) {
    notify('info', `${plural(result.incomplete.length, 'replayed step')} ran out of tokens and ${result.incomplete.length === 1 ? 'was' : 'were'} not stored`, [
      'Raise the budget in the simulate panel (it is remembered for this workspace), or turn thinking off, and replay again.',
    ]);
  }
  await loadReplayedModels();
  await refreshTrajectories();
}

/** The models whose predictions these trajectories hold: after a replay with a second model, an A/B can run. */
export async function loadReplayedModels(): Promise<void> {
  const trajectoryIds = corpus().trajectoryIds;
  if (!trajectoryIds.length) return;
  try {
    setCorpus({ models: await call('reality.replayedModels', { trajectoryIds }) });
  } catch (err) {
    notify('error', 'Could not list the replayed models', [(err as Error).message]);
  }
}

export async function compareCorpusModels(models: [string, string]): Promise<void> {
  try {
    setCorpus({ ab: await call('reality.compareModels', { trajectoryIds: corpus().trajectoryIds, models }) });
  } catch (err) {
    notify('error', 'Could not compare the models', [(err as Error).message]);
  }
}

/** Writes the corpus report, or the A/B when one is shown, as HTML or JSON. */
export async function exportCorpusReport(path: string): Promise<void> {
  const { trajectoryIds, ab } = corpus();
  await writeReport(path, /\.json$/i.test(path) ? 'json' : 'html', { trajectoryIds, ...(ab ? { models: ab.models.map((m) => m.key) } : {}) });
}
