// The loaded world model over an OpenAI-compatible API (`worldloom serve --openai`):
// `GET /v1/models` and `POST /v1/chat/completions`, streaming (SSE) or not, reasoning apart
// in `reasoning_content` as vLLM and SGLang send it with a reasoning parser. On 127.0.0.1,
// behind a key (`Authorization: Bearer KEY`). A malformed request gets an OpenAI-style error
// object with a message saying what to fix; nothing a client sends ends the server.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { ChatMessage, GenerateResult } from '../common/engine';
import type { SamplingOverrides } from '../common/contract/simulation';
import type { Studio } from '../service/studio';
import { engineRequestParts, generationParameters } from '../simulation/generation-parameters';
import { ReasoningSplitter } from './reasoning-split';
import { bearerOf, hostAllowed, LOOPBACK, secretMatches } from './loopback';
import { refuseOversizedPrompt } from '../simulation/prompt-size';

const MAX_BODY_BYTES = 32 * 1024 * 1024;

const TextPart = z.object({ type: z.string(), text: z.string().optional() });
const Message = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(TextPart), z.null()]).optional(),
});

export const ChatCompletionRequest = z.object({
  model: z.string().max(500).optional(),
  messages: z.array(Message).min(1, 'messages needs at least one message').max(10_000),
  max_tokens: z.number().int().min(1).nullable().optional(),
  max_completion_tokens: z.number().int().min(1).nullable().optional(),
  temperature: z.number().min(0).max(5).nullable().optional(),
  top_p: z.number().gt(0).max(1).nullable().optional(),
  /** vLLM's extension; -1 or 0 = no cut. */
  top_k: z.number().int().min(-1).max(10_000).nullable().optional(),
  seed: z.number().int().nullable().optional(),
  stop: z.union([z.string().min(1), z.array(z.string().min(1)).max(16)]).nullable().optional(),
  presence_penalty: z.number().min(-2).max(2).nullable().optional(),
  repetition_penalty: z.number().gt(0).max(2).nullable().optional(),
  n: z.number().int().min(1).max(16).nullable().optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
  chat_template_kwargs: z.object({ enable_thinking: z.boolean().optional() }).passthrough().nullable().optional(),
  /** vLLM's and SGLang's: resume the trailing assistant message instead of starting a new one. */
  continue_final_message: z.boolean().nullable().optional(),
  add_generation_prompt: z.boolean().nullable().optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

/** What a finished completion produced, for recording. */
export interface CompletedChat {
  request: ChatCompletionRequest;
  messages: ChatMessage[];
  results: GenerateResult[];
  sampling: SamplingOverrides;
  modelId: string;
  engine: string;
  userAgent: string | null;
}

export interface OpenAiApiOptions {
  studio: Studio;
  key?: string;
  port?: number;
  /** Called after every finished completion (e.g. to record it into a workspace). */
  onCompleted?: (chat: CompletedChat) => void | Promise<unknown>;
}

export interface RunningOpenAiApi {
  /** The base URL clients use, ending in /v1. */
  baseUrl: string;
  port: number;
  key: string;
  close(): Promise<void>;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export async function startOpenAiApi(options: OpenAiApiOptions): Promise<RunningOpenAiApi> {
  const key = options.key ?? `wl-${randomBytes(24).toString('base64url')}`;
  let port = 0;
  const http = createServer((req, res) => {
    // A client gone mid-answer makes writes fail; that ends its request, never the server.
    res.on('error', () => {});
    req.on('error', () => {});
    route(req, res).catch((err: unknown) => {
      const error = err instanceof ApiError ? err : new ApiError(500, `The request failed: ${err instanceof Error ? err.message : String(err)}`, 'server_error');
      if (!res.headersSent) sendJson(res, error.status, { error: { message: error.message, type: error.type, code: error.code, param: null } });
      else res.end();
    });
  });
  http.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host, port)) throw new ApiError(421, `Use http://127.0.0.1:${port}/v1.`);
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if (!secretMatches(key, bearerOf(req))) {
      throw new ApiError(401, 'Send the key `worldloom serve --openai` printed, as "Authorization: Bearer KEY" (api_key= in the OpenAI client).', 'authentication_error', 'invalid_api_key');
    }
    if (path === '/v1/models') {
      if (req.method !== 'GET') throw new ApiError(405, 'GET /v1/models lists the model.');
      const engine = options.studio.models.current;
      const data = engine ? [{ id: engine.describe().modelId, object: 'model', created: 0, owned_by: 'worldloom', max_model_len: engine.describe().contextLength }] : [];
      return sendJson(res, 200, { object: 'list', data });
    }
    if (path === '/v1/chat/completions') {
      if (req.method !== 'POST') throw new ApiError(405, 'POST a JSON chat completion request to /v1/chat/completions.');
      return completions(req, res);
    }
    throw new ApiError(404, `No route ${req.method} ${path}: this server has GET /v1/models and POST /v1/chat/completions.`, 'invalid_request_error', 'not_found');
  }

  async function completions(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (err) {
      throw new ApiError(400, `The request body is not JSON (${(err as Error).message}).`);
    }
    const parsed = ChatCompletionRequest.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ApiError(400, `${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    const request = parsed.data;
    const engine = options.studio.models.current;
    if (!engine) throw new ApiError(503, 'No world model is loaded: load one in the studio, or start serve with --model.', 'server_error', 'no_model');
    const chat = toChatMessages(request);
    // Continuing: the trailing assistant message is what the model already wrote (reasoning inline
    // in <think> tags, as Worldloom's own engine sends it); only the new text is answered.
    const continuation = request.continue_final_message && chat.at(-1)?.role === 'assistant' ? chat.at(-1)!.content : undefined;
    if (request.continue_final_message && continuation === undefined) throw new ApiError(400, 'continue_final_message needs the last message to be the assistant message to continue.');
    const messages = continuation === undefined ? chat : chat.slice(0, -1);
    // Refused from its length before anything tokenizes it: a 30 MB prompt would cost minutes
    // and gigabytes to count in tokens only to be refused then.
    try {
      refuseOversizedPrompt(chat, engine.describe().contextLength, "This request's prompt");
    } catch (err) {
      throw new ApiError(400, (err as Error).message, 'invalid_request_error', 'context_length_exceeded');
    }
    const overrides = samplingOf(request);
    let sampling;
    try {
      sampling = generationParameters(engine, options.studio.workspace).resolve(overrides);
    } catch (err) {
      throw new ApiError(400, err instanceof Error ? err.message : String(err));
    }
    const n = request.n ?? 1;
    const requests = Array.from({ length: n }, (_, i) => ({
      id: String(i),
      messages,
      ...engineRequestParts({ ...sampling, seed: (sampling.seed + i) & 0x7fffffff }),
      ...(continuation ? { continuation } : {}),
    }));
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const model = engine.describe().modelId;
    // A client that hangs up stops the generation, as Cancel does in the studio.
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const stream = request.stream === true;
    // A continued message's splitter starts where that message left off (inside its reasoning, or after).
    const splitters = requests.map(() => {
      const splitter = new ReasoningSplitter();
      if (continuation) splitter.push(continuation);
      return splitter;
    });
    if (stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
      for (let i = 0; i < n; i++) sendEvent(res, chunk(id, created, model, i, { role: 'assistant', content: '' }, null));
    }
    let results: GenerateResult[];
    try {
      results = await engine.generate(
        requests,
        (event) => {
          if (!stream) return;
          const index = Number(event.requestId);
          sendDelta(res, id, created, model, index, splitters[index]!.push(event.text));
        },
        abort.signal,
      );
    } catch (err) {
      // A prompt longer than the context, a template that fails: the request's fault, said as such.
      const message = err instanceof Error ? err.message : String(err);
      if (!stream) throw new ApiError(400, message);
      sendEvent(res, { error: { message, type: 'invalid_request_error' } });
      res.end('data: [DONE]\n\n');
      return;
    }
    if (abort.signal.aborted) return;
    const failed = results.find((r) => r.finishReason === 'error');
    if (failed && !stream) throw new ApiError(500, `The world model failed: ${failed.error ?? 'unknown error'}`, 'server_error');
    const usage = {
      prompt_tokens: results[0]?.promptTokens ?? 0,
      completion_tokens: results.reduce((s, r) => s + r.completionTokens, 0),
      total_tokens: (results[0]?.promptTokens ?? 0) + results.reduce((s, r) => s + r.completionTokens, 0),
    };
    // Recorded before the answer ends, so a client that reads the workspace next finds it there.
    try {
      const whole = continuation ? results.map((r) => ({ ...r, text: continuation + r.text })) : results;
      await options.onCompleted?.({ request, messages, results: whole, sampling: { ...sampling }, modelId: model, engine: engine.describe().kind, userAgent: req.headers['user-agent'] ?? null });
    } catch (err) {
      process.stderr.write(`worldloom: could not record a request: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    if (stream) {
      results.forEach((r, i) => {
        sendDelta(res, id, created, model, i, splitters[i]!.end());
        sendEvent(res, chunk(id, created, model, i, {}, finishReason(r)));
      });
      if (request.stream_options?.include_usage) sendEvent(res, { id, object: 'chat.completion.chunk', created, model, choices: [], usage });
      res.end('data: [DONE]\n\n');
    } else {
      const choices = results.map((r, i) => {
        const { reasoning, content } = continuation ? newPart(continuation, r.text) : ReasoningSplitter.split(r.text);
        return { index: i, message: { role: 'assistant', content, ...(reasoning.trim() ? { reasoning_content: reasoning } : {}) }, finish_reason: finishReason(r), logprobs: null };
      });
      sendJson(res, 200, { id, object: 'chat.completion', created, model, choices, usage });
    }
  }

  await new Promise<void>((ok, fail) => {
    http.once('error', fail);
    http.listen(options.port ?? 0, LOOPBACK, () => ok());
  });
  port = (http.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    key,
    close: () =>
      new Promise<void>((ok) => {
        http.closeAllConnections();
        http.close(() => ok());
      }),
  };
}

/** The chat as the engine takes it: developer messages are system messages, tool results are user turns, parts are joined. */
export function toChatMessages(request: ChatCompletionRequest): ChatMessage[] {
  return request.messages.map((m) => {
    const content = typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join('');
    const role = m.role === 'developer' ? 'system' : m.role === 'tool' ? 'user' : m.role;
    return { role, content };
  });
}

/** The request's sampling fields as overrides of the settings in force; what it leaves out comes from the model. */
export function samplingOf(request: ChatCompletionRequest): SamplingOverrides {
  const o: SamplingOverrides = {};
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens != null) o.maxTokens = maxTokens;
  if (request.temperature != null) o.temperature = request.temperature;
  if (request.top_p != null) o.topP = request.top_p;
  if (request.top_k != null) o.topK = Math.max(0, request.top_k);
  if (request.presence_penalty != null) o.presencePenalty = request.presence_penalty;
  if (request.repetition_penalty != null) o.repetitionPenalty = request.repetition_penalty;
  if (request.stop != null) o.stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (request.chat_template_kwargs?.enable_thinking != null) o.thinking = request.chat_template_kwargs.enable_thinking;
  // Like any server: a request without a seed samples afresh each time.
  o.seed = (request.seed ?? randomBytes(4).readUInt32LE(0)) & 0x7fffffff;
  return o;
}

