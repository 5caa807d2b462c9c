// The world model the studio simulates with: at most one engine at a time, loaded from a
// model folder (in-process ONNX), a .gguf file (in-process llama.cpp) or an OpenAI-compatible endpoint.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelSpec, ModelState } from '../common/contract/simulation';
import type { WorldModelEngine } from '../common/engine';
import { findLocalGgufModels } from '../engine/gguf/local-models';
import { OpenAiCompatibleEngine } from '../engine/openai/openai-engine';
import { GenerationParameters } from './generation-parameters';
import { gpuRuntimeStatus } from './gpu-runtime';

/** Where the embedded default model lives inside the installation. */
export function defaultModelPath(resourcesDir: string): string | null {
  const path = join(resourcesDir, 'models', 'worldloom-nano');
  return existsSync(join(path, 'genai_config.json')) ? path : null;
}

/** Keeps secrets such as API keys outside workspace files (the OS keychain in the desktop app). */
export interface SecretStore {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
}

export class ModelSession {
  private engine: WorldModelEngine | null = null;
  private source = '';
  private adapter: string | undefined;
  private loading = false;

  constructor(
    private readonly resourcesDir: string,
    private readonly secrets?: SecretStore,
  ) {}

  get current(): WorldModelEngine | null {
    return this.engine;
  }

  state(): ModelState {
    const d = this.engine?.describe();
    const local = findLocalGgufModels();
    return {
      loaded: d ? { ...d, recommendedSampling: new GenerationParameters(d).recommended, source: this.source, ...(this.adapter ? { adapter: this.adapter } : {}) } : null,
      defaultModelPath: defaultModelPath(this.resourcesDir),
      gpuRuntime: gpuRuntimeStatus(),
      loading: this.loading,
      localGguf: local.models,
      localGgufAdapters: local.adapters,
      localGgufUnreadable: local.unreadable,
    };
  }

  async load(spec: ModelSpec): Promise<ModelState> {
    this.loading = true;
    try {
      const next = await openEngine(spec, this.secrets);
      await this.engine?.dispose();
      this.engine = next;
      this.source = spec.kind === 'openai' ? spec.baseUrl : spec.path;
      this.adapter = spec.kind === 'gguf' ? spec.adapter : undefined;
    } finally {
      this.loading = false;
    }
    return this.state();
  }

  /** Loads the embedded default model if there is one and nothing is loaded yet. */
  async loadDefault(): Promise<void> {
    const path = defaultModelPath(this.resourcesDir);
    if (path && !this.engine) await this.load({ kind: 'onnx', path });
  }

  async unload(): Promise<ModelState> {
    await this.engine?.dispose();
    this.engine = null;
    this.source = '';
    this.adapter = undefined;
    return this.state();
  }
}

/**
 * How each kind of engine opens, by the kind its spec names: a new engine is its folder under
 * engine/, its spec in the contract (ModelSpec) and one line here; the type makes a kind without
 * an opener fail to compile. The in-process engines are imported when one is opened, so a door
 * that never loads a model (`worldloom ls`, say) never loads onnxruntime or llama.cpp.
 */
const ENGINES: { [K in ModelSpec['kind']]: (spec: Extract<ModelSpec, { kind: K }>, secrets?: SecretStore) => Promise<WorldModelEngine> } = {
  onnx: async (spec) => (await import('../engine/onnx/onnx-engine')).OnnxEngine.load(spec.path, { device: spec.device ?? 'auto', ...(spec.threads ? { intraOpThreads: spec.threads } : {}) }),
  gguf: async (spec) =>
    (await import('../engine/gguf/gguf-engine')).GgufEngine.load(spec.path, {
      device: spec.device ?? 'auto',
      ...(spec.threads ? { threads: spec.threads } : {}),
      ...(spec.concurrency ? { sequences: spec.concurrency } : {}),
      ...(spec.adapter ? { adapter: spec.adapter } : {}),
    }),
  openai: openAiEngine,
};

function openEngine(spec: ModelSpec, secrets?: SecretStore): Promise<WorldModelEngine> {
  const open = ENGINES[spec.kind] as (spec: ModelSpec, secrets?: SecretStore) => Promise<WorldModelEngine>;
  return open(spec, secrets);
}

async function openAiEngine(spec: Extract<ModelSpec, { kind: 'openai' }>, secrets?: SecretStore): Promise<WorldModelEngine> {
  const secretName = `api-key:${spec.baseUrl}`;
  const engine = new OpenAiCompatibleEngine({
    baseUrl: spec.baseUrl,
    model: spec.model,
    apiKey: spec.apiKey ?? secrets?.get(secretName),
    ...(spec.concurrency ? { concurrency: spec.concurrency } : {}),
  });
  await engine.load();
  // Kept only once the server has accepted it, so a mistyped key is never remembered.
  if (spec.apiKey) secrets?.set(secretName, spec.apiKey);
  return engine;
}
