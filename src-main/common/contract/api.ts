// The one API contract between the UI and the core, served by three doors (Electron IPC,
// the host's WebSocket, and — for the same handlers — the CLI). Every input is validated
// with these schemas where it enters the core. Pure: the renderer imports it too.
import { z } from 'zod';
import { evaluationApi } from './evaluation';
import { siblingsApi } from './siblings';
import { perturbationApi } from './perturbation';
import { simulationApi } from './simulation';
import { curationApi } from './curation';
import { realityApi } from './reality';
import { workspaceApi } from './workspace';
import { datasetApi } from './dataset';
import { JobProgress, jobsApi } from './jobs';
import { agentsApi } from './agents';
import { sessionsApi } from './sessions';
import { NodeRecord, TrajectoryRecord } from '../trajectory/model';

/** Every method of the contract; each area of the product contributes its own file. */
export const api = { ...workspaceApi, ...curationApi, ...simulationApi, ...datasetApi, ...perturbationApi, ...realityApi, ...evaluationApi, ...siblingsApi, ...jobsApi, ...agentsApi, ...sessionsApi } as const;

export type ApiMethod = keyof typeof api;
export type ApiInput<M extends ApiMethod> = z.input<(typeof api)[M]['input']>;
export type ApiOutput<M extends ApiMethod> = z.output<(typeof api)[M]['output']>;

export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(api, name);
}

/** Events pushed from the core to every connected UI. */
export const events = {
  /** The workspace itself: opened, closed, or replaced by an import of a whole workspace. */
  'workspace.changed': z.object({ reason: z.string() }),
  /** Nodes written to one trajectory, whole, so a view adds them without reading the tree again. */
  'nodes.added': z.object({ reason: z.string(), trajectoryId: z.string(), nodes: z.array(NodeRecord) }),
  /** Nodes that left a trajectory (a deletion, an undone edit), as they were. */
  'nodes.removed': z.object({ reason: z.string(), trajectoryId: z.string(), nodes: z.array(NodeRecord) }),
  /** A node's curation (stars, rating, tags, note) changed: the node as it is now. */
  'nodes.marked': z.object({ trajectoryId: z.string(), node: NodeRecord }),
  /** Trajectories written to the workspace (created, imported, recorded; never benchmark cases, which stay out of the workspace). */
  'trajectories.added': z.object({
    reason: z.string(),
    /** How many came in; an import of many names only the first 1,000, so one event stays small. */
    count: z.number().int(),
    trajectoryIds: z.array(z.string()),
  }),
  /** Trajectories deleted (by this or another process); a restore announces them as added again. */
  'trajectories.removed': z.object({ reason: z.string(), trajectoryIds: z.array(z.string()) }),
  /** One trajectory's own fields changed (its title or world specification): the record as it is now. */
  'trajectory.changed': z.object({ reason: z.string(), trajectory: TrajectoryRecord }),
  /** A world model finished loading or was unloaded, by any door. */
  'model.changed': z.object({ reason: z.enum(['loaded', 'unloaded']), modelId: z.string().nullable() }),
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
  'job.progress': JobProgress,
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
