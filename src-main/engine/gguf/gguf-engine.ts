// The in-process GGUF engine (DESIGN.md "Model engines"): llama.cpp through node-llama-cpp,
// for the files people who run the reference model locally already have. One context holds
// several sequences; each request, of one generate call or of several running at once (a
// fan-out of steps), takes a sequence as one is free (the one sharing the most of its prompt:
// sequence-pool.ts), evaluates what that sequence lacks, then decodes with every other request
// that holds a sequence (node-llama-cpp batches the sequences' steps into one decode).

import type { Llama, LlamaContext, LlamaContextSequence, LlamaModel } from 'node-llama-cpp';
import type { DeviceChoice } from '../../common/device';
import {
  emptyResult,
  EngineError,
  type ChatMessage,
  type EngineDescription,
  type FinishReason,
  type GenerateRequest,
  type GenerateResult,
  type SamplingParams,
  type TokenEvent,
  type WorldModelEngine,
} from '../../common/engine';
import type { ChatPrompt, TemplateKwargs } from '../chat-template-prompt';
import { recommendedSampling } from '../onnx/generation-config';
import { TextStream } from '../onnx/text-stream';
import { GgufChatPrompt } from './chat-prompt';
import { readGgufModel, type GgufModelFile } from './gguf-file';
import { openBackend, type LlamaBackend } from './llama-backend';
import { loadModelNamingCause } from './model-load';
import { ensureProbed } from '../model-probe';
import { adapterRefusal, listeningToLlama, readLoraAdapter, type LoraAdapterFile } from './lora-adapter';
import { asTokens, PrefillCancelled, SequencePool } from './sequence-pool';
import { readableByLlama, type PreparedFile } from './ollama-layout';
import { usableCores } from '../usable-cores';

export interface GgufEngineOptions {
  /** Where to run: common/device.ts. Default 'auto'. */
  device?: DeviceChoice;
  /** Sequences of the context: how many samples run in parallel (more wait their turn). Default 8. */
  sequences?: number;
  /** Tokens each sequence may hold. Default: the model's training context, at most 32,768. */
  contextLength?: number;
  /**
   * Key/value cache precision. 'f32' (the CPU default) keeps greedy tokens equal to
   * transformers' fp32 run: llama.cpp's F16 cache moves logits by up to ~4e-3, enough to flip a
   * near-tie. 'f16' (the GPU default) halves the cache and allows flash attention.
   */
  kvCache?: 'f32' | 'f16';
  /** false turns prefix reuse off (every prompt evaluated from scratch): a benchmark baseline. */
  prefixReuse?: boolean;
  /** CPU threads; default all but one of the machine's cores (see defaultThreads). */
  threads?: number;
  /** A GGUF LoRA adapter file applied over the model (lora-adapter.ts). */
  adapter?: string;
  /** Tokens one llama.cpp decode takes while reading a prompt (n_batch = n_ubatch): see PROMPT_BATCH. */
  batchSize?: number;
}

/**
 * llama.cpp's CPU threads wait for each other by spinning. Given every core, they fight the
 * studio's own work (the UI, the host, a browser) for the last one, and a descheduled thread
 * stalls the rest: on a busy 2-core machine a 986-token prompt took 138 s on 2 threads against
 * about 3 s on 1. One core is left to the rest of the app; the cores are counted with any CPU quota
 * of the container the app runs in (usable-cores.ts).
 */
export function defaultThreads(cores = usableCores()): number {
  return Math.max(1, cores - 1);
}

const DEFAULT_SEQUENCES = 8;
/**
 * Tokens one decode reads from a prompt (n_batch). node-llama-cpp makes llama.cpp's micro-batch
 * (n_ubatch) the same size: each micro-batch multiplies every weight matrix once, and a mixture of
 * experts' routed weights are read once per micro-batch, so a long prompt is read in fewer passes
 * over the weights: at Qwen3.5-35B-A3B's per-layer sizes on one CPU thread, 512 read 18% more
 * tokens per CPU second than 128, and 1,024 no more than 512 (docs/models.md, "Prompt reading"),
 * while a larger one holds more attention scratch (context × batch × heads floats without flash
 * attention, as on the CPU's f32 cache: 1 GB at 512 for 32K tokens of context).
 * `npm run bench -- gguf` measures the others against it.
 */
