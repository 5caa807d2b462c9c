// The core behind every door: it owns the open workspace and implements the API contract.
// No Electron import here; the Electron door adds native dialogs through `DoorExtras`.
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import type { api, ApiEvent, ApiEventPayload, WorkspaceInfo } from '../common/contract/api';
import { WorkspaceStore } from '../store/workspace-store';
import { readConcurrency, writeConcurrency } from '../store/workspace-settings';
import { rememberRecent } from './recent-workspaces';
import type { ModelSpec, ModelState } from '../common/contract/simulation';
import { ModelSession, type SecretStore } from '../simulation/model-session';
import { Simulator } from '../simulation/simulator';
import type { TemplateFolders } from '../prompt/template-files';
import type { NodeRecord } from '../common/trajectory/model';
import { evaluationHandlers } from './evaluation-handlers';
import { siblingHandlers } from './sibling-handlers';
import { perturbationHandlers } from './perturbation-handlers';
import { simulationHandlers } from './simulation-handlers';
import { curationHandlers } from './curation-handlers';
import { realityHandlers } from './reality-handlers';
import { workspaceHandlers } from './workspace-handlers';
import { datasetHandlers } from './dataset-handlers';
import { jobsHandlers } from './jobs-handlers';
import { agentsHandlers } from './agents-handlers';
import { sessionsHandlers } from './sessions-handlers';
import { Jobs } from './jobs';
import { Downloads } from './downloads';
import { watchOtherWriters } from './change-events';

export { UserError } from '../common/user-error';
import { UserError } from '../common/user-error';

/** Handlers receive inputs after validation (defaults filled), typed as the schema's output. */
export type HandlersOf<A extends Record<string, { input: z.ZodType; output: z.ZodType }>> = {
  [M in keyof A]: (input: z.output<A[M]['input']>) => Promise<z.output<A[M]['output']>> | z.output<A[M]['output']>;
};
export type Handlers = HandlersOf<typeof api>;

export interface DoorExtras {
  door: 'electron' | 'host' | 'cli';
  /** The installation's resources/ folder (prompt templates, the default model). */
  resourcesDir: string;
  secrets?: SecretStore;
  pickWorkspace?: (mode: 'open' | 'create') => Promise<string | null>;
  pickImportFiles?: () => Promise<string[]>;
  /** Where to save a file (or, with `folder`, a dataset folder): the desktop app's save dialog. */
  pickSavePath?: (request: { title: string; defaultPath: string; extensions: string[]; folder: boolean }) => Promise<string | null>;
}

type Listener = <E extends ApiEvent>(event: E, payload: ApiEventPayload<E>) => void;

export class Studio {
  private store: WorkspaceStore | null = null;
  /** Stops announcing what other processes write to the open workspace. */
  private stopWatching: (() => void) | null = null;
  private readonly listeners = new Set<Listener>();
  readonly models: ModelSession;
  /** Every long operation of every door runs here: progress, cancel, one busy error. */
  readonly jobs = new Jobs((progress) => this.emit('job.progress', progress));
  /** Reports and exports made for a browser (the host door), each fetched once through the host. */
  readonly downloads = new Downloads();
  /** Every simulated step of every door and agent: settings, reuse, simulate, announce. */
  readonly simulator = new Simulator(this);

  constructor(
    readonly extras: DoorExtras,
    readonly version = '0.1.0',
  ) {
    this.models = new ModelSession(extras.resourcesDir, extras.secrets);
  }

  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends ApiEvent>(event: E, payload: ApiEventPayload<E>): void {
    for (const l of this.listeners) l(event, payload);
  }

  /** New nodes of one trajectory (simulated, perturbed, replayed, run for real, edited, added by hand). */
  announceNodesAdded(reason: string, nodes: readonly NodeRecord[]): void {
    if (nodes.length === 0) return;
    this.emit('nodes.added', { reason, trajectoryId: nodes[0]!.trajectoryId, nodes: [...nodes] });
  }

  /** New trajectories (created, imported, recorded, opened from an evaluation). */
  announceTrajectoriesAdded(reason: string, trajectoryIds: readonly string[]): void {
    if (trajectoryIds.length === 0) return;
    // An import of many: the UIs read the list again rather than hold every id.
    this.emit('trajectories.added', { reason, count: trajectoryIds.length, trajectoryIds: trajectoryIds.slice(0, 1000) });
  }

  /** The prompt templates: the installation's built-in ones. */
  get templates(): TemplateFolders {
    return { builtinDir: join(this.extras.resourcesDir, 'prompts') };
  }

  get workspace(): WorkspaceStore | null {
    return this.store;
  }

  requireStore(): WorkspaceStore {
    if (!this.store) throw new UserError('No workspace is open. Create or open one first.', 'no-workspace');
    return this.store;
  }

  openWorkspace(path: string, mode: 'open' | 'create' | 'open-or-create'): WorkspaceInfo {
    const full = resolve(path);
    const next =
      mode === 'create' ? WorkspaceStore.create(full) : mode === 'open' ? WorkspaceStore.open(full) : WorkspaceStore.openOrCreate(full);
    this.close();
    this.store = next;
    // A script's studio lives for one command; a window shows other processes' changes live.
    if (this.extras.door !== 'cli') this.stopWatching = watchOtherWriters(this, next);
    // The recent list is the app's; a script's workspaces would crowd it.
    if (this.extras.door !== 'cli') rememberRecent(full);
    this.emit('workspace.changed', { reason: 'opened' });
    return next.info();
  }

  /** Loads a world model (without a spec, the embedded default) and tells every UI. */
  async loadModel(spec?: ModelSpec): Promise<ModelState> {
    if (spec) await this.models.load(this.withConcurrency(spec));
    else await this.models.loadDefault();
    // An installation without an embedded model loads nothing by default: nothing to announce.
    if (this.models.current) this.emit('model.changed', { reason: 'loaded', modelId: this.models.current.describe().modelId });
    return this.models.state();
  }

  /**
   * A server's or a GGUF context's requests at once: the one the load names is remembered with
   * the open workspace; a load that names none takes the workspace's.
   */
  private withConcurrency(spec: ModelSpec): ModelSpec {
    if (spec.kind === 'onnx' || !this.store) return spec;
    if (spec.concurrency !== undefined) {
      if (!this.store.readOnly) writeConcurrency(this.store, spec.concurrency);
      return spec;
    }
    const saved = readConcurrency(this.store);
    return saved === undefined ? spec : { ...spec, concurrency: saved };
  }

  async unloadModel(): Promise<ModelState> {
    const state = await this.models.unload();
    this.emit('model.changed', { reason: 'unloaded', modelId: null });
    return state;
  }

  close(): void {
    this.stopWatching?.();
    this.stopWatching = null;
    this.store?.close();
    this.store = null;
  }

  /** Closes the workspace and releases the model: for process exit. */
  async dispose(): Promise<void> {
    this.close();
    this.downloads.dispose();
    await this.models.unload();
  }

  readonly handlers: Handlers = { ...workspaceHandlers(this), ...curationHandlers(this), ...simulationHandlers(this), ...datasetHandlers(this), ...perturbationHandlers(this), ...realityHandlers(this), ...evaluationHandlers(this), ...siblingHandlers(this), ...jobsHandlers(this), ...agentsHandlers(this), ...sessionsHandlers(this) };
}

