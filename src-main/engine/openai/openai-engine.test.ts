import { afterEach, describe, expect, it } from 'vitest';
import { EngineError, type GenerateRequest, type SamplingParams, type TokenEvent } from '../../common/engine';
import { buildWorldModelMessages } from '../../common/prompt/world-model-messages';
import { parseModelOutput } from '../../common/prompt/model-output';
import { deadPort, fakeReply, startFakeVllm, type FakeServer, type FakeServerOptions } from '../../testing/fake-vllm-server';
import { OpenAiCompatibleEngine, type OpenAiEngineOptions } from './openai-engine';

const servers: FakeServer[] = [];
async function server(options: FakeServerOptions = {}): Promise<FakeServer> {
  const s = await startFakeVllm(options);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const FAST_RETRY = { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 };
function engine(url: string, options: Partial<OpenAiEngineOptions> = {}): OpenAiCompatibleEngine {
  return new OpenAiCompatibleEngine({ baseUrl: url, model: 'tiny-world', retry: FAST_RETRY, ...options });
}

const SAMPLING: SamplingParams = { temperature: 0.6, topK: 20, topP: 0.95, maxTokens: 100, seed: 0, stop: [] };
function request(id: string, action: string, seed = 7): GenerateRequest {
  return {
    id,
    messages: buildWorldModelMessages({ systemPrompt: 'You are a Linux terminal.', history: [{ action: 'pwd', observation: '/root' }], action }),
    sampling: { ...SAMPLING, seed },
  };
}

async function engineError(promise: Promise<unknown>): Promise<EngineError> {
  const err = await promise.then(
    () => {
      throw new Error('expected an EngineError');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngineError);
  return err as EngineError;
}

describe('OpenAiCompatibleEngine against a vLLM-like server', () => {
  it('loads: picks the only model, reads its context length, names the endpoint as device', async () => {
    const s = await server({ models: [{ id: 'agentworld-35b', max_model_len: 262144 }] });
    const e = new OpenAiCompatibleEngine({ baseUrl: s.url.replace('/v1', '') });
    const described = await e.load();
    expect(described).toMatchObject({ kind: 'openai', modelId: 'agentworld-35b', device: s.url, contextLength: 262144 });
  });

  it('streams tokens, wraps reasoning_content in <think>, and reports usage and finish reason', async () => {
    const s = await server({ reasoningField: true });
    const events: TokenEvent[] = [];
    const [result] = await engine(s.url).generate([request('a', 'ls -la')], (e) => events.push(e));
    const expected = fakeReply('ls -la', 7);
    expect(events.length).toBeGreaterThan(5);
    expect(events.every((e) => e.requestId === 'a')).toBe(true);
    expect(events.map((e) => e.text).join('')).toBe(result!.text);
    expect(result!.text).toBe(`<think>${expected.reasoning}</think>${expected.content}`);
    expect(parseModelOutput(result!.text)).toEqual({ observation: 'output of ls -la (seed 7)', reasoning: expected.reasoning });
    expect(result).toMatchObject({ finishReason: 'eos', promptTokens: 42, completionTokens: events.length, cachedPromptTokens: 16 });
    expect(result!.timings.totalMs).toBeGreaterThanOrEqual(result!.timings.prefillMs);
  });

  it('reads a whole JSON answer from a server that does not stream, reasoning field or inline, the same as a stream', async () => {
    const expected = fakeReply('ls -la', 7);
    for (const reasoningField of [true, false]) {
      const s = await server({ noStream: 'json', reasoningField });
      const events: TokenEvent[] = [];
      const [result] = await engine(s.url).generate([request('a', 'ls -la')], (e) => events.push(e));
      expect(result!.text).toBe(`<think>${expected.reasoning}</think>${expected.content}`);
      expect(events.map((e) => e.text).join('')).toBe(result!.text);
      expect(result).toMatchObject({ finishReason: 'eos', promptTokens: 42 });
      expect(result!.completionTokens).toBeGreaterThan(5);
      expect(s.stats.chatRequests).toBe(1);
    }
  });

  it('says a server that answers 200 with no stream events does not stream, without blaming load or retrying', async () => {
    const s = await server({ noStream: 'empty' });
    const err = await engineError(engine(s.url).generate([request('a', 'ls')], () => {}));
    expect(err.message).toMatch(/sent no stream events: it does not stream chat completions/);
    expect(err.message).not.toMatch(/overloaded|closed the stream|\b502\b/);
    expect(s.stats.chatRequests).toBe(1);
  });

  it('passes sampling parameters through, top_k as an extra field, and inline <think> tags as they are', async () => {
    const s = await server();
    const req = request('a', 'echo hi', 123);
    req.sampling = { temperature: 0.3, topK: 20, topP: 0.8, maxTokens: 64, seed: 123, stop: ['\n</predicted_observation>'] };
    const [result] = await engine(s.url, { extraBody: { chat_template_kwargs: { enable_thinking: true } } }).generate([req], () => {});
    expect(s.stats.bodies[0]).toMatchObject({
      model: 'tiny-world',
      stream: true,
      temperature: 0.3,
      top_k: 20,
      top_p: 0.8,
      max_tokens: 64,
      seed: 123,
      stop: ['\n</predicted_observation>'],
      chat_template_kwargs: { enable_thinking: true },
      messages: req.messages,
    });
    expect(result!.finishReason).toBe('stop');
    expect(parseModelOutput(result!.text)).toEqual({ observation: 'output of echo hi (seed 123)', reasoning: 'The agent ran echo hi.' });
  });

  it('sends a batch concurrently but never more requests than the limit', async () => {
    const s = await server({ chunkDelayMs: 5 });
    const requests = Array.from({ length: 6 }, (_, i) => request(`r${i}`, 'date', i));
    const results = await engine(s.url, { concurrency: 2 }).generate(requests, () => {});
    expect(s.stats.maxActive).toBe(2);
    expect(results.map((r) => r.id)).toEqual(requests.map((r) => r.id));
    expect(results.map((r) => parseModelOutput(r.text).observation)).toEqual(requests.map((_, i) => `output of date (seed ${i})`));
  });

  it('retries after a 503 and then succeeds', async () => {
    const s = await server({ failFirst: 1 });
    const [result] = await engine(s.url).generate([request('a', 'uptime')], () => {});
    expect(s.stats.chatRequests).toBe(2);
    expect(result!.finishReason).toBe('eos');
  });

  it('says the server kept failing when 503s outlast the retries', async () => {
    const s = await server({ failFirst: 10 });
    const err = await engineError(engine(s.url).generate([request('a', 'uptime')], () => {}));
    expect(s.stats.chatRequests).toBe(FAST_RETRY.attempts);
    expect(err.code).toBe('bad-response');
    expect(err.message).toMatch(/kept failing after 3 tries.*503 The server is busy/);
  });

  it('explains a 401: missing key, then wrong key, and names the environment variable; the env key works', async () => {
    const s = await server({ apiKey: 'sesame' });
    const missing = await engineError(engine(s.url).generate([request('a', 'ls')], () => {}));
    expect(missing.code).toBe('unauthorized');
    expect(missing.message).toMatch(/no API key was sent.*WORLDLOOM_API_KEY/);
    const wrong = await engineError(engine(s.url, { apiKey: 'guess' }).generate([request('a', 'ls')], () => {}));
    expect(wrong.message).toMatch(/API key was not accepted.*WORLDLOOM_API_KEY/);
    expect(JSON.stringify(engine(s.url, { apiKey: 'guess' }))).not.toContain('guess');

    const before = process.env.WORLDLOOM_API_KEY;
    process.env.WORLDLOOM_API_KEY = 'sesame';
    try {
      const [result] = await engine(s.url).generate([request('a', 'ls')], () => {});
      expect(result!.finishReason).toBe('eos');
    } finally {
      if (before === undefined) delete process.env.WORLDLOOM_API_KEY;
      else process.env.WORLDLOOM_API_KEY = before;
    }
  });

  it('names an unknown model and lists the ones the server has', async () => {
    const s = await server({ models: [{ id: 'world-a' }, { id: 'world-b' }] });
    const err = await engineError(engine(s.url, { model: 'nope' }).generate([request('a', 'ls')], () => {}));
    expect(err.code).toBe('unknown-model');
    expect(err.message).toMatch(/no model named "nope".*does not exist.*It serves: world-a, world-b/);
    const atLoad = await engineError(engine(s.url, { model: 'nope' }).load());
    expect(atLoad.code).toBe('unknown-model');
  });

  it('reports a context overflow with the server’s explanation and what to do', async () => {
    const s = await server({ models: [{ id: 'tiny-world', max_model_len: 600 }] });
    const e = engine(s.url);
    await e.load();
    // A prompt that alone is longer than the context: no budget can make it fit.
    const err = await engineError(e.generate([request('a', 'x'.repeat(700))], () => {}));
    expect(err.code).toBe('context-overflow');
    expect(err.message).toMatch(/context window of 600 tokens.*maximum context length is 600.*Shorten the history.*max tokens \(now 100\)/);
    expect(s.stats.chatRequests).toBe(1);
  });

  it('says a dead endpoint is unreachable, with its URL and what to check', async () => {
    const port = await deadPort();
    const err = await engineError(engine(`http://127.0.0.1:${port}/v1`).generate([request('a', 'ls')], () => {}));
    expect(err.code).toBe('unreachable');
    expect(err.message).toContain(`http://127.0.0.1:${port}/v1`);
    expect(err.message).toMatch(/connection refused after 3 tries.*Check that the server is running/);
  });

  it('cancels mid-stream: keeps the text so far, hangs up, and leaves queued requests unsent', async () => {
    const s = await server({ endless: true, chunkDelayMs: 10 });
    const controller = new AbortController();
    let seen = '';
    const started = performance.now();
    const results = await engine(s.url, { concurrency: 1 }).generate(
      [request('a', 'tail -f log'), request('b', 'never sent')],
      (e) => {
        seen += e.text;
        if (seen.length > 40) controller.abort();
      },
      controller.signal,
    );
    expect(results.map((r) => r.finishReason)).toEqual(['cancelled', 'cancelled']);
    expect(results[0]!.text).toBe(seen);
    expect(results[1]!.text).toBe('');
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect.poll(() => s.stats.hangUps).toBe(1);
    expect(s.stats.chatRequests).toBe(1);
  });

  it('keeps the text made so far, without retrying, when the connection drops mid-answer', async () => {
    const s = await server({ breakAfter: 4, chunkDelayMs: 5 });
    let seen = '';
    const [result] = await engine(s.url).generate([request('a', 'make')], (e) => (seen += e.text));
    expect(result).toMatchObject({ finishReason: 'error', text: seen });
    expect(seen.length).toBeGreaterThan(0);
    expect(result!.error).toMatch(/broke mid-answer/);
    expect(s.stats.chatRequests).toBe(1);
  });

  it('retries a connection dropped before the first token, and does not call that unreachable', async () => {
    const s = await server({ breakAfter: 0 });
    const err = await engineError(engine(s.url).generate([request('a', 'make')], () => {}));
    expect(s.stats.chatRequests).toBe(FAST_RETRY.attempts);
    expect(err.code).toBe('bad-response');
    expect(err.message).toMatch(/kept failing after 3 tries/);
  });

  it('tokenizes through /tokenize, else gives an approximate count and says so', async () => {
    const withTokenizer = await server();
    const e1 = engine(withTokenizer.url);
    expect(await e1.tokenize('one three five')).toEqual([3, 5, 4]);
    expect(await e1.countTokens('one three five')).toEqual({ count: 3, approximate: false });

    const without = await server({ tokenize: false });
    const e2 = engine(without.url);
    expect(await e2.countTokens('abcdefgh')).toEqual({ count: 2, approximate: true });
    expect(await e2.tokenize('abcdefgh')).toEqual([-1, -1]);
    expect(e2.describe().notes.join(' ')).toMatch(/approximate/);
  });
});