const PROMPT_BATCH = 512;
const DEFAULT_MAX_CONTEXT = 32_768;
/** Fewer tokens than this per sequence cannot hold a system prompt, a turn and an answer. */
const MIN_CONTEXT = 1024;

type PromptOf = (request: GenerateRequest, index: number) => Promise<ChatPrompt>;

export class GgufEngine implements WorldModelEngine {
  private readonly pool: SequencePool;
  /** Generate calls running now; dispose waits for them. */
  private readonly running = new Set<Promise<unknown>>();
  private disposed = false;

  private constructor(
    private readonly file: GgufModelFile,
    private readonly backend: LlamaBackend,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly prompt: GgufChatPrompt,
    private readonly reasoning: EngineDescription['reasoning'],
    private readonly kvCache: 'f32' | 'f16',
    private readonly adapter: LoraAdapterFile | null,
    options: GgufEngineOptions,
    private readonly layoutNotes: string[] = [],
  ) {
    this.pool = new SequencePool(context, options.prefixReuse !== false);
  }

  /** Opens a .gguf file (any part of a split model). Throws EngineError with what to do. */
  static async load(path: string, options: GgufEngineOptions = {}): Promise<GgufEngine> {
    // An Ollama Qwen3.5 export is read through a copy in llama.cpp's layout (ollama-layout.ts).
    let readable: PreparedFile;
    try {
      readable = readableByLlama(path);
    } catch (error) {
      throw new EngineError((error as Error).message, 'unknown-model');
    }
    const file = await readGgufModel(readable.path);
    const contextLength = Math.min(options.contextLength ?? DEFAULT_MAX_CONTEXT, file.trainContextLength || DEFAULT_MAX_CONTEXT);
    if (contextLength < MIN_CONTEXT) {
      throw new EngineError(
        `${file.name} holds ${contextLength} tokens of context${options.contextLength ? ' as asked' : ' (its training context)'}; ` +
          `a world-model step needs at least ${MIN_CONTEXT}. ${options.contextLength ? 'Ask for a longer context.' : 'Use a model with a longer context.'}`,
        'context-overflow',
      );
    }
    // A file not opened before is loaded once in a child process: what llama.cpp would abort on
    // ends the child, not this process. llama.cpp starts here meanwhile (it does not read the file).
    const opening = openBackend(options.device ?? 'auto');
    opening.catch(() => undefined);
    try {
      await ensureProbed('gguf', file.path, file.parts, file.name);
    } catch (error) {
      await opening.then((opened) => opened.llama.dispose(), () => undefined);
      throw error;
    }
    const backend = await opening;
    let model: LlamaModel | null = null;
    let context: LlamaContext | null = null;
    let prompt: GgufChatPrompt | null = null;
    try {
      model = await loadModel(backend.llama, file);
      const adapter = options.adapter ? await readLoraAdapter(options.adapter, file) : null;
      const kvCache = options.kvCache ?? (backend.gpu ? 'f16' : 'f32');
      const sequences = Math.max(1, options.sequences ?? DEFAULT_SEQUENCES);
      const llamaSaid: string[] = [];
      try {
        const loaded = model;
        context = await listeningToLlama(backend.llama, llamaSaid, () => loaded.createContext({
          contextSize: contextLength,
          sequences,
          flashAttention: kvCache === 'f16' ? 'auto' : false,
          experimentalKvCacheKeyType: kvCache === 'f32' ? 'F32' : 'F16',
          experimentalKvCacheValueType: kvCache === 'f32' ? 'F32' : 'F16',
          threads: options.threads ?? defaultThreads(),
          batchSize: Math.min(options.batchSize ?? PROMPT_BATCH, contextLength),
          ...(adapter ? { lora: { adapters: [{ filePath: adapter.path }] } } : {}),
        }));
      } catch (error) {
        if (adapter && /LoRA/i.test((error as Error).message)) throw adapterRefusal(adapter, file.name, (error as Error).message, llamaSaid);
        throw new EngineError(
          `${file.name}'s context (${sequences} sequences of ${contextLength} tokens, ${kvCache} cache) does not fit in memory on ` +
            `${backend.device}: ${(error as Error).message}. Ask for a shorter context or fewer parallel samples.`,
          'provider',
        );
      }
      const specialTokens: Record<string, string> = {};
      if (model.tokens.bosString) specialTokens.bos_token = model.tokens.bosString;
      if (model.tokens.eosString) specialTokens.eos_token = model.tokens.eosString;
      const llamaModel = model;
      prompt = new GgufChatPrompt(file.chatTemplate, { encode: (text) => llamaModel.tokenize(text, true) }, specialTokens, file.path);
      const reasoning = await prompt.reasoning();
      return new GgufEngine(file, backend, model, context, prompt, reasoning, kvCache, adapter, options, readable.notes);
    } catch (error) {
      await prompt?.close();
      await context?.dispose();
      await model?.dispose();
      await backend.llama.dispose();
      throw error;
    }
  }

