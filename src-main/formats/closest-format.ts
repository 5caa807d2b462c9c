// When no importer recognises a file: what it looks like, and the format it comes closest to.
// First, the known tools' outputs Worldloom may not read (OpenHands events, tau-bench results,
// Cline's history, Zipkin and Jaeger exports, Alpaca data…) are named as what they are. Else,
// each format's telltale keys are compared with the keys at the top of the file's records (a
// JSON document, each JSON line, or each element of a top-level array), never with keys found
// deeper: a chat message's "role" inside a tool's own file says nothing about the file. Pure.

/** The top-level keys of each importable format's records, by format id. */
const TELLTALE_KEYS: Record<string, readonly string[]> = {
  agentworldbench: ['task', 'id', 'prompt', 'response', 'system_str', 'turn_idx'],
  jsonl: ['format', 'version', 'trajectory', 'nodes'],
  messages: ['messages', 'tools'],
  sharegpt: ['conversations', 'system', 'tools'],
  asciinema: ['version', 'width', 'height'],
  'swe-agent': ['trajectory', 'history', 'info', 'environment'],
  'mini-swe-agent': ['info', 'messages', 'trajectory_format'],
  'mcp-jsonrpc-log': ['jsonrpc', 'id', 'method', 'params'],
  'mcp-cassette': ['format_version', 'metadata', 'interactions'],
  atif: ['schema_version', 'session_id', 'agent', 'steps'],
  'claude-code': ['type', 'message', 'sessionId', 'uuid', 'parentUuid'],
  'codex-rollout': ['timestamp', 'type', 'payload'],
  'gemini-cli': ['sessionId', 'projectHash', 'messages'],
  'inspect-log': ['version', 'status', 'eval', 'samples'],
  'otel-genai': ['resourceSpans'],
};

export interface ClosestFormat {
  id: string;
  has: string[];
  missing: string[];
}

/**
 * The keys of the file's records, from its first 64 KiB: a JSON document's own keys, each JSON
 * line's, and those of each object directly inside a top-level array. A light scan of the
 * text (strings and nesting), so a head cut in the middle of a record still gives its keys.
 */
export function recordKeys(head: string): Set<string> {
  const text = head.slice(0, 64 * 1024);
  const keys = new Set<string>();
  // What each open container is: '{' or '['.
  const stack: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      // A key of a record: an object at the top, or an object whose parent is the top-level array.
      const isRecord = stack.length === 1 ? stack[0] === '{' : stack.length === 2 && stack[0] === '[' && stack[1] === '{';
      if (isRecord && /^\s*:/.test(text.slice(j + 1, j + 8))) {
        const key = text.slice(i + 1, j);
        if (key.length <= 64) keys.add(key);
      }
      i = j;
    } else if (c === '{' || c === '[') stack.push(c);
    else if (c === '}' || c === ']') stack.pop();
  }
  return keys;
}

/** The format whose telltale keys the records share most (at least two of them, or all when it has fewer), or null. */
export function closestFormat(head: string, ids: readonly string[]): ClosestFormat | null {
  const keys = recordKeys(head);
  let best: ClosestFormat | null = null;
  let bestScore = 0;
  for (const id of ids) {
    const telltale = TELLTALE_KEYS[id];
    if (!telltale) continue;
    const has = telltale.filter((k) => keys.has(k));
    const score = has.length / telltale.length;
    if (has.length >= Math.min(2, telltale.length) && score > bestScore) [best, bestScore] = [{ id, has, missing: telltale.filter((k) => !keys.has(k)) }, score];
  }
  return best;
}

export interface Lookalike {
  /** What the file is, in words ("an OpenHands event stream"). */
  what: string;
  /** The import format that reads it, when Worldloom has one. */
  formatId?: string;
  /** What to do when Worldloom does not read it. */
  advice?: string;
}

interface LookalikeRule extends Lookalike {
  matches(keys: ReadonlySet<string>, head: string): boolean;
}

const all = (keys: ReadonlySet<string>, ...names: string[]) => names.every((n) => keys.has(n));

/** Known tools' outputs, by their records' keys (and a telltale value where keys alone are shared). */
const LOOKALIKES: readonly LookalikeRule[] = [
  { what: 'an OpenHands event stream', formatId: 'openhands-events', matches: (k) => all(k, 'id', 'timestamp', 'source') && (k.has('action') || k.has('observation')) },
  { what: 'tau-bench results', formatId: 'tau-bench', matches: (k) => all(k, 'task_id', 'reward') && (k.has('traj') || k.has('info')) },
  {
    what: "a Cline, Roo Code or Kilo Code task history (api_conversation_history.json)",
    formatId: 'cline-task',
    matches: (k, head) => all(k, 'role', 'content') && /^\s*\[/.test(head) && /<environment_details>|\] Result:|"type"\s*:\s*"tool_(?:use|result)"/.test(head),
  },
  { what: 'Gemini CLI --output-format stream-json output', formatId: 'gemini-cli', matches: (k, head) => k.has('type') && /"type"\s*:\s*"init"[^\n]*"session_id"|"session_id"[^\n]*"type"\s*:\s*"init"/.test(head) },
  { what: 'a Jaeger JSON export', formatId: 'otel-genai', matches: (k, head) => k.has('data') && /"traceID"\s*:/.test(head) && /"spans"\s*:/.test(head) },
  {
    what: 'a Zipkin JSON export (v2 spans)',
    formatId: 'zipkin',
    advice: 'export the trace as OTLP JSON (an OpenTelemetry collector or Jaeger can), which Worldloom reads as otel-genai',
    matches: (k) => all(k, 'traceId', 'id', 'name') && (k.has('localEndpoint') || k.has('remoteEndpoint') || k.has('kind')),
  },
  // Read when it starts with a session; text written above the first one (notes, a merge) hides that.
  { what: 'an aider chat history (.aider.chat.history.md)', formatId: 'aider-chat', matches: (_k, head) => /^# aider chat started at /m.test(head) },
  {
    what: 'an Alpaca-style instruction dataset (instruction, input, output)',
    advice: 'it holds single instruction/answer pairs, not actions and what the environment returned; turn it into chat messages ({"messages": [...]}, user and assistant turns) to import it as a chat dataset',
    matches: (k) => all(k, 'instruction', 'output') && !k.has('chosen'),
  },
];

/** The known tool whose output this looks like, or null. */
export function lookalike(head: string): Lookalike | null {
  const keys = recordKeys(head);
  const found = LOOKALIKES.find((l) => l.matches(keys, head));
  return found ? { what: found.what, ...(found.formatId ? { formatId: found.formatId } : {}), ...(found.advice ? { advice: found.advice } : {}) } : null;
}

/** What the file looks like when it is not JSON at all: its first line, shortened. */
export function firstLineOf(head: string): string {
  const line = head.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
