// MCP JSON-RPC logs as trajectories: one JSON-RPC message per line, bare or wrapped as
// {direction|dir, message} by a recorder or proxy. Each `tools/call` request paired with
// its response (by id, and by direction when the log has one) is a turn: the action is
// the call as compact JSON {"name","arguments"} (see ./tool-call.ts), the observation the
// result pretty-printed — `isError: true` results and JSON-RPC error objects (protocol
// failures) are observations too. `tools/list` results go into the environment
// description. A new `initialize` request starts a new session, hence a new trajectory.
import { chainBundle, type StepDraft } from '../common/trajectory/build';
import { jsonLines } from './json-lines';
import { parseBoundedJson } from './json-limits';
import type { ImportItem, ImportSource, TrajectoryImporter, FormatEntry } from './format';
import { contentKey } from './content-key';
import { jsonObservation, toolCallAction } from './tool-call';
import { isObject } from '../common/json-values';

const FORMAT = 'mcp-jsonrpc-log';
type Direction = 'out' | 'in';
const DIRECTIONS: Record<string, Direction> = {
  send: 'out', sent: 'out', out: 'out', outgoing: 'out', request: 'out',
  recv: 'in', received: 'in', receive: 'in', in: 'in', incoming: 'in', response: 'in',
};

interface RpcMessage {
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
}

interface PendingRequest {
  method: string;
  params: Record<string, unknown>;
  line: number;
  session: Session;
  turn?: Turn;
  cancelled?: boolean;
}

interface Turn {
  requestLine: number;
  step?: StepDraft;
}

interface Session {
  tools: unknown[];
  server?: { name?: string; version?: string };
  instructions?: string;
  turns: Turn[];
  texts: string[];
  firstLine: number;
}


/** The messages of one log line, with the direction the wrapper gives (if any). */
function unwrap(raw: unknown): { direction?: Direction; messages: unknown[] } | { field: string; reason: string } {
  if (isObject(raw) && 'message' in raw && !('jsonrpc' in raw)) {
    const dirText = raw.direction ?? raw.dir;
    const direction = typeof dirText === 'string' ? DIRECTIONS[dirText.toLowerCase()] : undefined;
    if (dirText !== undefined && !direction) return { field: raw.direction !== undefined ? 'direction' : 'dir', reason: `unknown direction ${JSON.stringify(dirText)} (expected send/recv or out/in)` };
    let message = raw.message;
    if (typeof message === 'string') {
      try {
        message = parseBoundedJson(message);
      } catch {
        return { field: 'message', reason: 'message is a string that is not JSON' };
      }
    }
    return { direction, messages: Array.isArray(message) ? message : [message] };
  }
  // A JSON-RPC batch is an array of messages.
  return { messages: Array.isArray(raw) ? raw : [raw] };
}

function messageProblem(m: unknown): string | undefined {
  if (!isObject(m)) return 'not a JSON-RPC message object';
  if (m.method !== undefined && typeof m.method !== 'string') return 'method must be a string';
  if (m.id !== undefined && m.id !== null && typeof m.id !== 'string' && typeof m.id !== 'number') return 'id must be a string or number';
  if (m.method === undefined && !('result' in m) && !('error' in m)) return 'neither a request (method) nor a response (result or error)';
  if (m.method === undefined && (m.id === undefined || m.id === null)) return 'a response without an id cannot be paired';
  return undefined;
}