  describe(): EngineDescription {
    const memory = this.context.memoryUsage;
    const offloaded = this.model.gpuLayers;
    const layers = this.file.offloadableLayers;
    return {
      kind: 'gguf',
      modelId: this.file.name,
      // With an adapter it is another model: its predictions are kept apart and its name says so.
      identity: this.adapter ? `${this.file.identity}+${this.adapter.identity}` : this.file.identity,
      ...(this.adapter ? { name: `${this.file.name} + ${this.adapter.name}` } : {}),
      device: this.backend.device,
      contextLength: this.context.contextSize,
      memoryBytes: this.model.size + memory.ram + memory.vram + this.pool.checkpointBytes,
      providers: this.backend.reports,
      notes: [
        `llama.cpp ${this.backend.llama.llamaCppRelease.release} (${this.backend.llama.buildType}), ${this.file.architecture}, ` +
          `${this.file.parts.length > 1 ? `${this.file.parts.length} files, ` : ''}${this.file.bytes} bytes on disk`,
        (this.backend.gpu ? `${offloaded} of ${layers} layers offloaded to ${this.backend.device}` : `all ${layers} layers on the CPU`) +
          `, ${this.context.idealThreads} CPU thread${this.context.idealThreads === 1 ? '' : 's'}`,
        `${this.pool.size} parallel sequences of ${this.context.contextSize} tokens; ${this.kvCache} key/value cache, ` +
          `flash attention ${this.context.flashAttention === true ? 'on' : this.context.flashAttention === false ? 'off' : 'auto'}`,
        `memory: weights ${this.model.size} bytes, context ${memory.ram} bytes RAM + ${memory.vram} bytes VRAM, ` +
          `prefix checkpoints ${this.pool.checkpointBytes} bytes`,
        `prompts read ${this.context.batchSize} tokens a decode`,
        ...this.layoutNotes,
        ...(this.adapter ? [`LoRA adapter ${this.adapter.name} (${this.adapter.weights} weights, alpha ${this.adapter.alpha}): ${this.adapter.path}`] : []),
      ],
      recommendedSampling: recommendedSampling(this.file.samplingDefaults),
      reasoning: this.reasoning,
      concurrency: {
        requests: this.pool.size,
        how: `${this.pool.size} parallel sequences of one llama.cpp context, decoded as one batch (set when the model is loaded: --concurrency)`,
      },
    };
  }

  async renderPrompt(messages: ChatMessage[], templateKwargs?: TemplateKwargs): Promise<string> {
    return (await this.prompt.promptText(messages, { templateKwargs })).text;
  }

  async tokenize(text: string): Promise<number[]> {
    return this.model.tokenize(text, true);
  }

  generate(requests: GenerateRequest[], onToken: (event: TokenEvent) => void, signal?: AbortSignal): Promise<GenerateResult[]> {
    // K samples of one node carry the same conversation: render and tokenize it once.
    const rendered = new Map<string, Promise<ChatPrompt>>();
    const promptOf: PromptOf = (request) => {
      const key = JSON.stringify([request.messages, request.templateKwargs ?? null, request.continuation ?? null]);
      let prompt = rendered.get(key);
      if (!prompt) {
        prompt = this.prompt.prepare(request.messages, { templateKwargs: request.templateKwargs, continuation: request.continuation });
        rendered.set(key, prompt);
      }
      return prompt;
    };
    return this.track(this.generateNow(requests, promptOf, onToken, signal));
  }

