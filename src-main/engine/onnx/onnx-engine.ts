// The in-process world-model engine (DESIGN.md "Model engines"): a decoder folder in the
// onnxruntime-genai layout run by onnxruntime-node: token ids in, or the builder's
// multimodal layout (an embedding model feeding `inputs_embeds`, 3-D positions). A generate
// call prefills each distinct prompt once (from the longest cached prefix), then decodes all
// requests together (rows of equal cache length share a batch).

import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ensureProbed } from '../model-probe';
import type { InferenceSession } from 'onnxruntime-node';
import {
  emptyResult,
  EngineError,
  type ChatMessage,
  type EngineDescription,
  type GenerateRequest,
  type GenerateResult,
  type TokenEvent,
  type WorldModelEngine,
} from '../../common/engine';
import { decodeBatch, type DecodeRequest } from './batch-decoder';
import { discoverCacheLayout, type CacheLayout } from './cache-layout';
import type { ChatPrompt, TemplateKwargs } from '../chat-template-prompt';
import { ChatTokenizer } from './chat-tokenizer';
import { DecoderStep } from './decoder-step';
import { EmbeddingModel } from './embedding-model';
import type { DeviceChoice } from '../../common/device';
import { openSession, type ProviderName, type ProviderReport } from './execution-providers';
import { readModelFolder, type ModelFolder } from './genai-config';
import { recommendedSampling } from './generation-config';
import { checkGraphAgainstConfig } from './graph-checks';
import { probeSharedKvBuffer } from './shared-buffer-probe';
import { PrefixCache } from './prefix-cache';
import { PrefillCancelled, prefillPrompt, type PreparedPrompt } from './prompt-prefill';
import { TextStream } from './text-stream';
import { modelIdentity } from './model-files';
import { quotaBoundThreads } from '../usable-cores';

export interface OnnxEngineOptions {
  /** Where the model runs (the CLI's --device, the model panel's choice). Default 'auto'. */
  device?: DeviceChoice;
  /** Execution providers to try, in order, instead of `device` (tests, benches); CPU is always the last resort. */
  providers?: readonly ProviderName[];
  /** Byte budget of the prefix cache. Default 512 MiB. */
  prefixCacheBytes?: number;
  /**
   * false turns off every form of prefix reuse: no prefix cache, and requests with the
   * same prompt each compute it. Only useful as a baseline for benchmarks.
   */
  prefixReuse?: boolean;
  /**
   * Longest slice of a prompt computed in one pass. Default 512, fewer for large vocabularies:
   * the builder's graphs return logits for every position of a pass.
   */
  prefillChunkTokens?: number;
  intraOpThreads?: number;
  /** Positions a key/value buffer updated in place grows by when full. Default 256. */
  kvBufferGrowth?: number;
}

const DEFAULT_PREFIX_CACHE_BYTES = 512 * 1024 * 1024;

export class OnnxEngine implements WorldModelEngine {
  private readonly prefixCache: PrefixCache | null;
  private readonly step: DecoderStep;
  private readonly eosTokenIds: ReadonlySet<number>;
  /** Generate calls run one after another: they share the session and the prefix cache. */
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;
  /** Decode steps update key/value buffers in place (the graph was checked to allow it). */
  private sharedKvBuffer = false;
  /** Entries in a row of logits. */
  private vocabularySize = 0;
  /** onnxruntime's intra-op threads where they were set (--threads, or a container's CPU quota); else its own count. */
  private cpuThreads: number | undefined;

  private constructor(
    private readonly model: ModelFolder,
    private readonly session: InferenceSession,
    private readonly layout: CacheLayout,
    private readonly tokenizer: ChatTokenizer,
    private readonly device: string,
    private readonly providerReports: ProviderReport[],
    private readonly options: OnnxEngineOptions,
    private readonly embedding: EmbeddingModel | null,
    private readonly reasoning: EngineDescription['reasoning'],
  ) {
    this.step = new DecoderStep(session, layout, model.config, embedding);
    this.eosTokenIds = new Set(model.config.eosTokenIds);
    const reuse = options.prefixReuse !== false && (options.prefixCacheBytes ?? DEFAULT_PREFIX_CACHE_BYTES) > 0;
    this.prefixCache = reuse ? new PrefixCache(layout, options.prefixCacheBytes ?? DEFAULT_PREFIX_CACHE_BYTES) : null;
  }

