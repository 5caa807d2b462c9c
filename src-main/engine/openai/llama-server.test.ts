// The OpenAI-compatible engine against llama.cpp's own llama-server, as its server README and
// source (tools/server: server-task.cpp, server-common.cpp) define the answers: a local
// 127.0.0.1 server here replies in exactly those shapes.
// - GET /v1/models: {object: "list", data: [{id, object: "model", owned_by: "llamacpp", meta: {n_ctx_train, …}}]}
// - streamed chat: "chat.completion.chunk" events; with --reasoning-format deepseek the thinking
//   arrives in delta.reasoning_content, with none inline in delta.content as <think>…</think>;
//   then a chunk with finish_reason ("stop", or "length") and an empty delta; with
//   stream_options.include_usage a last chunk with choices [] carrying usage (cached tokens in
//   prompt_tokens_details) and timings; then data: [DONE]
// - errors: {error: {code, message, type}} with that HTTP status before a stream starts, and as a
//   data: event inside a stream once it has.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError, type GenerateRequest } from '../../common/engine';
import { parseModelOutput } from '../../common/prompt/model-output';
import { OpenAiCompatibleEngine } from './openai-engine';

const MODEL = 'Qwen-AgentWorld-35B-A3B-Q4_K_M.gguf';
const REASONING = 'The file was written two turns ago, so cat prints it.';
const OBSERVATION = '**Environment Observation:**\nkiwi apple\nagent@sandbox:~$';

type Reply = (body: Record<string, unknown>, res: ServerResponse) => void;
const servers: Server[] = [];
const bodies: Record<string, unknown>[] = [];

async function llamaServer(reply: Reply): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({
          object: 'list',
          data: [{ id: MODEL, object: 'model', created: 1764200000, owned_by: 'llamacpp', meta: { vocab_type: 2, n_vocab: 248320, n_ctx_train: 262144, n_embd: 2048, n_params: 34660610688, size: 21158060032 } }],
        }));
      } else if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        const body = JSON.parse(raw) as Record<string, unknown>;
        bodies.push(body);
        reply(body, res);
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  bodies.length = 0;
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** One chat.completion.chunk as llama-server writes it. */
function chunk(choices: object[], extra: object = {}): string {
  return `data: ${JSON.stringify({ choices, created: 1764200001, id: 'chatcmpl-3kq9', model: MODEL, system_fingerprint: 'b7000-de3ff81', object: 'chat.completion.chunk', ...extra })}\n\n`;
}
const delta = (d: object) => chunk([{ finish_reason: null, index: 0, delta: d }]);
const USAGE = { completion_tokens: 23, prompt_tokens: 412, total_tokens: 435, prompt_tokens_details: { cached_tokens: 400 } };
const TIMINGS = { cache_n: 400, prompt_n: 12, prompt_ms: 30.9, prompt_per_token_ms: 2.6, prompt_per_second: 388.3, predicted_n: 23, predicted_ms: 410.2, predicted_per_token_ms: 17.8, predicted_per_second: 56.1 };

function stream(res: ServerResponse, pieces: string[], finish: 'stop' | 'length', includeUsage: boolean): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(delta({ role: 'assistant', content: null }));
  for (const piece of pieces) res.write(piece);
  res.write(chunk([{ finish_reason: finish, index: 0, delta: {} }], includeUsage ? {} : { timings: TIMINGS }));
  if (includeUsage) res.write(chunk([], { usage: USAGE, timings: TIMINGS }));
  res.end('data: [DONE]\n\n');
}

const words = (text: string) => text.split(/(?<= )/);
const request: GenerateRequest = {
  id: 'a',
  messages: [{ role: 'system', content: 'A shell.' }, { role: 'user', content: '### Turn 2\n**Action:**\ncat fruits.txt' }],
  sampling: { temperature: 0.6, topK: 20, topP: 0.95, maxTokens: 4096, seed: 3, stop: [] },
};
const engine = (url: string) => new OpenAiCompatibleEngine({ baseUrl: url, retry: { attempts: 1 } });

