// Settings a workspace remembers in its own file (the `settings` table of migration 1), read
// and written through one schema each so a value from an older or hand-edited file can never
// reach a caller unchecked.
import { Concurrency, SamplingOverrides } from '../common/contract/simulation';
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

const SIMULATE_PANEL_KEY = 'simulate.panel';

export interface SimulatePanelSettings {
  samples: number;
  seed: number;
}

/** What the simulate panel last ran with here; 1 sample from seed 0 until a run says otherwise. */
export function readSimulatePanel(store: WorkspaceStore): SimulatePanelSettings {
  const fallback = { samples: 1, seed: 0 };
  const raw = store.getSetting(SIMULATE_PANEL_KEY);
  if (raw === undefined) return fallback;
  try {
    const parsed = JSON.parse(raw) as Partial<SimulatePanelSettings>;
    const whole = (v: unknown, min: number, max: number) => (Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? (v as number) : null);
    return { samples: whole(parsed.samples, 1, 64) ?? fallback.samples, seed: whole(parsed.seed, 0, 2 ** 31 - 1) ?? fallback.seed };
  } catch {
    return fallback;
  }
}

export function writeSimulatePanel(store: WorkspaceStore, panel: SimulatePanelSettings): void {
  store.setSetting(SIMULATE_PANEL_KEY, JSON.stringify({ samples: panel.samples, seed: panel.seed }));
}

const CONCURRENCY_KEY = 'model.concurrency';

/**
 * The requests at once this workspace's user chose for a server or a GGUF context (the model
 * panel's field, `--concurrency`); undefined until one was chosen or when the saved value no longer fits.
 */
export function readConcurrency(store: WorkspaceStore): number | undefined {
  const raw = store.getSetting(CONCURRENCY_KEY);
  if (raw === undefined) return undefined;
  const parsed = Concurrency.safeParse(Number(raw));
  return parsed.success ? parsed.data : undefined;
}

export function writeConcurrency(store: WorkspaceStore, requests: number): void {
  store.setSetting(CONCURRENCY_KEY, String(Concurrency.parse(requests)));
}