  /** Generates from prompt token ids as they are, without the chat template: parity checks and benchmarks. */
  generateFromIds(
    requests: (Pick<GenerateRequest, 'id' | 'sampling'> & { promptIds: readonly number[] })[],
    onToken: (event: TokenEvent) => void,
    signal?: AbortSignal,
  ): Promise<GenerateResult[]> {
    const promptOf: PromptOf = async (_request, index) => ({ tokens: [...requests[index]!.promptIds], snapshots: [], streamPrefix: '' });
    const asRequests = requests.map(({ id, sampling }) => ({ id, sampling, messages: [] }));
    return this.track(this.generateNow(asRequests, promptOf, onToken, signal));
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.allSettled([...this.running]);
    await this.prompt.close();
    await this.pool.dispose();
    await this.context.dispose();
    await this.model.dispose();
    await this.backend.llama.dispose();
  }

  private track<T>(run: Promise<T>): Promise<T> {
    this.running.add(run);
    void run.finally(() => this.running.delete(run)).catch(() => undefined);
    return run;
  }

  private async generateNow(
    requests: GenerateRequest[],
    promptOf: PromptOf,
    onToken: (event: TokenEvent) => void,
    signal?: AbortSignal,
  ): Promise<GenerateResult[]> {
    if (this.disposed) throw new EngineError('The model was unloaded; load it again to simulate.', 'model-missing');
    const started = performance.now();
    const results: GenerateResult[] = new Array(requests.length);
    const fail = (index: number, finishReason: 'error' | 'cancelled', error?: string, promptTokens = 0): void => {
      results[index] = emptyResult(requests[index]!.id, finishReason, { error, promptTokens, totalMs: performance.now() - started });
    };
    const ready: { index: number; prompt: ChatPrompt }[] = [];
    for (const [index, request] of requests.entries()) {
      let prompt: ChatPrompt;
      try {
        prompt = await promptOf(request, index);
      } catch (error) {
        fail(index, 'error', (error as Error).message);
        continue;
      }
      if (prompt.tokens.length === 0) fail(index, 'error', 'The prompt is empty.');
      else if (prompt.tokens.length >= this.context.contextSize) {
        fail(index, 'error', `The prompt has ${prompt.tokens.length} tokens but the model's context holds ` +
          `${this.context.contextSize}; shorten the history or the system prompt.`, prompt.tokens.length);
      } else ready.push({ index, prompt });
    }
    // Each request takes a sequence as one frees up (more requests than sequences wait their
    // turn); every request holding one decodes together, whichever call it came from.
    await Promise.all(ready.map(async ({ index, prompt }) => {
      let sequence: LlamaContextSequence;
      try {
        sequence = await this.pool.acquireWhenFree(prompt.tokens, signal);
      } catch {
        fail(index, 'cancelled', undefined, prompt.tokens.length);
        return;
      }
      try {
        results[index] = await this.runOne(requests[index]!, prompt, sequence, onToken, started, signal);
      } finally {
        this.pool.release(sequence);
      }
    }));
    return results;
  }

