// The one API contract between the UI and the core, served by three doors (Electron IPC,
// the host's WebSocket, and — for the same handlers — the CLI). Every input is validated
// with these schemas where it enters the core. Pure: the renderer imports it too.
import { z } from 'zod';
import { evaluationApi } from './evaluation';
import { perturbationApi } from './perturbation';
import { simulationApi } from './simulation';
import { curationApi } from './curation';
import { realityApi } from './reality';
import { workspaceApi } from './workspace';
import { datasetApi } from './dataset';



/** Every method of the contract; each area of the product contributes its own file. */
export const api = { ...workspaceApi, ...curationApi, ...simulationApi, ...datasetApi, ...perturbationApi, ...realityApi, ...evaluationApi } as const;

export type ApiMethod = keyof typeof api;
export type ApiInput<M extends ApiMethod> = z.input<(typeof api)[M]['input']>;
export type ApiOutput<M extends ApiMethod> = z.output<(typeof api)[M]['output']>;

export const API_METHODS = Object.keys(api) as ApiMethod[];
export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(api, name);
}

/** Events pushed from the core to every connected UI. */
export const events = {
  'workspace.changed': z.object({ reason: z.string(), trajectoryId: z.string().optional() }),
  /**
   * Text a simulation sample produced since the last event (reasoning inline in <think> tags),
   * with the sample's new tokens so far and the milliseconds since the run started, so a view
   * can show tokens used and tokens/s while it streams.
   */
  'simulate.token': z.object({
    jobId: z.string(),
    sample: z.number().int(),
    text: z.string(),
    completionTokens: z.number().int(),
    elapsedMs: z.number(),
  }),
  'job.progress': z.object({
    jobId: z.string(),
    label: z.string(),
    done: z.number(),
    total: z.number().nullable(),
    finished: z.boolean(),
  }),
};
export type ApiEvent = keyof typeof events;
export type ApiEventPayload<E extends ApiEvent> = z.infer<(typeof events)[E]>;

/** What crosses every door: a result or an error a user can act on. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** The renderer-side view of a door: window.worldloom in Electron, a WebSocket in the host. */
export interface Door {
  invoke(method: string, input: unknown): Promise<Envelope<unknown>>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

export { AppInfo, ImportReport, WorkspaceInfo } from './workspace';
