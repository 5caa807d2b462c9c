// Reading values out of parsed JSON that no schema vouches for: judge replies, result lines
// and logs written by any tool, MCP messages. Pure.

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list of remarks as strings: an array's items (non-strings as JSON), a lone non-empty string, else nothing. */
export function textList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  return typeof value === 'string' && value !== '' ? [value] : [];
}

/**
 * Where the `{` or `[` at `start` closes in text that may hold JSON among other words, brackets
 * inside strings skipped; -1 when it never closes.
 */
export function closingBracket(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i;
  }
  return -1;
}
