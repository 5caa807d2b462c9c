// The sessions coding agents keep on the machine the core runs on: looked for only when the
// user asks (the Sessions panel), imported into the open workspace (scrubbed if asked), and
// replayed through the loaded world model as one corpus whose report opens at once.
import type { SessionSearch } from '../../../src-main/common/contract/sessions';
import { call } from '../api/client';
import { replayTrajectories } from './corpus';
import { importPaths } from './import-actions';
import { useUiStore } from './ui-store';
import { notify, selectTrajectory } from './workspace-actions';

export async function findSessions(): Promise<SessionSearch | null> {
  try {
    return await call('sessions.list', {});
  } catch (err) {
    notify('error', 'Could not look for sessions', [(err as Error).message]);
    return null;
  }
}

/** Imports the sessions at these paths; answers the ids of the trajectories that came in. */
export function importSessions(paths: string[], scrub: boolean): Promise<string[]> {
  return importPaths(paths, { scrub });
}

/** Replays the imported sessions as one corpus; the first one opens, so the report's links and the one-trajectory view are at hand. */
export async function replaySessions(trajectoryIds: string[]): Promise<void> {
  if (trajectoryIds.length === 0) return;
  if (!useUiStore.getState().trajectory) await selectTrajectory(trajectoryIds[0]!);
  await replayTrajectories(trajectoryIds);
}
