// MCP JSON-RPC line logs as trajectories: one JSON-RPC message per line, as proxies and
// recorders write them. The message may be bare, wrapped ({direction|dir|from…,
// message|msg|payload…}), inlined beside the wrapper's fields ({"dir":"req","id":1,
// "method":…}), or follow a text prefix that names the direction
// (`12:00:01 client→backend {…}`). Directions come in many spellings (send/recv, req/res,
// client_to_server, server→client, "from":"client"); the sender's name decides. The
// pairing of requests and responses into turns lives in ../../parsing/mcp-session.ts.
import { isObject } from '../../common/json-values';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import type { TrajectoryImporter } from '../format';
import { nestingProblem, parseBoundedJson } from '../../parsing/json-limits';
import { McpSessions, type Direction } from '../../parsing/mcp-session';

const FORMAT = 'mcp-jsonrpc-log';

const OUT_WORDS = new Set(['send', 'sent', 'out', 'outgoing', 'outbound', 'request', 'req', 'tx', 'c2s', 'client_to_server', 'to_server']);
const IN_WORDS = new Set(['recv', 'received', 'receive', 'in', 'incoming', 'inbound', 'response', 'res', 'resp', 'rx', 's2c', 'server_to_client', 'to_client']);
/** Who sends toward the server, and who answers: the first name in "a→b" is the sender. */
const CLIENT_NAMES = new Set(['client', 'host', 'agent', 'proxy', 'app', 'frontend', 'user']);
const SERVER_NAMES = new Set(['server', 'backend', 'upstream', 'mcp', 'tool', 'tools']);

/** The direction a wrapper's word names, or undefined when it names none. */
export function directionOf(text: string, field = 'direction'): Direction | undefined {
  const t = text.trim().toLowerCase();
  // `from` names the sender, `to` the receiver.
  if (field === 'from' || field === 'sender' || field === 'source' || field === 'src') {
    if (CLIENT_NAMES.has(t)) return 'out';
    if (SERVER_NAMES.has(t)) return 'in';
  }
  if (field === 'to') {
    if (SERVER_NAMES.has(t)) return 'out';
    if (CLIENT_NAMES.has(t)) return 'in';
  }
  if (OUT_WORDS.has(t)) return 'out';
  if (IN_WORDS.has(t)) return 'in';
  const pair = /^([a-z]+)\s*(?:→|->|=>|>>|_to_|-to-|\sto\s|2)\s*([a-z]+)$/u.exec(t);
  if (pair) {
    if (CLIENT_NAMES.has(pair[1]!) || SERVER_NAMES.has(pair[2]!)) return 'out';
    if (SERVER_NAMES.has(pair[1]!) || CLIENT_NAMES.has(pair[2]!)) return 'in';
  }
  return undefined;
}

const DIRECTION_FIELDS = ['direction', 'dir', 'from', 'to', 'sender', 'source', 'src', 'flow'] as const;
const MESSAGE_FIELDS = ['message', 'msg', 'payload', 'data', 'json', 'body', 'frame', 'rpc'] as const;

const looksLikeMessage = (v: Record<string, unknown>) => 'jsonrpc' in v || typeof v.method === 'string' || (('result' in v || 'error' in v) && 'id' in v);

type Unwrapped =
  /** `text`/`path`: where the messages sit in the source text; `listed` when they are the items of a list there. */
  | { direction?: Direction; messages: unknown[]; text: string; path: string[]; listed: boolean }
  | { field: string; reason: string }
  | { skip: string; reason: string };

/** The messages of one parsed log line, with the direction its wrapper gives (if any). */
function unwrap(raw: unknown, text: string, prefixDirection?: Direction): Unwrapped {
  if (!isObject(raw)) return { direction: prefixDirection, messages: Array.isArray(raw) ? raw : [raw], text, path: [], listed: Array.isArray(raw) };
  let direction = prefixDirection;
  const dirField = DIRECTION_FIELDS.find((f) => typeof raw[f] === 'string');
  if (dirField) {
    const word = raw[dirField] as string;
    direction = directionOf(word, dirField);
    if (!direction && (dirField === 'from' || dirField === 'sender')) {
      return { skip: `record from ${JSON.stringify(word)}`, reason: 'sent by neither the MCP client nor the server (the recorder\'s own notes)' };
    }
    // A JSON-RPC message has no such fields, so an unknown word is a log this reader misreads.
    if (!direction) return { field: dirField, reason: `unknown direction ${JSON.stringify(word)} (expected a word such as send/recv, req/res, client_to_server or server→client)` };
  }
  if (looksLikeMessage(raw)) {
    // The message itself, possibly with the recorder's fields beside it ({"dir":"req","id":1,"method":…}).
    return { direction, messages: [raw], text, path: [], listed: false };
  }
  const msgField = MESSAGE_FIELDS.find((f) => f in raw);
  if (msgField) {
    let message = raw[msgField];
    let at = { text, path: [msgField] };
    if (typeof message === 'string') {
      at = { text: message, path: [] };
      try {
        message = parseBoundedJson(message);
      } catch {
        return { field: msgField, reason: `${msgField} is a string that is not JSON` };
      }
    }
    return { direction, messages: Array.isArray(message) ? message : [message], ...at, listed: Array.isArray(message) };
  }
  if (typeof raw.raw === 'string' || typeof raw.stderr === 'string' || typeof raw.text === 'string') {
    return { skip: 'line of server output that is not JSON-RPC', reason: 'text the server printed beside the protocol (a log or banner line), not a message' };
  }
  return { skip: 'record with no JSON-RPC message', reason: 'a header or note the recorder wrote (no message field, no method, result or error)' };
}