/** What `added` contributes after `before`, split: a continued message answers only its new text. */
function newPart(before: string, added: string): { reasoning: string; content: string } {
  const old = ReasoningSplitter.split(before);
  const whole = ReasoningSplitter.split(before + added);
  return { reasoning: whole.reasoning.slice(old.reasoning.length), content: whole.content.slice(old.content.length) };
}

function finishReason(r: GenerateResult): string {
  return r.finishReason === 'length' ? 'length' : r.finishReason === 'error' ? 'error' : 'stop';
}

function chunk(id: string, created: number, model: string, index: number, delta: Record<string, unknown>, finish: string | null) {
  return { id, object: 'chat.completion.chunk', created, model, choices: [{ index, delta, finish_reason: finish, logprobs: null }] };
}

function sendDelta(res: ServerResponse, id: string, created: number, model: string, index: number, delta: { reasoning: string; content: string }): void {
  if (delta.reasoning) sendEvent(res, chunk(id, created, model, index, { reasoning_content: delta.reasoning }, null));
  if (delta.content) sendEvent(res, chunk(id, created, model, index, { content: delta.content }, null));
}

function sendEvent(res: ServerResponse, value: unknown): void {
  if (!res.writableEnded) res.write(`data: ${JSON.stringify(value)}\n\n`);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

async function readBody(req: IncomingMessage): Promise<string> {
  // A declared size over the limit is refused before a byte is read.
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw new ApiError(413, `The request body is over ${MAX_BODY_BYTES} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const piece of req) {
    size += (piece as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, `The request body is over ${MAX_BODY_BYTES} bytes.`);
    chunks.push(piece as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
