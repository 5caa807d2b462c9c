// When no importer recognises a file, the format it comes closest to and what it lacks:
// each format's telltale keys, compared with the keys the file's first part holds. A user
// whose file is "almost" a format learns which one and what is missing, not only that the
// format could not be told. Pure.

/** The keys each importable format's records carry (any depth), by format id. */
const TELLTALE_KEYS: Record<string, readonly string[]> = {
  agentworldbench: ['task', 'id', 'prompt', 'response', 'system_str', 'turn_idx'],
  jsonl: ['format', 'version', 'trajectory', 'nodes'],
  messages: ['messages', 'role', 'content'],
  sharegpt: ['conversations', 'from', 'value'],
  asciinema: ['version', 'width', 'height'],
  'swe-agent': ['trajectory', 'history', 'info', 'action', 'observation', 'thought'],
  'mini-swe-agent': ['info', 'messages', 'trajectory_format'],
  'mcp-jsonrpc-log': ['jsonrpc', 'id', 'method', 'params'],
  'mcp-cassette': ['interactions', 'request', 'response'],
  atif: ['schema_version', 'session_id', 'agent', 'steps'],
  'claude-code': ['type', 'message', 'sessionId', 'uuid', 'parentUuid'],
  'codex-rollout': ['timestamp', 'type', 'payload'],
  'gemini-cli': ['sessionId', 'projectHash', 'messages'],
  'inspect-log': ['version', 'status', 'eval', 'samples'],
  'otel-genai': ['resourceSpans', 'scopeSpans', 'spans'],
};

export interface ClosestFormat {
  id: string;
  has: string[];
  missing: string[];
}

/** The format whose telltale keys the head shares most (at least two of them), or null. */
export function closestFormat(head: string, ids: readonly string[]): ClosestFormat | null {
  const keys = new Set<string>();
  for (const m of head.slice(0, 64 * 1024).matchAll(/"([^"\\\n]{1,64})"\s*:/g)) keys.add(m[1]!);
  let best: ClosestFormat | null = null;
  let bestScore = 0;
  for (const id of ids) {
    const telltale = TELLTALE_KEYS[id];
    if (!telltale) continue;
    const has = telltale.filter((k) => keys.has(k));
    const score = has.length / telltale.length;
    if (has.length >= 2 && score > bestScore) [best, bestScore] = [{ id, has, missing: telltale.filter((k) => !keys.has(k)) }, score];
  }
  return best;
}

/** What the file looks like when it is not JSON at all: its first line, shortened. */
export function firstLineOf(head: string): string {
  const line = head.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
