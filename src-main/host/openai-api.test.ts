// The OpenAI-compatible API against the embedded model, in-process: what a client of vLLM
// would see (models, completions streamed and not, reasoning apart), refusals that say what
// to fix, and requests recorded as paths.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES_DIR } from '../testing/paths';
import { Studio } from '../service/studio';
import { startOpenAiApi, type CompletedChat, type RunningOpenAiApi } from './openai-api';
import { RequestRecorder } from './request-recorder';
import { OpenAiCompatibleEngine } from '../engine/openai/openai-engine';
import { parseModelOutput } from '../common/prompt/model-output';

const SYSTEM = 'Terminal environment: bash in a sandbox. Each action is a command line; each observation is the screen text it printed, ending with the next prompt.';
const turn = (n: number, action: string) => `### Turn ${n}\n**Action:**\n${action}`;

describe('serve --openai', () => {
  let dir: string;
  let studio: Studio;
  let api: RunningOpenAiApi;
  const completed: CompletedChat[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wl-openai-'));
    studio = new Studio({ door: 'cli', resourcesDir: RESOURCES_DIR });
    studio.openWorkspace(join(dir, 'w.worldloom'), 'create');
    await studio.loadModel();
    api = await startOpenAiApi({ studio, key: 'test-key', onCompleted: (c) => void completed.push(c) });
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await studio?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: unknown, key = 'test-key') =>
    fetch(`${api.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  const chat = { model: 'any', messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: turn(1, 'echo hello') }], max_tokens: 64, temperature: 0.6, seed: 7 };

  it('lists the loaded model only to a client with the key', async () => {
    const ok = await fetch(`${api.baseUrl}/models`, { headers: { authorization: 'Bearer test-key' } });
    const models = (await ok.json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual([studio.models.current!.describe().modelId]);
    const refused = await fetch(`${api.baseUrl}/models`, { headers: { authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('Bearer');
  });

  it('answers a chat completion with the observation as content and the same text when streamed', async () => {
    const res = await post(chat);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; choices: { message: { role: string; content: string; reasoning_content?: string }; finish_reason: string }[]; usage: { completion_tokens: number } };
    expect(body.object).toBe('chat.completion');
    const message = body.choices[0]!.message;
    expect(message.role).toBe('assistant');
    expect(message.content).not.toContain('<think>');
    expect(message.content).not.toContain('</think>');
    expect(message.content.trim().length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(body.choices[0]!.finish_reason);
    expect(body.usage.completion_tokens).toBeGreaterThan(0);

    const streamed = await post({ ...chat, stream: true, stream_options: { include_usage: true } });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const events = (await streamed.text()).split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => e.slice(6));
    expect(events[events.length - 1]).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as { choices: { delta: { content?: string; reasoning_content?: string }; finish_reason: string | null }[]; usage?: unknown });
    const content = chunks.flatMap((c) => c.choices.map((ch) => ch.delta.content ?? '')).join('');
    // Same seed, same sampling: the stream carries the same answer, piece by piece.
    expect(content).toBe(message.content);
    expect(chunks.some((c) => c.choices[0]?.finish_reason)).toBe(true);
    expect(chunks[chunks.length - 1]!.usage).toBeDefined();
  }, 120_000);

  it("serves Worldloom's own server engine as vLLM would: the same observation as in-process, and a cut answer continued", async () => {
    const client = new OpenAiCompatibleEngine({ baseUrl: api.baseUrl, apiKey: 'test-key' });
    await client.load();
    expect(client.describe().modelId).toBe(studio.models.current!.describe().modelId);
    const messages = chat.messages as { role: 'system' | 'user'; content: string }[];
    const sampling = { temperature: 0.6, topK: 20, topP: 0.95, maxTokens: 64, seed: 21, stop: [] };
    const [overHttp] = await client.generate([{ id: 'a', messages, sampling }], () => {});
    const [inProcess] = await studio.models.current!.generate([{ id: 'a', messages, sampling }], () => {});
    expect(parseModelOutput(overHttp!.text).observation).toBe(parseModelOutput(inProcess!.text).observation);
    // Continuing a cut answer sends it back as a trailing assistant message (continue_final_message):
    // greedy, the server continues it exactly as the engine in-process does.
    const greedy = { ...sampling, temperature: 0 };
    const [whole] = await studio.models.current!.generate([{ id: 'w', messages, sampling: greedy }], () => {});
    const cut = whole!.text.slice(0, whole!.text.lastIndexOf('\n') + 1);
    expect(parseModelOutput(cut).observation.length).toBeGreaterThan(0);
    const [rest] = await client.generate([{ id: 'b', messages, sampling: greedy, continuation: cut }], () => {});
    const [restInProcess] = await studio.models.current!.generate([{ id: 'c', messages, sampling: greedy, continuation: cut }], () => {});
    expect(rest!.text).toBe(restInProcess!.text);
    expect(rest!.text.length).toBeGreaterThan(0);
    const refused = await post({ ...chat, continue_final_message: true });
    expect(refused.status).toBe(400);
    await client.dispose();
  }, 120_000);

  it('refuses malformed requests with a message and keeps serving', async () => {
    const cases: [unknown, number, string][] = [
      ['{not json', 400, 'not JSON'],
      [{ model: 'x' }, 400, 'messages'],
      [{ messages: [] }, 400, 'at least one'],
      [{ messages: [{ role: 'wizard', content: 'hi' }] }, 400, 'role'],
      [{ ...chat, max_tokens: -3 }, 400, 'max_tokens'],
      [{ ...chat, max_tokens: 100_000_000 }, 400, ''],
      [{ ...chat, n: 1000 }, 400, 'n'],
    ];
    for (const [body, status, words] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status);
      const error = ((await res.json()) as { error: { message: string } }).error;
      expect(error.message).toContain(words);
    }
    const wrongMethod = await fetch(`${api.baseUrl}/chat/completions`, { headers: { authorization: 'Bearer test-key' } });
    expect(wrongMethod.status).toBe(405);
    const nowhere = await fetch(`${api.baseUrl}/completions`, { method: 'POST', headers: { authorization: 'Bearer test-key' }, body: '{}' });
    expect(nowhere.status).toBe(404);
    // A body over the limit is refused from its size, and a request naming another host (DNS rebinding) is refused.
    // (On connections of their own, so the pool behind fetch keeps its sockets.)
    const url = new URL(api.baseUrl);
    const raw = (method: string, path: string, headers: Record<string, string>, body?: Buffer) =>
      new Promise<number>((resolve, reject) => {
        let status = 0;
        const req = request({ host: '127.0.0.1', port: url.port, path, method, agent: false, headers: { authorization: 'Bearer test-key', ...headers } }, (res) => {
          status = res.statusCode ?? 0;
          res.resume();
          resolve(status);
        });
        // The server may close the socket once it has answered, while the body is still going out.
        req.on('error', (err) => (status ? undefined : reject(err)));
        req.end(body);
      });
    expect(await raw('POST', '/v1/chat/completions', { 'content-type': 'application/json' }, Buffer.alloc(33 * 1024 * 1024, 32))).toBe(413);
    expect(await raw('GET', '/v1/models', { host: `evil.example:${url.port}` })).toBe(421);
    // A client that hangs up mid-stream stops its generation; the next one is served.
    const hangUp = new AbortController();
    const streaming = await fetch(`${api.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
      body: JSON.stringify({ ...chat, stream: true, max_tokens: 2000, temperature: 1.5 }),
      signal: hangUp.signal,
    });
    const reader = streaming.body!.getReader();
    await reader.read();
    hangUp.abort();
    await reader.read().catch(() => undefined);
    expect((await post(chat)).status).toBe(200);
  }, 120_000);

  it('refuses a prompt longer than the context can hold from its length, with 400, and serves others meanwhile', async () => {
    // 30 MB: inside the body limit, far beyond any context. Tokenizing it took minutes and gigabytes.
    const huge = { ...chat, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: turn(1, 'x '.repeat(15 * 1024 * 1024)) }] };
    const order: string[] = [];
    const attack = post(huge).then(async (res) => {
      order.push('attack');
      return { status: res.status, error: ((await res.json()) as { error: { message: string; code: string | null } }).error };
    });
    const other = fetch(`${api.baseUrl}/models`, { headers: { authorization: 'Bearer test-key' } }).then((res) => {
      order.push('other');
      return res.status;
    });
    const [refused, otherStatus] = await Promise.all([attack, other]);
    expect(otherStatus).toBe(200);
    expect(order).toEqual(['other', 'attack']);
    expect(refused.status).toBe(400);
    expect(refused.error.code).toBe('context_length_exceeded');
    expect(refused.error.message).toMatch(/This request's prompt is [\d,]+ characters, far more than the model's context of [\d,]+ tokens can hold/);
    expect((await post(chat)).status).toBe(200);
  }, 120_000);

  it('records requests into a workspace: one trajectory per conversation, each answer a node of its path', async () => {
    const recorder = new RequestRecorder(studio.requireStore());
    const before = completed.length;
    const history = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: turn(1, 'mkdir notes') },
      { role: 'assistant', content: '**Environment Observation:**\nagent@sandbox:~$' },
    ];
    await post({ ...chat, messages: [...history, { role: 'user', content: turn(2, 'ls') }] });
    await post({ ...chat, messages: [...history, { role: 'user', content: turn(2, 'ls -a') }], seed: 8 });
    for (const c of completed.slice(before)) await recorder.record(c);
    const store = studio.requireStore();
    const recorded = store.listTrajectories().filter((t) => t.sourceKey?.startsWith('openai-api:'));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.domain).toBe('terminal');
    const nodes = store.getNodes(recorded[0]!.id);
    const first = nodes.filter((n) => n.depth === 1);
    expect(first.map((n) => [n.action, n.observation, n.origin])).toEqual([['mkdir notes', 'agent@sandbox:~$', 'imported']]);
    const answers = nodes.filter((n) => n.depth === 2);
    expect(answers.map((n) => n.action).sort()).toEqual(['ls', 'ls -a']);
    for (const a of answers) {
      expect(a.parentId).toBe(first[0]!.id);
      expect(a.origin).toBe('agent');
      expect(a.provenance.agent).toMatchObject({ kind: 'openai-client', model: 'any' });
      expect(a.provenance.promptHash).toMatch(/^sha256:/);
    }
  }, 120_000);
});
