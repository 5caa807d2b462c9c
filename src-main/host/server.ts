// The host door: serves the built renderer over HTTP and the API contract over a
// WebSocket, on 127.0.0.1 only, behind a random token carried in the printed URL.
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Envelope } from '../common/contract/api';
import { contentSecurityPolicy } from '../common/contract/content-security-policy';
import { dispatch, toUserError } from '../service/dispatch';
import type { Studio } from '../service/studio';
import { hostAllowed, LOOPBACK, loopbackNames, originAllowed, secretMatches } from './loopback';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

export interface HostOptions {
  studio: Studio;
  rendererDir: string;
  port?: number;
  /** Fixed token (tests); a random one otherwise. */
  token?: string;
}

/**
 * The largest WebSocket message the host accepts. The biggest single workspace operation
 * (a manual node: a 10M-character state and action) fits; files go through the chunked
 * upload (import.begin / import.chunk), so nothing larger ever needs one frame.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface RunningHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const root = normalize(options.rendererDir);
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error(`The UI is not built (${join(root, 'index.html')} is missing). Run \`npm run build\` first.`);
  }
  let port = 0;

  const serveStatic = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    if (rel.includes('\0')) throw new URIError('A path cannot hold a NUL character.');
    const file = normalize(join(root, rel));
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, {
      'content-type': MIME[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': contentSecurityPolicy(`'self' ${loopbackNames(port).map((h) => `ws://${h}`).join(' ')}`),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
  };

  /**
   * GET /download/<id>?token=…: a report or export the core offered for this browser, sent
   * once as an attachment and then deleted. The host's token and the one-time id both have to
   * match, so neither a leaked link nor another local page can fetch it.
   */
  const serveDownload = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (!secretMatches(token, url.searchParams.get('token'))) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden: this link needs the token of the studio that made the file.');
      return;
    }
    const id = decodeURIComponent(url.pathname.slice('/download/'.length));
    // A HEAD request (a browser or scanner checking the link first) leaves the one download for the GET.
    if (req.method === 'HEAD') {
      res.writeHead(options.studio.downloads.has(id) ? 200 : 404, { 'content-type': 'text/plain' }).end();
      return;
    }
    const offer = options.studio.downloads.take(id);
    if (!offer) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('This download was already taken or has expired; export the file again.');
      return;
    }
    const size = existsSync(offer.path) ? statSync(offer.path).size : -1;
    if (size < 0) {
      offer.done();
      res.writeHead(404, { 'content-type': 'text/plain' }).end();
      return;
    }
    res.writeHead(200, {
      'content-type': offer.contentType,
      'content-length': size,
      // The name is already safe (downloads.ts); filename* carries it exactly for any browser.
      'content-disposition': `attachment; filename="${offer.name}"; filename*=UTF-8''${encodeURIComponent(offer.name)}`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    const stream = createReadStream(offer.path);
    stream.on('error', () => res.destroy());
    stream.on('close', () => offer.done());
    // A client that hangs up mid-download: the file is closed (its descriptor freed) and deleted.
    res.on('close', () => {
      if (!stream.destroyed) stream.destroy();
    });
    stream.pipe(res);
  };

  const http = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (!hostAllowed(req.headers.host, port)) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end(`Open the studio at http://127.0.0.1:${port}/ (the link \`worldloom serve\` printed).`);
      return;
    }
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname.startsWith('/download/')) serveDownload(req, res, url);
      else serveStatic(req, res);
    } catch {
      // A path that cannot be decoded (`/%c0`) or named (a NUL byte) is the client's mistake, never the host's end.
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request: the path is not a valid URL.');
      else res.destroy();
    }
  });
  // A malformed request line or header never reaches the handler: answer it and carry on.
  http.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  http.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    // The token keeps other local users and pages out; the Origin check stops other
    // web pages in the same browser from opening the socket with a leaked token.
    const allowed = originAllowed(req.headers.origin, port) && hostAllowed(req.headers.host, port);
    if (url.pathname !== '/api' || !secretMatches(token, url.searchParams.get('token')) || !allowed) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    // Invalid UTF-8 or an oversized frame makes ws close the socket with a reason (1007, 1009)
    // and report it here; without a listener the error would end the whole host.
    ws.on('error', () => ws.terminate());
    const send = (message: unknown) => {
      if (ws.readyState !== ws.OPEN) return;
      let text: string;
      try {
        text = JSON.stringify(message);
      } catch (err) {
        const id = (message as { id?: unknown }).id ?? null;
        text = JSON.stringify({ type: 'result', id, envelope: { ok: false, error: { code: 'internal', message: `The answer could not be sent: ${(err as Error).message}` } } });
      }
      ws.send(text);
    };
    const unsubscribe = options.studio.onEvent((event, payload) => send({ type: 'event', event, payload }));
    ws.on('close', unsubscribe);
    ws.on('message', (data, isBinary) => {
      void answer(data, isBinary).then((reply) => send(reply));
    });
  });

  /** Exactly one reply for every message: a result, or an error saying what was wrong with the message. */
  async function answer(data: RawData, isBinary: boolean): Promise<{ type: 'result'; id: unknown; envelope: Envelope<unknown> }> {
    const refuse = (id: unknown, message: string) => ({ type: 'result' as const, id, envelope: { ok: false as const, error: { code: 'invalid-message', message } } });
    if (isBinary) return refuse(null, 'The API takes text frames holding JSON {"id", "method", "input"}; a binary frame was sent.');
    let msg: unknown;
    try {
      msg = JSON.parse(rawText(data));
    } catch (err) {
      return refuse(null, `The message is not valid JSON (${(err as Error).message}).`);
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return refuse(null, 'The message must be a JSON object {"id", "method", "input"}.');
    const { id: rawId, method, input } = msg as { id?: unknown; method?: unknown; input?: unknown };
    const id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
    try {
      return { type: 'result', id, envelope: await dispatch(options.studio, method, input) };
    } catch (err) {
      return { type: 'result', id, envelope: { ok: false, error: toUserError(err) } };
    }
  }

  await new Promise<void>((ok, fail) => {
    http.once('error', fail);
    http.listen(options.port ?? 0, LOOPBACK, () => ok());
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((ok) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        http.close(() => ok());
      }),
  };
}