/** A line of text before the JSON ("12:00:01 client→backend: {…}"): the direction it names and the JSON, or null. */
function prefixed(text: string): { direction?: Direction; value: unknown; json: string } | null {
  // The JSON starts at one of the first brackets ("[notes] [info] Message from client: {…}").
  const starts: number[] = [];
  for (let i = 0; i < text.length && starts.length < 8; i++) if (text[i] === '{' || text[i] === '[') starts.push(i);
  for (const at of starts) {
    if (at === 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(at)) as unknown;
    } catch {
      continue;
    }
    return { direction: prefixDirection(text.slice(0, at)), value, json: text.slice(at) };
  }
  return null;
}

function prefixDirection(prefix: string): Direction | undefined {
  let direction: Direction | undefined;
  for (const word of prefix.split(/[\s:|,;()[\]]+/)) {
    direction = word ? directionOf(word) : undefined;
    if (direction) return direction;
  }
  // "Message from client: {…}" (Claude Desktop's MCP logs), "sent to server {…}".
  const named = /\b(from|to)\s+([A-Za-z]+)/i.exec(prefix);
  if (named) direction = directionOf(named[2]!, named[1]!.toLowerCase());
  if (direction) return direction;
  const arrow = /([A-Za-z]+)\s*(→|->|=>)\s*([A-Za-z]+)/.exec(prefix);
  if (arrow) direction = directionOf(`${arrow[1]}→${arrow[3]}`);
  if (!direction && /[←<]-?|⇐/.test(prefix)) direction = 'in';
  return direction;
}

type LineRead = { kind: 'json'; value: unknown; direction?: Direction; json: string } | { kind: 'problem'; reason: string } | { kind: 'text' };

function readLine(text: string): LineRead {

  const tooDeep = nestingProblem(text);
  if (tooDeep) return { kind: 'problem', reason: tooDeep };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown, json: text };
  } catch (err) {
    const pre = prefixed(text);
    if (pre) return { kind: 'json', value: pre.value, direction: pre.direction, json: pre.json };
    // Words and no message ("Initializing server…"): the recorder's own text. A line that
    // starts as JSON or names a JSON-RPC field is a message that did not parse.
    if (!/^\s*[{[]/.test(text) && !text.includes('"jsonrpc"')) return { kind: 'text' };
    return { kind: 'problem', reason: `not valid JSON (${(err as Error).message})` };
  }
}

/** When a wrapped line crossed the wire, in seconds: `t_ms`, or an ISO `ts`/`timestamp`/`time`. */
function wireTime(raw: unknown): number | undefined {
  if (!isObject(raw)) return undefined;
  if (typeof raw.t_ms === 'number') return raw.t_ms / 1000;
  const stamp = raw.ts ?? raw.timestamp ?? raw.time;
  if (typeof stamp !== 'string') return undefined;
  const ms = Date.parse(stamp);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

const MCP_METHOD = /^(initialize|ping|tools\/|notifications\/|resources\/|prompts\/|completion\/|logging\/|sampling\/|roots\/|elicitation\/)/;

export const mcpJsonRpcLogImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'MCP JSON-RPC log',
  detect(name, head) {
    let best = 0;
    // A recorder may write a header line first; the first few lines decide.
    for (const line of head.split('\n').filter((l) => l.trim() !== '').slice(0, 5)) {
      const read = readLine(line);
      if (read.kind !== 'json') continue;
      const unwrapped = unwrap(read.value, read.json, read.direction);
      const m = 'messages' in unwrapped ? unwrapped.messages[0] : undefined;
      if (!isObject(m)) continue;
      const mcpMethod = MCP_METHOD.test(String(m.method ?? ''));
      if (m.jsonrpc === '2.0') best = Math.max(best, /^(initialize|tools\/)/.test(String(m.method ?? '')) ? 0.95 : 0.85);
      else if (mcpMethod && (read.direction || 'id' in m)) best = Math.max(best, 0.9);
    }
    if (best > 0) return best;
    return /\.mcp\.(jsonl|ndjson|log)$/i.test(name) ? 0.4 : 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const sessions = new McpSessions(FORMAT, source.name, newId, now, 'MCP log');
    for (const line of source.lines()) {
      if (line.error) {
        yield { kind: 'problem', line: line.lineNo, reason: line.error };
        continue;
      }
      if (line.text.trim() === '') continue;
      const read = readLine(line.text);
      if (read.kind === 'problem') {
        yield { kind: 'problem', line: line.lineNo, reason: read.reason };
        continue;
      }
      if (read.kind === 'text') {
        sessions.leaveOut('text line with no JSON-RPC message', line.lineNo, 'a line the recorder or server wrote in words (start-up, connection notes), not a message');
        sessions.note(line.text);
        continue;
      }
      const unwrapped = unwrap(read.value, read.json, read.direction);
      if ('field' in unwrapped) {
        yield { kind: 'problem', line: line.lineNo, field: unwrapped.field, reason: unwrapped.reason };
        continue;
      }
      if ('skip' in unwrapped) {
        sessions.leaveOut(unwrapped.skip, line.lineNo, unwrapped.reason);
        sessions.note(line.text);
        continue;
      }
      const time = wireTime(read.value);
      for (const [i, message] of unwrapped.messages.entries()) {
        const raw = { text: unwrapped.text, path: unwrapped.listed ? [...unwrapped.path, i] : unwrapped.path };
        yield* sessions.push({ message, direction: unwrapped.direction, line: line.lineNo, raw, ...(time !== undefined ? { time } : {}) });
      }
      sessions.note(line.text);
    }
    yield* sessions.end();
  },
};
