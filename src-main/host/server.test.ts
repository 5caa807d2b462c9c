import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Studio } from '../service/studio';
import { MAX_MESSAGE_BYTES, startHost, type RunningHost } from './server';

let host: RunningHost;
let studio: Studio;
let dir: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wl-host-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  const ui = join(dir, 'ui');
  (await import('node:fs')).mkdirSync(ui);
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>ui</title>');
  writeFileSync(join(dir, 'secret.txt'), 'do not serve');
  studio = new Studio({ door: 'host', resourcesDir: join(dir, 'resources') });
  host = await startHost({ studio, rendererDir: ui });
});
afterEach(async () => {
  await host.close();
  studio.close();
});

function connect(query: string, origin = `http://127.0.0.1:${host.port}`): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api${query}`, { origin });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function rpc(ws: WebSocket, method: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { message: string } }> {
  const id = Math.random();
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(String(data)) as { type: string; id: number; envelope: never };
      if (msg.type === 'result' && msg.id === id) {
        ws.off('message', onMessage);
        resolve(msg.envelope);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, input }));
  });
}

describe('host', () => {
  it('listens on 127.0.0.1 and prints a URL carrying the token', () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/\\?token=[A-Za-z0-9_-]{32}$`));
  });

  it('serves the UI with a strict CSP, and nothing outside it', async () => {
    const page = await fetch(`http://127.0.0.1:${host.port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const escape = await fetch(`http://127.0.0.1:${host.port}/..%2fsecret.txt`);
    expect(escape.status).toBe(404);
  });

  it('hands an export to the browser once, as an attachment behind the token, and writes nothing into the working directory', async () => {
    const ws = await connect(`?token=${host.token}`);
    expect((await rpc(ws, 'workspace.create', { path: join(dir, 'w.worldloom') })).ok).toBe(true);
    const created = await rpc(ws, 'trajectory.create', { title: 'ls', domain: 'terminal', systemPrompt: 'bash', initialState: '$' });
    expect(created.ok).toBe(true);
    const cwdBefore = (await import('node:fs')).readdirSync(process.cwd()).sort();
    const exported = await rpc(ws, 'export.file', { path: 'my export.jsonl', format: 'jsonl', download: true });
    expect(exported).toMatchObject({ ok: true, value: { path: 'my export.jsonl', trajectories: 1, downloadId: expect.any(String) } });
    const id = (exported.value as { downloadId: string }).downloadId;
    const base = `http://127.0.0.1:${host.port}/download/${encodeURIComponent(id)}`;
    expect((await fetch(base)).status).toBe(403);
    expect((await fetch(`${base}?token=wrong`)).status).toBe(403);
    // A HEAD request does not use up the one download.
    expect((await fetch(`${base}?token=${host.token}`, { method: 'HEAD' })).status).toBe(200);
    const got = await fetch(`${base}?token=${host.token}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="my export.jsonl"; filename*=UTF-8''my%20export.jsonl`);
    const body = await got.text();
    expect(body).toContain('"title":"ls"');
    // One time only.
    expect((await fetch(`${base}?token=${host.token}`)).status).toBe(404);
    expect((await import('node:fs')).readdirSync(process.cwd()).sort()).toEqual(cwdBefore);
    ws.close();
  });

  it('closes and deletes a download the client hangs up on', async () => {
    const path = studio.downloads.pathFor('big.jsonl');
    writeFileSync(path, Buffer.alloc(64 * 1024 * 1024, 120));
    const id = studio.downloads.offer(path, 'big.jsonl', 'application/jsonl');
    const hangUp = new AbortController();
    const got = await fetch(`http://127.0.0.1:${host.port}/download/${encodeURIComponent(id)}?token=${host.token}`, { signal: hangUp.signal });
    expect(got.status).toBe(200);
    const reader = got.body!.getReader();
    await reader.read();
    hangUp.abort();
    await reader.read().catch(() => undefined);
    await expect.poll(() => existsSync(path), { timeout: 10_000 }).toBe(false);
  });

  it('refuses the API without the token, with a wrong token, or from another origin', async () => {
    await expect(connect('')).rejects.toThrow(/403/);
    await expect(connect('?token=wrong')).rejects.toThrow(/403/);
    await expect(connect(`?token=${host.token}`, 'http://evil.example')).rejects.toThrow(/403/);
  });

  it('answers contract calls and validates their input', async () => {
    const ws = await connect(`?token=${host.token}`);
    const info = await rpc(ws, 'app.info', {});
    expect(info).toMatchObject({ ok: true, value: { door: 'host', nativeDialogs: false, workspace: null } });
    const bad = await rpc(ws, 'workspace.create', { path: 42 });
    expect(bad.ok).toBe(false);
    expect(bad.error!.message).toMatch(/Invalid input for workspace.create: path/);
    const unknown = await rpc(ws, 'fs.readFile', {});
    expect(unknown.error!.message).toMatch(/Unknown API method/);
    const created = await rpc(ws, 'workspace.create', { path: join(dir, 'w.worldloom') });
    expect(created).toMatchObject({ ok: true, value: { trajectories: 0, steps: 0 } });
    ws.close();
  });
});

