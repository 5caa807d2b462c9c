// The simulated environment over MCP's Streamable HTTP transport, on 127.0.0.1 behind a
// random token (`Authorization: Bearer TOKEN`, or `?token=` for clients that cannot set
// headers). Each MCP session (one initialize) gets its own server, hence its own path.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SimulatedEnvironment } from '../agents/simulated-environment';
import { bearerOf, hostAllowed, LOOPBACK, originAllowed, secretMatches } from './loopback';

export interface RunningMcpHttp {
  /** The endpoint, token included as a query parameter. */
  url: string;
  endpoint: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** Most a request body may hold; a tool call's arguments are far smaller. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** A session unused this long is closed (its client must initialize again). */
export const MCP_SESSION_IDLE_MS = 30 * 60 * 1000;
/** Sessions open at once; a new one closes the least recently used. */
export const MAX_MCP_SESSIONS = 64;

export interface McpHttpOptions {
  port?: number;
  token?: string;
  sessionIdleMs?: number;
  maxSessions?: number;
}

export async function startMcpHttp(environment: SimulatedEnvironment, options: McpHttpOptions = {}): Promise<RunningMcpHttp> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const idleMs = options.sessionIdleMs ?? MCP_SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? MAX_MCP_SESSIONS;
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer; used: number }>();
  const closeSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    void session.transport.close().catch(() => {});
    void session.server.close().catch(() => {});
  };
  // Sessions hold memory (a server each); clients that vanish without closing leave them behind.
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) if (now - session.used > idleMs) closeSession(id);
  }, Math.min(60_000, Math.max(10, Math.floor(idleMs / 2))));
  sweeper.unref();
  let port = 0;

  const reply = (res: ServerResponse, status: number, message: string) => {
    if (res.headersSent) return void res.end();
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!hostAllowed(req.headers.host, port)) return reply(res, 421, `Connect to http://127.0.0.1:${port}/mcp.`);
    // The MCP transport spec: a request a web page sends carries its Origin, which must be ours.
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, port)) {
      return reply(res, 403, `Requests from ${origin} are refused: mcp-serve answers local clients, not web pages.`);
    }
    if (url.pathname !== '/mcp') return reply(res, 404, 'The MCP endpoint is /mcp.');
    if (!secretMatches(token, bearerOf(req) ?? url.searchParams.get('token'))) return reply(res, 401, 'Send the token mcp-serve printed, as "Authorization: Bearer TOKEN".');
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) {
      existing.used = Date.now();
      return existing.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'No MCP session with that id: send initialize first.');
    const body = await readJson(req);
    if (!body.ok) return reply(res, 400, body.message);
    if (!isInitializeRequest(body.value)) return reply(res, 400, 'No MCP session yet: the first request must be initialize.');
    // The MCP session id is also the path's session in provenance.
    const id = randomUUID();
    const server = environment.createServer(id);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sid) => {
        if (sessions.size >= maxSessions) {
          const oldest = [...sessions].sort((a, b) => a[1].used - b[1].used)[0];
          if (oldest) closeSession(oldest[0]);
        }
        sessions.set(sid, { transport, server, used: Date.now() });
      },
    });
    transport.onclose = () => {
      sessions.delete(id);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body.value);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => reply(res, 500, `The request failed: ${err instanceof Error ? err.message : String(err)}`));
  });
  http.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((ok, fail) => {
    http.once('error', fail);
    http.listen(options.port ?? 0, LOOPBACK, () => ok());
  });
  port = (http.address() as AddressInfo).port;
  const endpoint = `http://127.0.0.1:${port}/mcp`;
  return {
    url: `${endpoint}?token=${token}`,
    endpoint,
    port,
    token,
    close: async () => {
      clearInterval(sweeper);
      for (const { transport, server } of sessions.values()) {
        await transport.close().catch(() => {});
        await server.close().catch(() => {});
      }
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((ok) => http.close(() => ok()));
    },
  };
}

async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { ok: false, message: `The request body is over ${MAX_BODY_BYTES} bytes.` };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (err) {
    return { ok: false, message: `The request body is not JSON (${(err as Error).message}).` };
  }
}
