// The CLI's way into the core: the same Studio and the same dispatcher (contract validation,
// handlers, jobs, errors) as the app's doors. A verb maps its flags to a contract input and
// calls the method; what it prints is its own.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ApiEvent, ApiEventPayload, ApiInput, ApiMethod, ApiOutput } from '../common/contract/api';
import { dispatch } from '../service/dispatch';
import { Studio } from '../service/studio';
import { UserError } from '../common/user-error';
import type { DeviceChoice } from '../common/device';
import { inProcess, modelSpecFromArgument, type ModelPlacement } from './model-argument';
import { RESOURCES_DIR } from './paths';
import { missingWorkspaceError } from './workspace-argument';

export interface CliCore {
  readonly studio: Studio;
  /** Calls a contract method; a refusal is thrown as the error the user reads. */
  call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
  on<E extends ApiEvent>(event: E, listener: (payload: ApiEventPayload<E>) => void): void;
  /** Ctrl+C cancels the job: what it finished stays, as a cancel from the app leaves it. */
  cancelOnInterrupt(jobId: string, onCancel?: () => void): void;
}

export interface CoreOptions {
  workspace?: { path: string; create?: boolean };
  /** A --model argument; null loads the embedded default model; absent loads none. */
  model?: string | null;
  /** `--device`: where an in-process model runs; absent means auto. */
  device?: DeviceChoice;
  /** `--threads`: CPU threads of an in-process model; absent means the engine's default. */
  threads?: number;
  /** `--concurrency`: requests the model takes at once; absent means the workspace's, else the engine's default. */
  concurrency?: number;
  /** `--adapter`: a GGUF LoRA adapter over a .gguf --model. */
  adapter?: string;
}

/** Runs `work` against a fresh core with the workspace and model opened, then closes both. */
export async function withCore<T>(options: CoreOptions, work: (core: CliCore) => Promise<T>): Promise<T> {
  const studio = new Studio({ door: 'cli', resourcesDir: RESOURCES_DIR });
  const core: CliCore = {
    studio,
    async call(method, input) {
      const envelope = await dispatch(studio, method, input);
      if (!envelope.ok) throw new UserError(envelope.error.message, envelope.error.code);
      return envelope.value as ApiOutput<typeof method>;
    },
    on(event, listener) {
      studio.onEvent((name, payload) => {
        if ((name as ApiEvent) === event) listener(payload as unknown as ApiEventPayload<typeof event>);
      });
    },
    cancelOnInterrupt(jobId, onCancel) {
      process.once('SIGINT', () => {
        onCancel?.();
        void dispatch(studio, 'job.cancel', { jobId });
      });
    },
  };
  try {
    if (options.workspace) {
      const path = resolve(options.workspace.path);
      if (!options.workspace.create && !existsSync(path)) throw missingWorkspaceError(path);
      await core.call(options.workspace.create && !existsSync(path) ? 'workspace.create' : 'workspace.open', { path });
    }
    if (options.model !== undefined) await loadModel(core, options.model, { device: options.device, threads: options.threads, concurrency: options.concurrency, adapter: options.adapter });
    return await work(core);
  } finally {
    await studio.dispose();
  }
}

async function loadModel(core: CliCore, argument: string | null, placement: ModelPlacement): Promise<void> {
  if (argument) {
    await core.call('model.load', { spec: modelSpecFromArgument(argument, placement) });
    return;
  }
  if (placement.adapter) throw new UserError('--adapter applies a LoRA adapter over a .gguf model: pass that model as --model.');
  const { defaultModelPath } = await core.call('model.state', {});
  if (!defaultModelPath) throw new UserError('No model given and this installation has no embedded model: pass --model DIR|URL.', 'no-model');
  await core.call('model.load', { spec: { kind: 'onnx', path: defaultModelPath, ...inProcess(placement) } });
}
