// Settings a workspace remembers in its own file (the `settings` table of migration 1), read
// and written through one schema each so a value from an older or hand-edited file can never
// reach a caller unchecked.
import { SamplingOverrides } from '../common/contract/simulation';
import type { WorkspaceStore } from './workspace-store';

const SAMPLING_KEY = 'generation.sampling';

/** The workspace's generation overrides; {} when none are saved or the saved value no longer fits the schema. */
export function readSamplingOverrides(store: WorkspaceStore): SamplingOverrides {
  const raw = store.getSetting(SAMPLING_KEY);
  if (raw === undefined) return {};
  try {
    const parsed = SamplingOverrides.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function writeSamplingOverrides(store: WorkspaceStore, overrides: SamplingOverrides): SamplingOverrides {
  const checked = SamplingOverrides.parse(overrides);
  store.setSetting(SAMPLING_KEY, JSON.stringify(checked));
  return checked;
}
