// A world-model engine that talks to any server speaking /v1/chat/completions: vLLM,
// SGLang, the llama.cpp server (DESIGN.md "Model engines"). This is how a user moves the
// model to a bigger machine: the studio stays local and each sample is one HTTP stream.
import {
  emptyResult,
  EngineError,
  type EngineDescription,
  type GenerateRequest,
  type GenerateResult,
  type TokenEvent,
  type WorldModelEngine,
} from '../../common/engine';
import { approximateTokenCount } from './approximate-tokens';
import { chatCompletionBody, type ServerDialect } from './chat-request';
import { CompletionStream, StreamFailure } from './completion-stream';
import { DEFAULT_RETRY, retryDelayMs, sleep, type RetryPolicy } from './retry';
import { Semaphore } from './semaphore';
import { postStreaming } from './streaming-post';
import {
  API_KEY_ENV,
  droppedByServer,
  failureFromStatus,
  keptFailingError,
  networkReason,
  unknownModelError,
  unreachableError,
  type Failure,
  type ServerContext,
} from './server-errors';

/** Requests in flight when the user sets no limit: what a vLLM or SGLang server batches with ease. */
export const DEFAULT_CONCURRENCY = 16;

export interface OpenAiEngineOptions {
  /** The API root, e.g. "http://gpu-box:8000/v1". A bare "http://host:port" gets "/v1" added. */
  baseUrl: string;
  /** The served model name; when left out, load() picks the server's only model. */
  model?: string;
  /** Falls back to the WORLDLOOM_API_KEY environment variable. Kept in memory only. */
  apiKey?: string;
  /**
   * Requests in flight at once (default 16): what the user's server takes together. vLLM and
   * SGLang batch dozens continuously; a llama.cpp server takes as many as its --parallel slots.
   */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  /** Extra request fields for one server, e.g. { chat_template_kwargs: { enable_thinking: false } }. */
  extraBody?: Record<string, unknown>;
}

export interface TokenCount {
  count: number;
  /** True when the server has no tokenizer endpoint and the count is an estimate. */
  approximate: boolean;
}

interface ServedModel {
  id: string;
  max_model_len?: number;
  context_length?: number;
  /** llama.cpp's server answers "llamacpp" here. */
  owned_by?: string;
}

export class OpenAiCompatibleEngine implements WorldModelEngine {
  readonly baseUrl: string;
  /** Private so that serialising the engine (logs, IPC) can never leak the key. */
  readonly #apiKey: string | undefined;
  readonly #slots: Semaphore;
  readonly #retry: RetryPolicy;
  readonly #extraBody: Record<string, unknown>;
  readonly #inFlight = new Set<AbortController>();
  #model: string | undefined;
  #contextLength = 0;
  #hasTokenizeEndpoint: boolean | undefined;
  #dialect: ServerDialect = 'openai';
  #notes: string[] = [];

  constructor(options: OpenAiEngineOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.#model = options.model?.trim() || undefined;
    const envKey = globalThis.process?.env?.[API_KEY_ENV];
    this.#apiKey = options.apiKey?.trim() || envKey?.trim() || undefined;
    this.#slots = new Semaphore(options.concurrency ?? DEFAULT_CONCURRENCY);
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#extraBody = { ...options.extraBody };
  }

