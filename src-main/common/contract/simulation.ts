// The simulation part of the contract: which world model is loaded, the generation settings
// (the model's recommendation, the workspace's overrides, what is in force), simulating steps,
// and the exact prompt a step is simulated from.
import { z } from 'zod';
import { DEVICE_CHOICES } from '../device';
import { NodeRecord } from '../trajectory/model';
import { JobId, StepFailure } from './jobs';
import { method } from './method';

/** Where an in-process model runs (common/device.ts); absent means 'auto'. */
export const DeviceChoice = z.enum(DEVICE_CHOICES);
/** CPU threads for an in-process model; absent means the engine's default. */
const CpuThreads = z.number().int().min(1).max(1024);
/**
 * Requests the engine works on at once: a server's requests in flight, a llama.cpp context's
 * parallel sequences. Absent: the workspace's saved limit, else the engine's default.
 */
export const MAX_CONCURRENCY = 256;
export const Concurrency = z.number().int().min(1).max(MAX_CONCURRENCY);

export const ModelSpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('onnx'), path: z.string().min(1).max(4096), device: DeviceChoice.optional(), threads: CpuThreads.optional() }),
  /** A .gguf file (any part of a split model) run by llama.cpp in process. */
  z.object({
    kind: z.literal('gguf'),
    path: z.string().min(1).max(4096),
    device: DeviceChoice.optional(),
    threads: CpuThreads.optional(),
    /** Parallel sequences of the context: steps and samples that decode together. */
    concurrency: Concurrency.optional(),
    /** A GGUF LoRA adapter file applied over the model while it runs (engine/gguf/lora-adapter.ts). */
    adapter: z.string().min(1).max(4096).optional(),
  }),
  z.object({
    kind: z.literal('openai'),
    baseUrl: z.string().url().max(2048),
    model: z.string().max(500).optional(),
    /** Given once; the desktop app keeps it with the OS keychain (safeStorage), never in a workspace. */
    apiKey: z.string().max(4096).optional(),
    /** Requests in flight at once (default 16). */
    concurrency: Concurrency.optional(),
  }),
]);
export type ModelSpec = z.infer<typeof ModelSpec>;

/** The largest budget of new tokens a call may ask for: the reference model's whole context (256K). */
export const MAX_NEW_TOKENS = 262_144;

/**
 * Generation settings. No defaults here on purpose: what a field is when nobody set it comes
 * from the loaded model (simulation/generation-settings.ts), so every caller sends only what
 * the user chose and leaves the rest out.
 */
export const Sampling = z.object({
  /** 0 means greedy (which makes reasoning models loop; use it only to reproduce a run). */
  temperature: z.number().min(0).max(5),
  /** 0 means no top-k cut. */
  topK: z.number().int().min(0).max(10_000),
  topP: z.number().gt(0).max(1),
  /** New tokens per sample, reasoning included. */
  maxTokens: z.number().int().min(1).max(MAX_NEW_TOKENS),
  seed: z.number().int().min(0).max(2 ** 31 - 1),
  stop: z.array(z.string().min(1).max(200)).max(16),
  /** Subtracted once from every token already generated (OpenAI-style); 0 = off. */
  presencePenalty: z.number().min(-2).max(2),
  /** Multiplicative, as in generation_config.json; 1 = off. */
  repetitionPenalty: z.number().gt(0).max(2),
  /** Let a reasoning model think before it answers; false renders the template with enable_thinking=false. */
  thinking: z.boolean(),
});
export type Sampling = z.infer<typeof Sampling>;
export const SamplingOverrides = Sampling.partial();
export type SamplingOverrides = z.infer<typeof SamplingOverrides>;

export const ModelReasoning = z.object({
  /** The model thinks before it answers (in <think>…</think>). */
  reasons: z.boolean(),
  /** Thinking can be switched off through the chat template (enable_thinking). */
  canDisable: z.boolean(),
});