/** An HTTP request with exactly the path and headers given (fetch would normalise them). */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, headers: { host: `127.0.0.1:${host.port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends raw bytes on a TCP connection and returns what came back before it closed. */
function rawTcp(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(host.port, '127.0.0.1', () => socket.write(bytes));
    let got = '';
    socket.on('data', (d) => (got += d.toString()));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

type Reply = { type: string; id: unknown; envelope: { ok: boolean; error?: { code: string; message: string } } };

function nextReply(ws: WebSocket): Promise<Reply> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(String(data)) as Reply;
      if (msg.type !== 'result') return;
      ws.off('message', onMessage);
      resolve(msg);
    };
    ws.on('message', onMessage);
  });
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

async function stillServing(): Promise<void> {
  const ws = await connect(`?token=${host.token}`);
  expect(await rpc(ws, 'app.info', {})).toMatchObject({ ok: true });
  ws.close();
}

describe('the host stays up', () => {
  it('answers a path that is not valid percent-encoding, or holds a NUL, with 400', async () => {
    expect((await rawGet('/%c0')).status).toBe(400);
    expect((await rawGet('/%E0%A4%A')).status).toBe(400);
    expect((await rawGet('/a%00b')).status).toBe(400);
    expect(await rawTcp('GET /\x01 HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect((await rawGet('/')).status).toBe(200);
    await stillServing();
  });

  it('serves the page and the API as localhost too, and no other host name', async () => {
    expect((await rawGet('/', { host: `localhost:${host.port}` })).status).toBe(200);
    const rebound = await rawGet('/', { host: `evil.example:${host.port}` });
    expect(rebound.status).toBe(421);
    expect(rebound.body).toContain(`http://127.0.0.1:${host.port}/`);
    const page = await fetch(`http://127.0.0.1:${host.port}/`);
    expect(page.headers.get('content-security-policy')).toContain(`ws://localhost:${host.port}`);
    const ws = await new Promise<WebSocket>((resolve, reject) => {
      const s = new WebSocket(`ws://localhost:${host.port}/api?token=${host.token}`, { origin: `http://localhost:${host.port}` });
      s.once('open', () => resolve(s));
      s.once('error', reject);
    });
    expect(await rpc(ws, 'app.info', {})).toMatchObject({ ok: true });
    ws.close();
  });

  it('answers null, malformed JSON, non-objects and binary frames with an error reply', async () => {
    const ws = await connect(`?token=${host.token}`);
    for (const frame of ['null', '{"id": 1, "method":', '[1,2]', '42', '"text"']) {
      const reply = nextReply(ws);
      ws.send(frame);
      expect((await reply).envelope).toMatchObject({ ok: false, error: { code: 'invalid-message' } });
    }
    const binary = nextReply(ws);
    ws.send(Buffer.from('{"id":7,"method":"app.info","input":{}}'), { binary: true });
    expect((await binary).envelope.error!.message).toMatch(/binary frame/);
    const noInput = nextReply(ws);
    ws.send(JSON.stringify({ id: 'x', method: 'app.info' }));
    expect(await noInput).toMatchObject({ id: 'x', envelope: { ok: true } });
    ws.close();
  });

  it('gives every call exactly one reply', async () => {
    const ws = await connect(`?token=${host.token}`);
    const replies = new Map<unknown, number>();
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as Reply;
      if (msg.type === 'result') replies.set(msg.id, (replies.get(msg.id) ?? 0) + 1);
    });
    const calls = 200;
    for (let i = 0; i < calls; i++) {
      const kind = i % 4;
      if (kind === 0) ws.send(JSON.stringify({ id: i, method: 'app.info', input: {} }));
      else if (kind === 1) ws.send(JSON.stringify({ id: i, method: 'no.such.method', input: {} }));
      else if (kind === 2) ws.send(JSON.stringify({ id: i, method: 'workspace.create', input: { path: 42 } }));
      else ws.send(JSON.stringify({ id: i, method: 'workspace.info', input: {} }));
    }
    await rpc(ws, 'app.info', {});
    expect([...replies.values()].every((n) => n === 1)).toBe(true);
    expect([...replies.keys()].filter((k) => Number.isInteger(k)).length).toBe(calls);
    ws.close();
  });

  it('closes a socket that sends invalid UTF-8 with a reason, and keeps serving', async () => {
    const ws = await connect(`?token=${host.token}`);
    ws.on('error', () => {});
    const done = closed(ws);
    ws.send(Buffer.from([0x7b, 0xc0, 0xaf, 0x7d]), { binary: false });
    expect((await done).code).toBe(1007);
    await stillServing();
  });

  it('closes a socket that sends more than a workspace operation needs, and keeps serving', async () => {
    const ws = await connect(`?token=${host.token}`);
    ws.on('error', () => {});
    const done = closed(ws);
    ws.send(Buffer.alloc(MAX_MESSAGE_BYTES + 1, 0x20), { binary: false });
    expect((await done).code).toBe(1009);
    await stillServing();
  });
});
