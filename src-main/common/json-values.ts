// Reading values out of parsed JSON that no schema vouches for: judge replies, result lines
// and logs written by any tool, MCP messages. Pure.

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list of remarks as strings: an array's items (non-strings as JSON), a lone non-empty string, else nothing. */
export function textList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  return typeof value === 'string' && value !== '' ? [value] : [];
}