  private async runOne(
    request: GenerateRequest,
    prompt: ChatPrompt,
    sequence: LlamaContextSequence,
    onToken: (event: TokenEvent) => void,
    started: number,
    signal?: AbortSignal,
  ): Promise<GenerateResult> {
    const promptTokens = prompt.tokens.length;
    const result = (finishReason: FinishReason, text: string, completionTokens: number, cached: number, prefillMs: number, decodeMs: number, error?: string): GenerateResult => ({
      id: request.id, text, finishReason, ...(error ? { error } : {}), promptTokens, completionTokens, cachedPromptTokens: cached,
      timings: { prefillMs, decodeMs, totalMs: performance.now() - started },
    });
    let prefill;
    try {
      prefill = await this.pool.prefill(sequence, prompt.tokens, prompt.snapshots, signal);
    } catch (error) {
      if (error instanceof PrefillCancelled) return result('cancelled', '', 0, 0, 0, 0);
      return result('error', '', 0, 0, 0, 0, `The model failed while reading the prompt: ${(error as Error).message}`);
    }
    const sampling = request.sampling;
    const stream = new TextStream((ids) => this.model.detokenize(asTokens(ids), false), sampling.stop);
    // Output that starts inside the think block the prompt opened says so from its first event.
    if (prompt.streamPrefix) onToken({ requestId: request.id, text: prompt.streamPrefix });
    const decodeStarted = performance.now();
    const generated: number[] = [];
    let finishReason: FinishReason = 'length';
    let error: string | undefined;
    if (sampling.maxTokens <= 0) return result('length', prompt.streamPrefix, 0, prefill.reusedTokens, prefill.computeMs, 0);
    if (signal?.aborted) return result('cancelled', prompt.streamPrefix, 0, prefill.reusedTokens, prefill.computeMs, 0);
    try {
      const steps = sequence.evaluateWithMetadata(asTokens([prompt.tokens.at(-1)!]), { confidence: true }, {
        ...samplingOptions(sampling, () => generated),
        yieldEogToken: true,
      });
      for await (const { token, confidence } of steps) {
        // A NaN or infinite logit makes the chosen token's probability NaN (inf - inf, 0 / 0):
        // the weights or the backend are broken, and any token picked from them is noise.
        if (Number.isNaN(confidence)) {
          finishReason = 'error';
          error = `The model produced NaN or infinite logits after ${generated.length} tokens on ${this.backend.device}, so no ` +
            'token can be chosen. ' + (this.backend.gpu
            ? 'Try --device cpu (a GPU backend can overflow where the CPU does not); if the CPU fails too, '
            : 'Its weights or its conversion are broken: ') +
            'convert the model again (f32 to rule out f16 overflow) or download another copy. Nothing was stored.';
          break;
        }
        if (this.model.isEogToken(token)) {
          finishReason = 'eos';
          break;
        }
        generated.push(token);
        const text = stream.push(token);
        // Every token says so, with '' while a character is incomplete: callers count tokens by their events.
        onToken({ requestId: request.id, text, tokenId: token });
        if (stream.stopped) {
          finishReason = 'stop';
          break;
        }
        if (signal?.aborted) {
          finishReason = 'cancelled';
          break;
        }
        // Full (the next token would need a context shift, which drops the prompt's start): out of room.
        if (generated.length >= sampling.maxTokens || sequence.nextTokenIndex + 1 >= this.context.contextSize) {
          finishReason = 'length';
          break;
        }
      }
    } catch (caught) {
      finishReason = 'error';
      error = `The model failed while generating: ${(caught as Error).message}`;
    }
    const rest = stream.finish();
    if (rest && finishReason !== 'error') onToken({ requestId: request.id, text: rest });
    // A failed sample carries no text: nothing of it may be taken for an observation.
    if (finishReason === 'error') return result('error', '', 0, prefill.reusedTokens, prefill.computeMs, performance.now() - decodeStarted, error);
    return result(finishReason, prompt.streamPrefix + stream.fullText, generated.length, prefill.reusedTokens,
      prefill.computeMs, performance.now() - decodeStarted, error);
  }
}

function loadModel(llama: Llama, file: GgufModelFile): Promise<LlamaModel> {
  return loadModelNamingCause(llama, { path: file.path, name: file.name, architecture: file.architecture, bytes: file.bytes }, llama.gpu ? 'auto' : 0);
}

/** The request's sampling in node-llama-cpp's terms; temperature 0 is greedy there too. */
function samplingOptions(sampling: SamplingParams, generated: () => number[]) {
  const repetition = sampling.repetitionPenalty ?? 1;
  const presence = sampling.presencePenalty ?? 0;
  return {
    temperature: sampling.temperature,
    topK: sampling.topK > 0 ? sampling.topK : 0,
    topP: sampling.topP > 0 && sampling.topP < 1 ? sampling.topP : 1,
    seed: sampling.seed,
    ...(repetition !== 1 || presence !== 0
      ? { repeatPenalty: { punishTokens: () => asTokens(generated()), penalty: repetition, presencePenalty: presence } }
      : {}),
  };
}