export const ModelState = z.object({
  /** What is loaded now, described by its engine; null when none is. */
  loaded: z
    .object({
      kind: z.enum(['onnx', 'gguf', 'openai']),
      modelId: z.string(),
      device: z.string(),
      contextLength: z.number(),
      memoryBytes: z.number().optional(),
      providers: z.array(z.object({ name: z.string(), used: z.boolean(), reason: z.string() })),
      notes: z.array(z.string()),
      source: z.string(),
      /** The GGUF LoRA adapter file applied over a .gguf model, when one is. */
      adapter: z.string().optional(),
      /** What the model itself recommends (its generation config; for a server, reasoning-model defaults). */
      recommendedSampling: SamplingOverrides,
      reasoning: ModelReasoning,
      /** Requests the engine takes at once, and how (engine.ts EngineDescription.concurrency). */
      concurrency: z.object({ requests: z.number().int().min(1), how: z.string() }).optional(),
    })
    .nullable(),
  /** The embedded default model, when this installation has one. */
  defaultModelPath: z.string().nullable(),
  /** CUDA runtime for onnxruntime-node: installable here, installed, or not applicable. */
  gpuRuntime: z.enum(['installed', 'not-installed', 'unsupported-platform']),
  loading: z.boolean(),
  /** GGUF models already on this machine in LM Studio's and Ollama's folders, to open without a download. */
  localGguf: z
    .array(z.object({ path: z.string(), name: z.string(), source: z.enum(['LM Studio', 'Ollama']), bytes: z.number() }))
    .optional(),
  /** GGUF LoRA adapters in the same folders (general.type "adapter"), with the architecture they adapt: offered in the adapter field. */
  localGgufAdapters: z
    .array(z.object({ path: z.string(), name: z.string(), source: z.enum(['LM Studio', 'Ollama']), bytes: z.number(), architecture: z.string() }))
    .optional(),
  /** LM Studio's and Ollama's folders that exist but could not be read, with why each is searched and the reason. */
  localGgufUnreadable: z
    .array(z.object({ source: z.enum(['LM Studio', 'Ollama']), folder: z.string(), why: z.string(), reason: z.string() }))
    .optional(),
});
export type ModelState = z.infer<typeof ModelState>;

/** Where each setting in force came from: the model's recommendation, the workspace, or Worldloom's fallback. */
export const SettingSource = z.enum(['model', 'workspace', 'fallback']);

export const GenerationSettings = z.object({
  /** The loaded model's recommendation; empty when no model is loaded. */
  model: SamplingOverrides,
  /** This workspace's remembered overrides (saved in the workspace file). */
  workspace: SamplingOverrides,
  /** What a call that sends no sampling of its own uses now. */
  effective: Sampling,
  sources: z.record(z.string(), SettingSource),
  /** The most new tokens a call may ask for with the loaded model (its context length, capped). */
  maxTokensLimit: z.number().int(),
  reasoning: ModelReasoning,
});
export type GenerationSettings = z.infer<typeof GenerationSettings>;

/**
 * A sample that ran out of tokens before its observation was complete. It is not stored as a
 * node: continue it (simulate.run with `continuation`, the same seed) or retry with a larger budget.
 */
export const IncompleteSample = z.object({
  sample: z.number().int(),
  seed: z.number().int(),
  /** reasoning: the think block was still open; no-observation: reasoning ended, nothing after it; observation: the answer was cut mid-way. */
  reason: z.enum(['reasoning', 'no-observation', 'observation']),
  /** e.g. "ran out of tokens while reasoning (32768 used)". */
  message: z.string(),
  /** New tokens this sample used, earlier continued parts included. */
  completionTokens: z.number().int(),
  /** Everything written so far, reasoning inline in <think> tags: pass it back as `continuation.text`. */
  text: z.string(),
  /** The reasoning parsed out of `text`, for display. */
  reasoning: z.string(),
  maxTokens: z.number().int(),
});
export type IncompleteSample = z.infer<typeof IncompleteSample>;

export const Continuation = z.object({
  /** An IncompleteSample's `text`. */
  text: z.string().min(1).max(8_000_000),
  /** Its `completionTokens`, so the stored node counts every token it took. */
  completionTokens: z.number().int().min(0).default(0),
});
export type Continuation = z.infer<typeof Continuation>;

export const PromptMessage = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });

export const ExactPrompt = z.object({
  /** The chat messages sent to the model. */
  messages: z.array(PromptMessage),
  /** Chat-template variables sent with them (e.g. enable_thinking: false). */
  templateKwargs: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  /** The text after the chat template, when the loaded engine can render it (in-process); else null. */
  rendered: z.string().nullable(),
  /** Why `rendered` is null, or which model's template rendered it. */
  renderNote: z.string(),
  /** Where the messages came from: built from the tree, or the imported benchmark prompt used as-is. */
  source: z.enum(['tree', 'imported']),
  promptHash: z.string(),
});
export type ExactPrompt = z.infer<typeof ExactPrompt>;

export const SimulateResult = z.object({
  nodes: z.array(NodeRecord),
  /** Samples that ran out of tokens before their observation; none of them became a node. */
  incomplete: z.array(IncompleteSample),
  cancelled: z.boolean(),
  tokensPerSecond: z.number(),
  device: z.string(),
  /** The settings in force for this run (the seed is the first sample's; sample i used seed + i). */
  sampling: Sampling,
  /** Ids of the returned samples that were already in the workspace with the same seed, action, prompt, model and settings: returned, not simulated again. */
  reused: z.array(z.string()).optional(),
});
export type SimulateResult = z.infer<typeof SimulateResult>;

export const simulationApi = {
  'model.state': method(z.object({}), ModelState),
  'model.load': method(z.object({ spec: ModelSpec }), ModelState),
  'model.unload': method(z.object({}), ModelState),
  /** Downloads onnxruntime's CUDA provider (Linux x64); progress arrives as job.progress events. */
  'model.installGpuRuntime': method(z.object({ jobId: JobId }), z.object({ log: z.string() })),
  /** The generation settings in force: model recommendation ← workspace overrides. */
  'sampling.get': method(z.object({}), GenerationSettings),
  /** What the simulate panel last ran with in this workspace (how many samples, which seed), so it opens as it was left. */
  'simulate.remembered': method(z.object({}), z.object({ samples: z.number().int().min(1), seed: z.number().int().min(0) })),
  /** Replaces the workspace's remembered overrides ({} forgets them all); needs an open workspace. */
  'sampling.setWorkspace': method(z.object({ overrides: SamplingOverrides }), GenerationSettings),
  /**
   * Simulates `action` after `nodeId`, K samples as one batch; tokens stream as simulate.token
   * events. `sampling` overrides the settings in force for this call only. With
   * `continuation`, one sample resumes an incomplete one (send the same seed).
   */
  'simulate.run': method(
    z.object({
      jobId: JobId,
      nodeId: z.string().min(1).max(200),
      action: z.string().min(1).max(1_000_000),
      samples: z.number().int().min(1).max(64).default(1),
      sampling: SamplingOverrides.default({}),
      continuation: Continuation.optional(),
    }),
    SimulateResult,
  ),
  /**
   * Several steps simulated again at once, each from its own parent with its own action (new
   * sibling samples), as many in flight as the model takes; stored in the order given. Without
   * a seed in `sampling`, one fresh seed for all of them.
   */
  'simulate.resample': method(
    z.object({
      jobId: JobId,
      nodeIds: z.array(z.string().min(1).max(200)).min(1).max(10_000),
      samples: z.number().int().min(1).max(64).default(1),
      sampling: SamplingOverrides.default({}),
    }),
    z.object({
      nodes: z.array(NodeRecord),
      incomplete: z.array(IncompleteSample.extend({ nodeId: z.string() })),
      failures: z.array(StepFailure),
      cancelled: z.boolean(),
      /** The seed the samples started from (sample i used seed + i). */
      seed: z.number().int(),
    }),
  ),
  /**
   * The exact prompt of a step: with `action`, the prompt simulating it after `nodeId` would
   * send now; without, the prompt that produced node `nodeId` (its recorded settings and
   * perturbation instruction included).
   */
  'simulate.prompt': method(
    z.object({ nodeId: z.string().min(1).max(200), action: z.string().min(1).max(1_000_000).optional(), sampling: SamplingOverrides.default({}) }),
    ExactPrompt,
  ),
} as const;