describe('OpenAiCompatibleEngine against llama-server', () => {
  it('loads from a bare host:port: the one model llama-server lists, with no context length in that list', async () => {
    const url = await llamaServer(() => {});
    const described = await engine(url).load();
    expect(described).toMatchObject({ kind: 'openai', modelId: MODEL, device: `${url}/v1`, contextLength: 0 });
    expect(described.notes).toContain('The server does not report the context length.');
  });

  for (const format of ['deepseek', 'none'] as const) {
    it(`reads --reasoning-format ${format} (${format === 'deepseek' ? 'reasoning_content' : '<think> inline in content'}), usage from the last chunk, and the finish`, async () => {
      const url = await llamaServer((body, res) => {
        const thinking = format === 'deepseek'
          ? words(REASONING).map((w) => delta({ reasoning_content: w }))
          : [delta({ content: '<think>\n' }), ...words(REASONING).map((w) => delta({ content: w })), delta({ content: '\n</think>\n\n' })];
        const answer = words(OBSERVATION).map((w) => delta({ content: w }));
        stream(res, [...thinking, ...answer], 'stop', (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true);
      });
      const e = engine(url);
      await e.load();
      let streamed = '';
      const [result] = await e.generate([request], (event) => (streamed += event.text));
      expect(bodies[0]).toMatchObject({ model: MODEL, stream: true, stream_options: { include_usage: true }, max_tokens: 4096, top_k: 20, seed: 3 });
      expect(result!.text).toBe(streamed);
      expect(result!.finishReason).toBe('eos');
      expect(parseModelOutput(result!.text)).toEqual({ observation: 'kiwi apple\nagent@sandbox:~$', reasoning: REASONING });
      expect(result).toMatchObject({ promptTokens: 412, completionTokens: 23, cachedPromptTokens: 400 });
    });
  }

  it("sends the repetition penalty as llama-server's repeat_penalty (it ignores vLLM's repetition_penalty), and nothing when it is off", async () => {
    const url = await llamaServer((_body, res) => stream(res, [delta({ content: 'ok' })], 'stop', true));
    const e = engine(url);
    await e.load();
    await e.generate([{ ...request, sampling: { ...request.sampling, repetitionPenalty: 1.05 } }], () => {});
    await e.generate([{ ...request, sampling: { ...request.sampling, repetitionPenalty: 1 } }], () => {});
    expect(bodies[0]).toMatchObject({ repeat_penalty: 1.05 });
    expect(bodies[0]).not.toHaveProperty('repetition_penalty');
    expect(bodies[1]).not.toHaveProperty('repeat_penalty');
  });

  it('reads finish_reason "length" inside the reasoning as out of tokens while reasoning', async () => {
    const url = await llamaServer((_body, res) => stream(res, words(REASONING).map((w) => delta({ reasoning_content: w })), 'length', true));
    const [result] = await engine(url).generate([{ ...request, sampling: { ...request.sampling, maxTokens: 11 } }], () => {});
    expect(result!.finishReason).toBe('length');
    expect(result!.text).toBe(`<think>${REASONING}`);
    expect(parseModelOutput(result!.text).observation).toBe('');
  });

  it('turns the error body of a refused request (a prompt past the context) into an error that quotes it', async () => {
    const url = await llamaServer((_body, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 9000, n_ctx: 8192 } }));
    });
    const outcome = await engine(url).generate([request], () => {}).then((results) => results[0]!, (error: unknown) => error);
    const message = outcome instanceof EngineError ? outcome.message : (outcome as { error?: string }).error ?? '';
    expect(message).toMatch(/exceeds the available context size/);
  });

  it('ends a stream that reports an error mid-answer as failed, keeping no observation', async () => {
    const url = await llamaServer((_body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(delta({ role: 'assistant', content: null }));
      res.write(delta({ reasoning_content: 'The file ' }));
      res.end(`data: ${JSON.stringify({ error: { code: 500, message: 'Failed to decode the batch: KV cache is full', type: 'server_error' } })}\n\n`);
    });
    const [result] = await engine(url).generate([request], () => {});
    expect(result!.finishReason).toBe('error');
    expect(result!.error).toMatch(/The server stopped with an error: Failed to decode the batch/);
  });
});
