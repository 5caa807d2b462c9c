// Test double: a real HTTP server on 127.0.0.1 that answers like vLLM's OpenAI server
// (same routes, same SSE chunks, same error bodies), so the engine's tests go through
// real sockets, real HTTP and real stream parsing. One word is one token: it honours
// max_tokens (finish_reason "length"), streams reasoning of any length in any of the
// fields servers use, drops reasoning when enable_thinking is false, and resumes a
// continued assistant message (continue_final_message). Not used by the app.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeServerOptions {
  models?: { id: string; max_model_len?: number }[];
  /** When set, requests without "Bearer <apiKey>" get vLLM's 401. */
  apiKey?: string;
  /** Answer this many chat requests with 503 before serving normally. */
  failFirst?: number;
  /** Answer every chat request whose messages this picks with 503 (a step a server keeps failing on). */
  failWhen?: (messages: { role: string; content: string }[]) => boolean;
  /** Pause between streamed chunks. */
  chunkDelayMs?: number;
  /** Send reasoning in `reasoning_content` deltas (SGLang, older vLLM); same as reasoningIn: 'reasoning_content'. */
  reasoningField?: boolean;
  /**
   * Where reasoning travels: `reasoning` (current vLLM with a reasoning parser),
   * `reasoning_content` (SGLang, older vLLM), or `content` inline in <think> tags (no parser).
   * Default: `content`, or `reasoning_content` with reasoningField.
   */
  reasoningIn?: 'reasoning' | 'reasoning_content' | 'content';
  /**
   * Wait this long before the first streamed chunk (headers go out at once), as a busy server
   * does; a function gives each request its own wait (so answers come back out of order).
   */
  firstChunkDelayMs?: number | ((body: { messages: { role: string; content: string }[]; seed?: number }) => number);
  /** Keep streaming until the client hangs up (for cancel tests). */
  endless?: boolean;
  /**
   * Answer `stream: true` without streaming, as some servers and proxies do: `json` = one whole
   * chat.completion body; `empty` = 200 and an event stream that carries no event.
   */
  noStream?: 'json' | 'empty';
  /** Drop the connection after this many streamed pieces (a crashed or restarted server). */
  breakAfter?: number;
  /** Serve /tokenize (default true). */
  tokenize?: boolean;
  /** Answers in place of `fakeReply`, given the request's messages (e.g. a judge's replies). */
  reply?: (messages: { role: string; content: string }[], attempt: number) => { reasoning: string; content: string };
}

export interface FakeServerStats {
  chatRequests: number;
  active: number;
  maxActive: number;
  bodies: Record<string, unknown>[];
  /** Streams the client closed before the server finished them. */
  hangUps: number;
}

export interface FakeServer {
  url: string;
  stats: FakeServerStats;
  close(): Promise<void>;
}

type ChatBody = {
  model: string;
  messages: { role: string; content: string }[];
  max_tokens: number;
  seed?: number;
  stop?: string[];
  chat_template_kwargs?: { enable_thinking?: boolean };
  continue_final_message?: boolean;
};

type Piece = { reasoning: boolean; text: string };

const DEFAULT_MODELS = [{ id: 'tiny-world', max_model_len: 4096 }];

/** What the fake model "predicts" for an action; tests compare against it. */
export function fakeReply(action: string, seed: number | undefined): { reasoning: string; content: string } {
  return {
    reasoning: `The agent ran ${action}.`,
    content: `<predicted_observation>\noutput of ${action} (seed ${seed ?? 'none'})\n</predicted_observation>`,
  };
}

