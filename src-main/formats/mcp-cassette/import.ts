// MCP recordings written as one JSON document ("cassettes"), read into the same turns as
// the line logs (../../parsing/mcp-session.ts pairs them):
// - mcp-recorder: {version, metadata: {server_info…}, interactions: [{type, request,
//   response}]}, where `type` is jsonrpc_request, notification or lifecycle (an HTTP
//   exchange such as GET/DELETE /mcp that carries no message);
// - agent-vcr .vcr: {format_version, metadata, session: {initialize_request,
//   initialize_response, interactions: [{direction, request, response, notifications}]}}.
// Both keep each request beside its response, so the pairing is by place, not by guess;
// a `server_to_client` interaction is a request from the server answered by the client.
import { isObject } from '../../common/json-values';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { parseJsonDocument } from '../../parsing/json-document';
import { rawItemsAt } from '../../parsing/json-raw';
import { McpSessions, type Direction, type WireMessage } from '../../parsing/mcp-session';

const FORMAT = 'mcp-cassette';

type Kind = 'mcp-recorder' | 'agent-vcr';

function kindOf(doc: unknown): Kind | undefined {
  if (!isObject(doc)) return undefined;
  if (isObject(doc.session) && Array.isArray(doc.session.interactions) && ('initialize_request' in doc.session || 'format_version' in doc)) return 'agent-vcr';
  if (Array.isArray(doc.interactions)) return 'mcp-recorder';
  return undefined;
}

const serverOf = (metadata: unknown) => {
  const info = isObject(metadata) ? metadata.server_info : undefined;
  return isObject(info) && typeof info.name === 'string' ? { name: info.name, ...(info.version !== undefined ? { version: String(info.version) } : {}) } : undefined;
};

/** The messages of one interaction in wire order: the request, what came while it ran, the answer. */
function* interactionMessages(it: Record<string, unknown>, where: string, from: Direction, text: string, path: readonly (string | number)[]): Iterable<WireMessage> {
  const back: Direction = from === 'out' ? 'in' : 'out';
  if (it.request !== null && it.request !== undefined) yield { message: it.request, direction: from, line: null, where: `${where}.request`, raw: { text, path: [...path, 'request'] } };
  if (Array.isArray(it.notifications)) {
    for (const [k, n] of it.notifications.entries()) yield { message: n, direction: back, line: null, where: `${where}.notifications.${k}` };
  }
  if (it.response !== null && it.response !== undefined) {
    const latencySeconds = typeof it.latency_ms === 'number' && Number.isFinite(it.latency_ms) ? it.latency_ms / 1000 : undefined;
    yield { message: it.response, direction: back, line: null, where: `${where}.response`, raw: { text, path: [...path, 'response'] }, ...(latencySeconds !== undefined ? { latencySeconds } : {}) };
  }
}

export const mcpCassetteImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'MCP recorder cassette',
  detect(name, head) {
    const start = head.trimStart();
    if (!start.startsWith('{')) return 0;
    // The head may be cut anywhere: judge by the keys each recorder writes near the top.
    if (/"initialize_request"\s*:/.test(head) && /"interactions"\s*:/.test(head)) return 0.97;
    if (/"interactions"\s*:\s*\[/.test(head) && /"jsonrpc"\s*:\s*"2\.0"/.test(head)) return 0.96;
    return /\.vcr$/i.test(name) ? 0.5 : 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const text = source.text();
    const parsed = parseJsonDocument(text);
    if ('problem' in parsed) {
      yield parsed.problem;
      return;
    }
    const doc = parsed.value;
    const kind = kindOf(doc);
    if (!kind || !isObject(doc)) {
      yield {
        kind: 'problem',
        line: null,
        field: 'interactions',
        reason: 'not an MCP cassette: expected an mcp-recorder document with "interactions": [...] or an agent-vcr .vcr with "session": {"interactions": [...]}',
      };
      return;
    }
    const sessions = new McpSessions(FORMAT, source.name, newId, now, kind === 'agent-vcr' ? 'agent-vcr cassette' : 'mcp-recorder cassette', null);
    sessions.note(source.text());
    const server = serverOf(doc.metadata);
    if (server) sessions.setServer(server);
    let interactions: unknown[];
    let prefix: string;
    if (kind === 'agent-vcr') {
      const session = doc.session as Record<string, unknown>;
      for (const message of interactionMessages({ request: session.initialize_request, response: session.initialize_response }, 'session', 'out', text, [])) {
        yield* sessions.push({ ...message, raw: undefined, where: message.where === 'session.request' ? 'session.initialize_request' : 'session.initialize_response' });
      }
      interactions = session.interactions as unknown[];
      prefix = 'session.interactions';
    } else {
      interactions = doc.interactions as unknown[];
      prefix = 'interactions';
    }
    // Each interaction's own text, found in one pass: its request and response are read from it as written.
    const rawItems = rawItemsAt(text, prefix.split('.'));
    for (const [i, it] of interactions.entries()) {
      const where = `${prefix}.${i}`;
      if (!isObject(it)) {
        yield { kind: 'problem', line: null, field: where, reason: 'an interaction must be an object with request and response' };
        continue;
      }
      if (it.type === 'lifecycle' || (it.request == null && it.response == null)) {
        const http = [it.http_method, it.http_path].filter((x) => typeof x === 'string').join(' ');
        sessions.leaveOut(`transport exchange${http ? ` ${http}` : ''}`, null, 'an HTTP exchange of the transport (opening or closing the stream) that carries no JSON-RPC message', where);
        continue;
      }
      const from: Direction = it.direction === 'server_to_client' ? 'in' : 'out';
      const itemText = rawItems?.[i];
      for (const message of interactionMessages(it, where, from, itemText ?? '', [])) yield* sessions.push(itemText === undefined ? { ...message, raw: undefined } : message);
    }
    yield* sessions.end();
  },
};