  /** Asks the server which models it serves: checks (or picks) the model and reads its context length. */
  async load(signal?: AbortSignal): Promise<EngineDescription> {
    const listed = await this.#listModels(signal ?? new AbortController().signal);
    if (typeof listed === 'string') {
      if (!this.#model) {
        throw new EngineError(
          `The model server at ${this.baseUrl} did not list its models (${listed}), so one cannot be picked for you. ` +
            'Enter the model name the server was started with.',
          'unknown-model',
        );
      }
      this.#notes = [`The server does not list its models (${listed}); context length unknown.`];
      return this.describe();
    }
    const ids = listed.map((m) => m.id);
    if (!this.#model) {
      if (listed.length !== 1) {
        throw new EngineError(
          listed.length === 0
            ? `The model server at ${this.baseUrl} serves no models yet. Wait until it has loaded one.`
            : `The model server at ${this.baseUrl} serves several models (${ids.join(', ')}). Choose one.`,
          'unknown-model',
        );
      }
      this.#model = listed[0]!.id;
    }
    const served = listed.find((m) => m.id === this.#model);
    if (!served) throw unknownModelError(this.#context(), '', ids);
    this.#contextLength = served.max_model_len ?? served.context_length ?? 0;
    this.#dialect = served.owned_by === 'llamacpp' ? 'llama.cpp' : 'openai';
    this.#notes = this.#contextLength ? [] : ['The server does not report the context length.'];
    return this.describe();
  }

  describe(): EngineDescription {
    const notes = [...this.#notes];
    if (this.#hasTokenizeEndpoint === false) notes.push('Token counts are approximate: the server has no /tokenize endpoint.');
    return {
      kind: 'openai',
      modelId: this.#model ?? '',
      device: this.baseUrl,
      contextLength: this.#contextLength,
      providers: [{ name: 'http', used: true, reason: `OpenAI-compatible server at ${this.baseUrl}` }],
      notes,
      // A server does not say whether its model reasons; assume it may, with the budget the public eval gives.
      recommendedSampling: { maxTokens: 32_768 },
      reasoning: { reasons: true, canDisable: true },
      concurrency: {
        requests: this.#slots.limit,
        how: `up to ${this.#slots.limit} requests in flight at once (set with --concurrency or in the model panel); the server batches them`,
      },
    };
  }

  /**
   * Token ids from the server's /tokenize endpoint (vLLM, SGLang, llama.cpp). Without
   * one, the ids are unknown: the array holds -1 placeholders, its length an estimate,
   * and describe() says so. countTokens() tells the two apart.
   */
  async tokenize(text: string): Promise<number[]> {
    const ids = await this.#serverTokenize(text);
    return ids ?? new Array<number>(approximateTokenCount(text)).fill(-1);
  }

  async countTokens(text: string): Promise<TokenCount> {
    const ids = await this.#serverTokenize(text);
    return ids ? { count: ids.length, approximate: false } : { count: approximateTokenCount(text), approximate: true };
  }

  async generate(
    requests: GenerateRequest[],
    onToken: (event: TokenEvent) => void,
    signal?: AbortSignal,
  ): Promise<GenerateResult[]> {
    if (!this.#model) await this.load(signal);
    // One controller for the batch: the caller's cancel, dispose(), or the first error that
    // dooms every request (bad key, dead server) stops all of them.
    const batch = new AbortController();
    const cancel = () => batch.abort(signal?.reason);
    signal?.addEventListener('abort', cancel, { once: true });
    if (signal?.aborted) cancel();
    this.#inFlight.add(batch);
    let fatal: EngineError | undefined;
    try {
      const results = await Promise.all(
        requests.map(async (request) => {
          let release: () => void;
          try {
            release = await this.#slots.acquire(batch.signal);
          } catch {
            return emptyResult(request.id, 'cancelled');
          }
          try {
            return await this.#generateOne(request, onToken, batch.signal);
          } catch (err) {
            fatal ??= err instanceof EngineError ? err : new EngineError(String(err), 'bad-response');
            batch.abort(fatal);
            return emptyResult(request.id, 'error');
          } finally {
            release();
          }
        }),
      );
      if (fatal) throw fatal;
      return results;
    } finally {
      signal?.removeEventListener('abort', cancel);
      this.#inFlight.delete(batch);
    }
  }

  async dispose(): Promise<void> {
    for (const batch of this.#inFlight) batch.abort(new Error('engine disposed'));
    this.#inFlight.clear();
  }

  /**
   * One request, retried while nothing has streamed yet. Once tokens have reached the
   * caller a retry would show them twice, so a later failure ends the request with
   * finishReason 'error' and keeps the text made so far.
   */
  async #generateOne(request: GenerateRequest, onToken: (e: TokenEvent) => void, signal: AbortSignal): Promise<GenerateResult> {
    const ctx = this.#context(request.sampling.maxTokens);
    let body = JSON.stringify(chatCompletionBody(request, this.#model!, this.#extraBody, this.#dialect));
    let budgetFitted = false;
    for (let attempt = 1; ; attempt++) {
      const stream = new CompletionStream(request, onToken, performance.now());
      let retry: { reason: string; after?: string | null; unreachable: boolean };
      // Only a request that got no answer at all means the server cannot be reached.
      let answered = false;
      try {
        const response = await postStreaming(`${this.baseUrl}/chat/completions`, this.#headers(), body, signal);
        answered = true;
        if (response.ok) {
          // Some servers and proxies answer with one JSON body even when asked to stream: read it whole.
          if (/application\/json/i.test(response.header('content-type') ?? '')) return stream.readWhole(await response.text());
          return await stream.read(response.body, signal);
        }
        const answer = await response.text().catch(() => '');
        // A reasoning budget (32,768 by default) may not fit beside a long prompt in a smaller
        // context: once, ask for what the context leaves, as the server itself reports it.
        const room = budgetFitted || response.status !== 400 ? null : roomLeft(answer);
        if (room !== null && room > 0 && room < request.sampling.maxTokens) {
          budgetFitted = true;
          body = JSON.stringify(chatCompletionBody({ ...request, sampling: { ...request.sampling, maxTokens: room } }, this.#model!, this.#extraBody, this.#dialect));
          attempt--;
          continue;
        }
        const failure = failureFromStatus(response.status, answer, ctx, response.header('retry-after'));
        retry = { ...(await this.#retryOrThrow(failure, signal)), unreachable: false };
      } catch (err) {
        if (err instanceof EngineError) throw err;
        if (signal.aborted) return stream.result('cancelled');
        if (stream.emitted) return stream.result('error', `The connection to ${this.baseUrl} broke mid-answer (${networkReason(err)}).`);
        if (err instanceof StreamFailure && !err.retryable) throw new EngineError(`The model server at ${this.baseUrl} ${err.message}.`, 'bad-response');
        if (err instanceof StreamFailure) {
          const failure = failureFromStatus(err.status, JSON.stringify({ message: err.message }), ctx);
          retry = { ...(await this.#retryOrThrow(failure, signal)), unreachable: false };
        } else {
          retry = { reason: networkReason(err), unreachable: !answered && !droppedByServer(err) };
        }
      }
      if (attempt >= this.#retry.attempts) {
        throw retry.unreachable ? unreachableError(ctx, retry.reason, attempt) : keptFailingError(ctx, retry.reason, attempt);
      }
      try {
        await sleep(retryDelayMs(this.#retry, attempt, retry.after), signal);
      } catch {
        return stream.result('cancelled');
      }
    }
  }

  /** A failure worth another try comes back as its reason; any other is thrown as the user's error. */
  async #retryOrThrow(failure: Failure, signal: AbortSignal): Promise<{ reason: string; after?: string | null }> {
    if (failure.retryable) return { reason: failure.reason, after: failure.retryAfter };
    if ('unknownModel' in failure) throw await this.#unknownModel(failure.serverMessage, signal);
    throw failure.error;
  }

  async #unknownModel(serverSaid: string, signal: AbortSignal): Promise<EngineError> {
    const listed = await this.#listModels(signal).catch((err: unknown) => (err as Error).message);
    return unknownModelError(this.#context(), serverSaid, typeof listed === 'string' ? listed : listed.map((m) => m.id));
  }

  /** The served models, or why they could not be listed. Network failures throw (after retries). */
  async #listModels(signal: AbortSignal): Promise<ServedModel[] | string> {
    const ctx = this.#context();
    for (let attempt = 1; ; attempt++) {
      let reason: string;
      let unreachable = false;
      let retryAfter: string | null = null;
      try {
        const response = await fetch(`${this.baseUrl}/models`, { headers: this.#headers(), signal });
        const text = await response.text();
        if (response.ok) {
          const data = (JSON.parse(text) as { data?: unknown }).data;
          if (!Array.isArray(data)) return 'the answer has no "data" list';
          return data.filter((m): m is ServedModel => typeof (m as ServedModel)?.id === 'string');
        }
        const failure = failureFromStatus(response.status, text, ctx, response.headers.get('retry-after'));
        if (!failure.retryable) {
          if ('unknownModel' in failure) return `GET ${this.baseUrl}/models answered ${response.status}`;
          throw failure.error;
        }
        reason = failure.reason;
        retryAfter = failure.retryAfter ?? null;
      } catch (err) {
        if (err instanceof EngineError || signal.aborted) throw err;
        if (err instanceof SyntaxError) return 'the answer is not JSON';
        reason = networkReason(err);
        unreachable = true;
      }
      if (attempt >= this.#retry.attempts) {
        throw unreachable ? unreachableError(ctx, reason, attempt) : keptFailingError(ctx, reason, attempt);
      }
      await sleep(retryDelayMs(this.#retry, attempt, retryAfter), signal);
    }
  }

  /** Token ids from the server, or null when it has no tokenizer endpoint. */
  async #serverTokenize(text: string): Promise<number[] | null> {
    if (this.#hasTokenizeEndpoint === false) return null;
    // vLLM, SGLang and llama.cpp serve /tokenize beside /v1, not under it. vLLM reads
    // `prompt`, llama.cpp `content`; each ignores the other's field.
    const url = `${this.baseUrl.replace(/\/v\d+$/, '')}/tokenize`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: this.#headers(),
        body: JSON.stringify({ model: this.#model, prompt: text, content: text, add_special_tokens: false, add_special: false }),
      });
    } catch (err) {
      throw unreachableError(this.#context(), networkReason(err), 1);
    }
    const body = await response.text().catch(() => '');
    if (response.status === 401 || response.status === 403) {
      const failure = failureFromStatus(response.status, body, this.#context());
      if ('error' in failure) throw failure.error;
    }
    const tokens = response.ok ? parseTokens(body) : null;
    // Only a server that has no such endpoint is remembered as such; a passing 5xx is not.
    if (tokens !== null) this.#hasTokenizeEndpoint = true;
    else if (response.ok || [404, 405, 501].includes(response.status)) this.#hasTokenizeEndpoint = false;
    return tokens;
  }

  #headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'text/event-stream, application/json',
      ...(this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {}),
    };
  }

  #context(maxTokens?: number): ServerContext {
    return {
      baseUrl: this.baseUrl,
      model: this.#model ?? '',
      hasApiKey: this.#apiKey !== undefined,
      maxTokens,
      contextLength: this.#contextLength || undefined,
    };
  }
}

/**
 * The completion budget a context-length refusal leaves: the context minus the prompt, read
 * from vLLM's ("maximum context length is C tokens … (P in the messages, …") or SGLang's
 * ("maximum context length of C tokens … P tokens from the input messages") message.
 */
export function roomLeft(answer: string): number | null {
  const vllm = /maximum context length is (\d+) tokens[\s\S]*?\((\d+) in the messages/.exec(answer);
  const sglang = /maximum context length of (\d+) tokens[\s\S]*?(\d+) tokens from the input/.exec(answer);
  const found = vllm ?? sglang;
  return found ? Number(found[1]) - Number(found[2]) : null;
}

function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new EngineError(`"${raw}" is not a URL. Enter the server's address, e.g. http://localhost:8000/v1.`, 'unreachable');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EngineError(`"${raw}" is not an http(s) URL. Enter the server's address, e.g. http://localhost:8000/v1.`, 'unreachable');
  }
  const path = url.pathname.replace(/\/+$/, '');
  // vLLM, SGLang and llama.cpp all serve the API under /v1; a bare host:port means that.
  url.pathname = path === '' ? '/v1' : path;
  return url.toString().replace(/\/+$/, '');
}

/** vLLM and SGLang answer `{tokens: [ids]}`; llama.cpp with pieces answers `{tokens: [{id, piece}]}`. */
function parseTokens(body: string): number[] | null {
  try {
    const tokens = (JSON.parse(body) as { tokens?: unknown }).tokens;
    if (!Array.isArray(tokens)) return null;
    const ids = tokens.map((t) => (typeof t === 'number' ? t : (t as { id?: unknown })?.id));
    return ids.every((id): id is number => typeof id === 'number') ? ids : null;
  } catch {
    return null;
  }
}
