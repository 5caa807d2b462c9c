// How a tool call reads to a person. MCP logs and ATIF store a call as one line of JSON,
// `{"name": "read_file", "arguments": {"path": "/a"}}` (see parsing/tool-call.ts): exact, but a
// tree of such rows is a wall of braces. Shown instead as `read_file(path: "/a")`, with the
// JSON kept for hover and the inspector. Pure text in, text out: the UI shows it as text.

/** Values longer than this are cut with an ellipsis; the full call is one hover away. */
const VALUE_LENGTH = 60;

function valueText(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > VALUE_LENGTH ? `${text.slice(0, VALUE_LENGTH - 1)}…` : text;
}

/** The name of a call whose JSON was cut short (a tree label keeps only the first 121 characters). */
const CUT_CALL = /^\s*\{\s*"name"\s*:\s*"((?:[^"\\]|\\.){1,200})"\s*,\s*"arguments"\s*:/;

/**
 * `name(key: value, …)` for a tool call action, or null when the text is not one. A call cut
 * short (invalid JSON that starts like one) reads `name(…)`.
 */
export function toolCallText(action: string): string | null {
  const text = action.trim();
  if (!text.startsWith('{') || !text.includes('"name"')) return null;
  let call: unknown;
  try {
    call = JSON.parse(text);
  } catch {
    const cut = CUT_CALL.exec(text);
    if (!cut) return null;
    try {
      return `${JSON.parse(`"${cut[1]}"`) as string}(…)`;
    } catch {
      return null;
    }
  }
  if (!call || typeof call !== 'object' || Array.isArray(call)) return null;
  const { name, arguments: args, ...rest } = call as Record<string, unknown>;
  if (typeof name !== 'string' || !name || Object.keys(rest).length > 0) return null;
  if (args === undefined || args === null) return `${name}()`;
  if (typeof args !== 'object' || Array.isArray(args)) return `${name}(${valueText(args)})`;
  const parts = Object.entries(args as Record<string, unknown>).map(([key, value]) => `${key}: ${valueText(value)}`);
  return `${name}(${parts.join(', ')})`;
}
