// The generation-settings slice: what the loaded model recommends, what this workspace
// overrides (remembered in the workspace file by the core), and what is in force. Changed
// only by the actions below; refreshed when the model or the workspace changes.
import type { GenerationSettings, SamplingOverrides } from '../../../src-main/common/contract/simulation';
import { call } from '../api/client';
import { notify } from './workspace-actions';
import { areaHook } from './ui-store';

export type SettingKey = keyof SamplingOverrides;

export const useGenerationSettings = areaHook('generationSettings');
const set = useGenerationSettings.setState;
const get = useGenerationSettings.getState;

// Answers may come back out of order when the user changes several fields quickly: only the
// answer to the latest request is kept, since each request carries every override.
let latestRequest = 0;

export async function refreshSettings(): Promise<void> {
  const mine = ++latestRequest;
  try {
    const settings = await call('sampling.get', {});
    if (mine === latestRequest) set({ settings });
  } catch (err) {
    if (mine === latestRequest) set({ settings: null });
    notify('error', 'Could not read the generation settings', [(err as Error).message]);
  }
}

/** The settings as they are once `key` is overridden with `value`, before the core has answered. */
export function withOverride<K extends SettingKey>(settings: GenerationSettings, key: K, value: NonNullable<SamplingOverrides[K]>): GenerationSettings {
  return {
    ...settings,
    workspace: { ...settings.workspace, [key]: value },
    effective: { ...settings.effective, [key]: value },
    sources: { ...settings.sources, [key]: 'workspace' },
  };
}

/** The workspace overrides without `key`: the model's recommendation applies to it again. */
export function withoutOverride(overrides: SamplingOverrides, key: SettingKey): SamplingOverrides {
  const rest = { ...overrides };
  delete rest[key];
  return rest;
}

async function saveOverrides(overrides: SamplingOverrides): Promise<void> {
  const mine = ++latestRequest;
  try {
    const settings = await call('sampling.setWorkspace', { overrides });
    if (mine === latestRequest) set({ settings });
  } catch (err) {
    notify('error', 'Could not remember the generation settings in this workspace', [(err as Error).message]);
    if (mine === latestRequest) await refreshSettings();
  }
}

/** Sets one setting for this workspace (remembered in it); shown at once, saved behind. */
export async function overrideSetting<K extends SettingKey>(key: K, value: NonNullable<SamplingOverrides[K]>): Promise<void> {
  const settings = get().settings;
  if (!settings) return;
  const next = withOverride(settings, key, value);
  set({ settings: next });
  await saveOverrides(next.workspace);
}

/** Goes back to the model's recommendation for one setting. */
export async function forgetOverride(key: SettingKey): Promise<void> {
  const settings = get().settings;
  if (!settings || !(key in settings.workspace)) return;
  await saveOverrides(withoutOverride(settings.workspace, key));
}

/** Goes back to the model's recommendation for every setting. */
export async function forgetAllOverrides(): Promise<void> {
  if (get().settings) await saveOverrides({});
}