  /** Opens a model folder. Throws EngineError ('model-missing' or 'model-corrupt') with what to do. */
  static async load(folder: string, options: OnnxEngineOptions = {}): Promise<OnnxEngine> {
    const model = readModelFolder(folder);
    // A graph not opened before is opened once in a child process: what onnxruntime would abort on ends the child, not this process.
    for (const graph of [model.modelPath, ...(model.embedding ? [model.embedding.modelPath] : [])]) {
      await ensureProbed('onnx', graph, folderFiles(dirname(graph)), basename(graph));
    }
    const tokenizer = ChatTokenizer.load(model.tokenizerPath, model.tokenizerConfigPath);
    const settings = { device: options.device, providers: options.providers, intraOpThreads: options.intraOpThreads ?? quotaBoundThreads() };
    const opened = await openSession(model.modelPath, settings);
    let embedding: EmbeddingModel | null = null;
    try {
      if (model.embedding) {
        // The embedding model runs where the decoder runs.
        const embedder = await openSession(model.embedding.modelPath, { ...settings, device: undefined, providers: [opened.provider] });
        embedding = new EmbeddingModel(embedder.session, model.embedding.inputIds, model.embedding.output);
      }
      const layout = discoverCacheLayout(opened.session, model.config);
      if (layout.tokenInput === 'embeds' && !embedding) {
        throw new EngineError(
          `The decoder in ${model.folder} takes '${model.config.inputNames.inputsEmbeds}' but genai_config.json names no ` +
            'embedding model (model.embedding.filename); use the folder the model builder wrote, with its embedding model.',
          'model-corrupt',
        );
      }
      checkGraphAgainstConfig(opened.session, layout, model.config, {
        folder: model.folder,
        maxTokenId: tokenizer.maxTokenId,
        embeddingWidth: embedding?.hiddenSize,
      });
      const reasoning = await tokenizer.reasoning();
      const engine = new OnnxEngine(model, opened.session, layout, tokenizer, opened.device, opened.providers, options, embedding, reasoning);
      engine.cpuThreads = settings.intraOpThreads;
      engine.sharedKvBuffer = model.config.sharesKvBuffer && (await probeSharedKvBuffer(engine.step, layout, model.config.padTokenId));
      const logits = opened.session.outputMetadata.find((meta) => meta.name === model.config.logitsName);
      const width = logits?.isTensor ? logits.shape.at(-1) : undefined;
      engine.vocabularySize = typeof width === 'number' ? width : (model.config.declared.vocabSize ?? tokenizer.maxTokenId + 1);
      return engine;
    } catch (error) {
      await opened.session.release();
      await embedding?.release();
      await tokenizer.close();
      throw error;
    }
  }

  describe(): EngineDescription {
    const { layout } = this;
    const sequenceSlots = layout.slots.filter((slot) => slot.kind === 'sequence').length;
    const stateSlots = layout.slots.length - sequenceSlots;
    return {
      kind: 'onnx',
      modelId: this.model.modelId,
      name: basename(this.model.folder.replace(/[\\/]+$/, '')),
      identity: modelIdentity(this.model.folder, [this.model.modelPath, ...(this.model.embedding ? [this.model.embedding.modelPath] : [])]),
      device: this.device,
      contextLength: this.model.config.contextLength,
      memoryBytes: this.model.weightsBytes + (this.prefixCache?.bytes ?? 0),
      providers: this.providerReports,
      notes: [
        `${sequenceSlots} key/value cache tensors and ${stateSlots} conv/recurrent state tensors, ` +
          `${layout.bytesPerToken} cache bytes per token plus ${layout.stateBytesPerSequence} state bytes per sequence`,
        this.prefixCache
          ? `prefix cache: ${this.prefixCache.size} prompts, ${this.prefixCache.bytes} bytes`
          : 'prefix reuse off',
        // onnxruntime-node hands every output back in host memory, so caches cross the bus each step.
        this.sharedKvBuffer
          ? 'key/value buffers are updated in place; state tensors round-trip through host memory between steps'
          : 'cache tensors round-trip through host memory between steps',
        this.cpuThreads
          ? `onnxruntime on ${this.cpuThreads} CPU thread${this.cpuThreads === 1 ? '' : 's'}`
          : "onnxruntime's own CPU thread count (one per physical core)",
      ],
      recommendedSampling: recommendedSampling(this.model.config.samplingDefaults),
      reasoning: this.reasoning,
      // The graph batches the rows of one call (a step's K samples); calls take turns.
      concurrency: { requests: 1, how: 'one step at a time; the samples of a step decode as one batch' },
    };
  }

