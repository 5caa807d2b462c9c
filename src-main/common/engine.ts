// The one interface every world-model engine implements (DESIGN.md "Model engines"):
// the in-process ONNX and GGUF (llama.cpp) engines and the OpenAI-compatible HTTP engine.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface SamplingParams {
  /** 0 means greedy. */
  temperature: number;
  topK: number;
  topP: number;
  maxTokens: number;
  seed: number;
  stop: string[];
  /** OpenAI-style presence penalty subtracted once from every token already generated; 0 or absent = off. */
  presencePenalty?: number;
  /** Multiplicative repetition penalty as in generation_config.json; 1 or absent = off. */
  repetitionPenalty?: number;
}

export interface GenerateRequest {
  /** Caller's id, echoed in stream events and results. */
  id: string;
  messages: ChatMessage[];
  sampling: SamplingParams;
  /**
   * Variables for the chat template, e.g. `{ enable_thinking: false }`. In-process they reach
   * the template; servers receive them as `chat_template_kwargs`.
   */
  templateKwargs?: Record<string, string | number | boolean>;
  /**
   * What the assistant already wrote in an earlier, truncated run of this request (reasoning
   * inline in <think> tags, as in GenerateResult.text). Generation resumes after it; the
   * result's text and stream hold only the new part.
   */
  continuation?: string;
}

export type FinishReason = 'stop' | 'length' | 'eos' | 'cancelled' | 'error';

export interface GenerateResult {
  id: string;
  /**
   * Everything the model wrote, reasoning inline as `<think>…</think>` whatever the engine: a
   * server's separate reasoning field is wrapped in tags, and in-process output whose prompt
   * already opened the think block (Qwen3.5's generation prompt) starts with `<think>`.
   * The token stream carries the same text.
   */
  text: string;
  finishReason: FinishReason;
  error?: string;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the prefix cache instead of being computed. */
  cachedPromptTokens: number;
  timings: { prefillMs: number; decodeMs: number; totalMs: number };
}

/**
 * The result of a request that produced no text: refused before it ran (an empty or
 * oversized prompt), cancelled, or failed. Every engine answers such a request this way.
 */
export function emptyResult(
  id: string,
  finishReason: FinishReason,
  details: { error?: string; promptTokens?: number; totalMs?: number } = {},
): GenerateResult {
  return {
    id,
    text: '',
    finishReason,
    ...(details.error !== undefined && { error: details.error }),
    promptTokens: details.promptTokens ?? 0,
    completionTokens: 0,
    cachedPromptTokens: 0,
    timings: { prefillMs: 0, decodeMs: 0, totalMs: details.totalMs ?? 0 },
  };
}

export interface TokenEvent {
  requestId: string;
  /** The text this token added (may be empty while a multi-byte character is incomplete). */
  text: string;
  tokenId?: number;
}

export interface EngineDescription {
  kind: 'onnx' | 'gguf' | 'openai';
  modelId: string;
  /**
   * What tells this model apart from another with the same `modelId` (another folder of the
   * same model type, other weights): a sample is reused only for the model that made it.
   */
  identity?: string;
  /**
   * What a person calls the model, where it differs from `modelId` (which for a model folder is
   * its architecture, qwen3_5_moe_text): the folder's name. Reports and A/Bs show it.
   */
  name?: string;
  /** e.g. "cpu", "cuda:0", "dml", "coreml", or the endpoint URL. */
  device: string;
  contextLength: number;
  /** Bytes used by weights and caches, where known. */
  memoryBytes?: number;
  /** For each execution provider tried, whether it is in use and why (not). */
  providers: { name: string; used: boolean; reason: string }[];
  notes: string[];
  /**
   * The sampling the model itself recommends (in-process: generation_config.json, else the
   * search section of genai_config.json; servers: what they report, else reasoning-model
   * defaults). Callers start from these and let the user override them.
   */
  recommendedSampling: Partial<SamplingParams>;
  /** Whether the model reasons before it answers, and whether its thinking can be switched off. */
  reasoning: { reasons: boolean; canDisable: boolean };
  /**
   * How many generation requests the engine works on at once (a server's limit the user set,
   * a llama.cpp context's sequences), and how, in words for the model panel. Absent: one
   * generate call at a time. Fan-outs (simulation/fan-out.ts) keep this many in flight.
   */
  concurrency?: { requests: number; how: string };
}

export interface WorldModelEngine {
  describe(): EngineDescription;
  tokenize(text: string): Promise<number[]>;
  /**
   * Generates all requests as one batch where the engine can; `onToken` streams each
   * request's text as it is produced. Aborting `signal` cancels within one decode step:
   * results come back with finishReason 'cancelled' and the text made so far.
   */
  generate(
    requests: GenerateRequest[],
    onToken: (event: TokenEvent) => void,
    signal?: AbortSignal,
  ): Promise<GenerateResult[]>;
  /**
   * The exact text the model reads for `messages` (chat template applied, generation prompt
   * included), for "show the exact prompt". Only engines that apply the template themselves
   * (in-process) can say; a server applies its own.
   */
  renderPrompt?(messages: ChatMessage[], templateKwargs?: Record<string, string | number | boolean>): Promise<string>;
  dispose(): Promise<void>;
}

/** An engine error the user can act on (missing model, dead endpoint, bad key…). */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly code:
      | 'model-missing'
      | 'model-corrupt'
      | 'unreachable'
      | 'unauthorized'
      | 'unknown-model'
      | 'context-overflow'
      | 'bad-response'
      | 'provider',
  ) {
    super(message);
  }
}