export const mcpJsonRpcLogImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'MCP JSON-RPC log',
  detect(name, head) {
    const first = head.split('\n').find((l) => l.trim() !== '') ?? '';
    try {
      const raw = JSON.parse(first) as unknown;
      const unwrapped = unwrap(raw);
      const m = 'messages' in unwrapped ? unwrapped.messages[0] : undefined;
      if (isObject(m) && m.jsonrpc === '2.0') return /^(initialize|tools\/)/.test(String(m.method ?? '')) ? 0.95 : 0.85;
    } catch {
      // A first line that is not JSON is not a log of this kind.
    }
    return /\.mcp\.(jsonl|ndjson|log)$/i.test(name) ? 0.4 : 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const pending = new Map<string, PendingRequest>();
    const newSession = (line: number): Session => ({ tools: [], turns: [], texts: [], firstLine: line });
    let session = newSession(1);
    let sessionNo = 0;

    const finish = function* (s: Session): Iterable<ImportItem> {
      const steps = s.turns.flatMap((t) => (t.step ? [t.step] : []));
      if (steps.length === 0) {
        if (s.texts.length) yield { kind: 'problem', line: s.firstLine, reason: 'this session has no answered tools/call requests: nothing to import' };
        return;
      }
      yield { kind: 'trajectory', bundle: bundleFor(s, steps, source.name, sessionNo++, newId, now) };
    };

    for (const item of jsonLines(source)) {
      if (item.kind === 'problem') {
        yield item;
        continue;
      }
      const raw = item.value;
      const line = { lineNo: item.lineNo, text: item.text };
      const unwrapped = unwrap(raw);
      if (!('messages' in unwrapped)) {
        yield { kind: 'problem', line: line.lineNo, field: unwrapped.field, reason: unwrapped.reason };
        continue;
      }
      const { direction } = unwrapped;
      for (const m of unwrapped.messages) {
        const problem = messageProblem(m);
        if (problem) {
          yield { kind: 'problem', line: line.lineNo, field: 'message', reason: problem };
          continue;
        }
        const msg = m as RpcMessage;
        const key = (d: Direction | undefined) => `${d ?? ''}|${JSON.stringify(msg.id)}`;
        if (msg.method !== undefined && msg.id !== undefined && msg.id !== null) {
          if (msg.method === 'initialize' && (session.turns.length > 0 || session.tools.length > 0)) {
            yield* finish(session);
            session = newSession(line.lineNo);
          }
          if (pending.has(key(direction))) {
            yield { kind: 'problem', line: line.lineNo, field: 'id', reason: `request id ${JSON.stringify(msg.id)} is reused before its response arrived` };
            continue;
          }
          const request: PendingRequest = { method: msg.method, params: isObject(msg.params) ? msg.params : {}, line: line.lineNo, session };
          if (msg.method === 'tools/call') {
            if (typeof request.params.name !== 'string') {
              yield { kind: 'problem', line: line.lineNo, field: 'params.name', reason: 'tools/call without a tool name' };
              continue;
            }
            request.turn = { requestLine: line.lineNo };
            session.turns.push(request.turn);
          }
          pending.set(key(direction), request);
        } else if (msg.method !== undefined) {
          // Notifications need no answer; a cancelled request will never get one.
          const cancelledId = msg.method === 'notifications/cancelled' ? msg.params?.requestId : undefined;
          if (cancelledId !== undefined) {
            const target = pending.get(`${direction ?? ''}|${JSON.stringify(cancelledId)}`);
            if (target) target.cancelled = true;
          }
        } else {
          const requestKey = key(direction === 'in' ? 'out' : direction === 'out' ? 'in' : undefined);
          const request = pending.get(requestKey);
          if (!request) {
            yield { kind: 'problem', line: line.lineNo, field: 'id', reason: `response id ${JSON.stringify(msg.id)} matches no earlier request` };
            continue;
          }
          pending.delete(requestKey);
          applyResponse(request, msg, line.lineNo, source.name);
        }
      }
      session.texts.push(line.text);
    }
    for (const request of pending.values()) {
      if (request.turn) request.session.turns.splice(request.session.turns.indexOf(request.turn), 1);
      yield {
        kind: 'problem',
        line: request.line,
        field: 'id',
        reason: request.cancelled ? `${request.method} request was cancelled and never answered` : `${request.method} request has no response in the log`,
      };
    }
    yield* finish(session);
  },
};

function applyResponse(request: PendingRequest, msg: RpcMessage, line: number, file: string): void {
  const s = request.session;
  const failed = 'error' in msg;
  if (request.method === 'initialize' && isObject(msg.result)) {
    const info = msg.result.serverInfo;
    if (isObject(info)) s.server = { name: String(info.name ?? ''), version: info.version === undefined ? undefined : String(info.version) };
    if (typeof msg.result.instructions === 'string') s.instructions = msg.result.instructions;
  } else if (request.method === 'tools/list' && isObject(msg.result) && Array.isArray(msg.result.tools)) {
    s.tools.push(...msg.result.tools);
  } else if (request.method === 'tools/call' && request.turn) {
    const isError = !failed && isObject(msg.result) && msg.result.isError === true;
    request.turn.step = {
      action: toolCallAction(String(request.params.name), request.params.arguments),
      observation: jsonObservation(failed ? msg.error : msg.result),
      origin: 'real',
      provenance: {
        source: { format: FORMAT, file, line: request.line },
        mcp: { requestId: msg.id, responseLine: line, ...(isError ? { isError } : {}), ...(failed ? { protocolError: true } : {}) },
      },
    };
  }
}

function bundleFor(s: Session, steps: StepDraft[], file: string, index: number, newId: () => string, now: string) {
  const server = s.server?.name ? `${s.server.name}${s.server.version ? ` ${s.server.version}` : ''}` : 'an MCP server';
  const tools = s.tools.length ? `\n\nTools (from tools/list):\n${jsonObservation(s.tools)}` : '';
  return chainBundle(
    {
      title: s.server?.name ? `${s.server.name} · ${file}` : `${file} (MCP log)`,
      domain: 'mcp',
      systemPrompt:
        `MCP environment: ${server}, reached over JSON-RPC. Each action is a tools/call as JSON ` +
        '{"name", "arguments"}; each observation is the call\'s JSON result (isError: true when the tool failed) ' +
        `or the JSON-RPC error object when the request itself failed.${tools}`,
      initialState: s.instructions ?? '',
      sourceKey: contentKey([FORMAT, String(index), ...s.texts]),
      rootProvenance: { source: { format: FORMAT, file, line: s.firstLine }, ...(s.server ? { server: s.server } : {}) },
      steps,
    },
    newId,
    now,
  );
}

export const mcpJsonRpcLogFormat: FormatEntry = { id: 'mcp-jsonrpc-log', label: 'MCP JSON-RPC log', extensions: ['jsonl', 'log'], importer: mcpJsonRpcLogImporter };