export async function startFakeVllm(options: FakeServerOptions = {}): Promise<FakeServer> {
  const models = options.models ?? DEFAULT_MODELS;
  const stats: FakeServerStats = { chatRequests: 0, active: 0, maxActive: 0, bodies: [], hangUps: 0 };
  let toFail = options.failFirst ?? 0;

  const sendJson = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const vllmError = (res: ServerResponse, status: number, type: string, message: string) =>
    sendJson(res, status, { object: 'error', message, type, param: null, code: status });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendJson(res, 401, { error: 'Unauthorized' });
    }
    if (req.method === 'GET' && req.url === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: models.map((m) => ({ ...m, object: 'model', owned_by: 'vllm' })) });
    }
    const body = JSON.parse(await readBody(req)) as ChatBody & { prompt?: string };
    if (req.method === 'POST' && req.url === '/tokenize' && options.tokenize !== false) {
      const tokens = (body.prompt ?? '').split(/\s+/).filter(Boolean).map((w) => w.length);
      return sendJson(res, 200, { count: tokens.length, max_model_len: 4096, tokens, token_strs: null });
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      return sendJson(res, 404, { detail: 'Not Found' });
    }
    stats.chatRequests++;
    stats.bodies.push(body as unknown as Record<string, unknown>);
    if (toFail > 0 || options.failWhen?.(body.messages)) {
      if (toFail > 0) toFail--;
      res.setHeader('retry-after', '0');
      return vllmError(res, 503, 'ServiceUnavailableError', 'The server is busy.');
    }
    const model = models.find((m) => m.id === body.model);
    if (!model) return vllmError(res, 404, 'NotFoundError', `The model \`${body.model}\` does not exist.`);
    const promptLength = body.messages.reduce((n, m) => n + m.content.length, 0);
    const limit = model.max_model_len ?? 4096;
    if (promptLength + body.max_tokens > limit) {
      return vllmError(
        res,
        400,
        'BadRequestError',
        `This model's maximum context length is ${limit} tokens. However, you requested ${promptLength + body.max_tokens} tokens ` +
          `(${promptLength} in the messages, ${body.max_tokens} in the completion). Please reduce the length of the messages or completion.`,
      );
    }
    if (options.noStream) return whole(res, body, model.id, options.noStream);
    await stream(res, body, model.id);
  };

  const whole = (res: ServerResponse, body: ChatBody, model: string, how: 'json' | 'empty') => {
    if (how === 'empty') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.end();
    }
    const action = body.messages[body.messages.length - 1]!.content.split('**Action:**\n').pop()!;
    const reply = options.reply ? options.reply(body.messages, stats.chatRequests) : fakeReply(action, body.seed);
    const message = options.reasoningField ? { role: 'assistant', reasoning_content: reply.reasoning, content: reply.content } : { role: 'assistant', content: `<think>${reply.reasoning}</think>${reply.content}` };
    const completion = words(reply.reasoning).length + words(reply.content).length;
    sendJson(res, 200, {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, message, finish_reason: 'stop', stop_reason: null }],
      usage: { prompt_tokens: 42, completion_tokens: completion, total_tokens: 42 + completion },
    });
  };

  const stream = async (res: ServerResponse, body: ChatBody, model: string) => {
    stats.active++;
    stats.maxActive = Math.max(stats.maxActive, stats.active);
    let open = true;
    res.on('close', () => {
      if (!res.writableFinished) stats.hangUps++;
      open = false;
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = async (choice: Record<string, unknown> | null, usage?: Record<string, unknown>) => {
      const chunk = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model, choices: choice ? [{ index: 0, logprobs: null, ...choice }] : [], ...(usage ? { usage } : {}) };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (options.chunkDelayMs) await new Promise((r) => setTimeout(r, options.chunkDelayMs));
    };
    try {
      const continuing = body.continue_final_message === true && body.messages[body.messages.length - 1]?.role === 'assistant';
      const asked = continuing ? body.messages.slice(0, -1) : body.messages;
      const action = asked[asked.length - 1]!.content.split('**Action:**\n').pop()!;
      const reply = options.reply ? options.reply(asked, stats.chatRequests) : fakeReply(action, body.seed);
      const stopAt = body.stop?.find((s) => reply.content.includes(s));
      const content = stopAt ? reply.content.slice(0, reply.content.indexOf(stopAt)) : reply.content;
      const thinking = body.chat_template_kwargs?.enable_thinking !== false;
      const all: Piece[] = [
        ...(thinking ? words(reply.reasoning).map((text) => ({ reasoning: true, text })) : []),
        ...words(content).map((text) => ({ reasoning: false, text })),
      ];
      // A continued message resumes after the words it already holds.
      const done = continuing ? words(body.messages[body.messages.length - 1]!.content.replace(/<\/?think>/g, ' ')).length : 0;
      const pieces = all.slice(done);
      const where = options.reasoningIn ?? (options.reasoningField ? 'reasoning_content' : 'content');
      const wait = typeof options.firstChunkDelayMs === 'function' ? options.firstChunkDelayMs(body) : options.firstChunkDelayMs;
      if (wait) await new Promise((r) => setTimeout(r, wait));
      await send({ delta: { role: 'assistant', content: '' }, finish_reason: null });
      let completionTokens = 0;
      let inReasoning = done > 0 && all[done - 1]!.reasoning;
      const delta = (piece: Piece): Record<string, string> => {
        if (where !== 'content') return piece.reasoning ? { [where]: piece.text } : { content: piece.text };
        // Inline: the model writes the tags itself, as a server without a reasoning parser passes them on.
        let text = piece.text;
        if (piece.reasoning && !inReasoning) text = `<think>${text}`;
        if (!piece.reasoning && inReasoning) text = `</think>${text}`;
        inReasoning = piece.reasoning;
        return { content: text };
      };
      let finish: 'stop' | 'length' = 'stop';
      for (let i = 0; open && (i < pieces.length || options.endless); i++) {
        if (i === options.breakAfter) return void res.destroy();
        if (completionTokens >= body.max_tokens) {
          finish = 'length';
          break;
        }
        await send({ delta: delta(pieces[i % pieces.length]!), finish_reason: null });
        completionTokens++;
      }
      if (!open) return;
      if (finish === 'stop' && where === 'content' && inReasoning) await send({ delta: { content: '</think>' }, finish_reason: null });
      await send({ delta: { content: '' }, finish_reason: finish, stop_reason: finish === 'stop' ? (stopAt ?? null) : null });
      await send(null, { prompt_tokens: 42, completion_tokens: completionTokens, total_tokens: 42 + completionTokens, prompt_tokens_details: { cached_tokens: 16 } });
      res.end('data: [DONE]\n\n');
    } finally {
      stats.active--;
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) sendJson(res, 500, { object: 'error', message: err.message, code: 500 });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: bound once by us, then released. */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Splits text into word-sized stream pieces that join back to exactly the text. */
function words(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data || '{}'));
    req.on('error', reject);
  });
}