  /** The exact text the model reads for `messages`: the chat template applied, generation prompt included. */
  async renderPrompt(messages: ChatMessage[], templateKwargs?: TemplateKwargs): Promise<string> {
    return (await this.tokenizer.promptText(messages, { templateKwargs })).text;
  }

  async tokenize(text: string): Promise<number[]> {
    return this.tokenizer.encode(text);
  }

  generate(
    requests: GenerateRequest[],
    onToken: (event: TokenEvent) => void,
    signal?: AbortSignal,
  ): Promise<GenerateResult[]> {
    // K samples of one node carry the same conversation: render and tokenize it once.
    const rendered = new Map<string, Promise<ChatPrompt>>();
    const promptOf = (request: GenerateRequest): Promise<ChatPrompt> => {
      const key = JSON.stringify([request.messages, request.templateKwargs ?? null, request.continuation ?? null]);
      let prompt = rendered.get(key);
      if (!prompt) {
        const options = { templateKwargs: request.templateKwargs, continuation: request.continuation };
        prompt = this.tokenizer.prepare(request.messages, options).then(async (ready) => {
          // Snapshot points matter only where the prompt will be computed and kept.
          if (!this.prefixCache || this.prefixCache.has(ready.tokens)) return ready;
          return { ...ready, snapshots: await this.tokenizer.snapshotPoints(request.messages, ready.tokens, options) };
        });
        rendered.set(key, prompt);
      }
      return prompt;
    };
    const run = this.queue.then(() => this.generateNow(requests, promptOf, onToken, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Generates from prompt token ids as they are, without the chat template: how parity
   * checks against transformers and benchmarks feed the exact same prompt to both.
   */
  generateFromIds(
    requests: (Pick<GenerateRequest, 'id' | 'sampling'> & { promptIds: readonly number[] })[],
    onToken: (event: TokenEvent) => void,
    signal?: AbortSignal,
  ): Promise<GenerateResult[]> {
    const promptOf = async (_request: GenerateRequest, index: number): Promise<ChatPrompt> =>
      ({ tokens: [...requests[index]!.promptIds], snapshots: [], streamPrefix: '' });
    const asRequests = requests.map(({ id, sampling }) => ({ id, sampling, messages: [] }));
    const run = this.queue.then(() => this.generateNow(asRequests, promptOf, onToken, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.queue;
    this.prefixCache?.clear();
    await this.session.release();
    await this.embedding?.release();
    await this.tokenizer.close();
  }

  private async generateNow(
    requests: GenerateRequest[],
    promptOf: (request: GenerateRequest, index: number) => Promise<ChatPrompt>,
    onToken: (event: TokenEvent) => void,
    signal?: AbortSignal,
  ): Promise<GenerateResult[]> {
    if (this.disposed) throw new EngineError('The model was unloaded; load it again to simulate.', 'model-missing');
    const started = performance.now();
    const results: GenerateResult[] = new Array(requests.length);
    const fail = (index: number, finishReason: 'error' | 'cancelled', error?: string, promptTokens = 0): void => {
      results[index] = emptyResult(requests[index]!.id, finishReason, { error, promptTokens, totalMs: performance.now() - started });
    };

    // Prompts: one prefill per distinct prompt (unless reuse is off), shared by its requests.
    const prepared = new Map<string, Promise<PreparedPrompt>>();
    const firstUse = new Set<string>();
    const rows: { index: number; prompt: PreparedPrompt; cachedTokens: number; streamPrefix: string }[] = [];
    for (const [index, request] of requests.entries()) {
      let prompt: ChatPrompt;
      try {
        prompt = await promptOf(request, index);
      } catch (error) {
        fail(index, 'error', (error as Error).message);
        continue;
      }
      if (prompt.tokens.length >= this.model.config.contextLength) {
        fail(index, 'error', `The prompt has ${prompt.tokens.length} tokens but the model's context holds ` +
          `${this.model.config.contextLength}; shorten the history or the system prompt.`, prompt.tokens.length);
        continue;
      }
      const key = this.prefixCache ? prompt.tokens.join(',') : String(index);
      if (!prepared.has(key)) {
        prepared.set(key, prefillPrompt(prompt, this.step, this.layout, {
          chunkTokens: this.options.prefillChunkTokens ?? defaultChunkTokens(this.vocabularySize), prefixCache: this.prefixCache, signal,
        }));
      }
      try {
        const ready = await prepared.get(key)!;
        // The first request of a prompt computed it; later ones took all of it from that computation.
        const cachedTokens = firstUse.has(key) ? ready.tokens.length : ready.cachedTokens;
        firstUse.add(key);
        rows.push({ index, prompt: ready, cachedTokens, streamPrefix: prompt.streamPrefix });
      } catch (error) {
        if (error instanceof PrefillCancelled) fail(index, 'cancelled', undefined, prompt.tokens.length);
        else fail(index, 'error', `The model failed while reading the prompt: ${(error as Error).message}`, prompt.tokens.length);
      }
    }

    const decodeRequests: DecodeRequest[] = rows.map(({ index, prompt }) => ({
      id: requests[index]!.id,
      prompt,
      sampling: requests[index]!.sampling,
      stream: new TextStream((ids) => this.tokenizer.decode(ids), requests[index]!.sampling.stop),
    }));
    const decodeStarted = performance.now();
    // Output that starts inside the think block the prompt opened says so from its first event.
    for (const row of rows) if (row.streamPrefix) onToken({ requestId: requests[row.index]!.id, text: row.streamPrefix });
    try {
      const outcomes = await decodeBatch(decodeRequests, this.step, this.layout, {
        eosTokenIds: this.eosTokenIds,
        contextLength: this.model.config.contextLength,
        signal,
        onToken,
        sharedKvBuffer: this.sharedKvBuffer,
        bufferGrowth: this.options.kvBufferGrowth,
      });
      rows.forEach((row, r) => {
        const outcome = outcomes[r]!;
        results[row.index] = {
          id: requests[row.index]!.id,
          text: row.streamPrefix + decodeRequests[r]!.stream.fullText,
          finishReason: outcome.finishReason,
          promptTokens: row.prompt.tokens.length,
          completionTokens: outcome.completionTokens,
          cachedPromptTokens: row.cachedTokens,
          timings: {
            prefillMs: row.prompt.computeMs,
            decodeMs: outcome.finishedAt - decodeStarted,
            totalMs: outcome.finishedAt - started,
          },
        };
      });
    } catch (error) {
      const message = `The model failed while generating: ${(error as Error).message}`;
      rows.forEach((row) => fail(row.index, 'error', message, row.prompt.tokens.length));
    }
    return results;
  }
}

/** Logits of one prefill pass kept under 256 MiB (float32): 512 positions for small vocabularies, ~270 for Qwen3.5's 248,320. */
function defaultChunkTokens(vocabularySize: number): number {
  const LOGITS_BUDGET_BYTES = 256 * 1024 * 1024;
  return Math.max(16, Math.min(512, Math.floor(LOGITS_BUDGET_BYTES / (vocabularySize * 4))));
}

/** Every file of a model folder (graphs, external data, configs): a change to any of them probes the graph again. */
function folderFiles(folder: string): string[] {
  return readdirSync(folder).map((name) => join(folder, name)).filter((file) => statSync(file).isFile()).sort();
}
