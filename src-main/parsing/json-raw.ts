// JSON values as the source wrote them. JSON.parse then JSON.stringify is not the identity:
// `2.0` comes back as `2`, `1e3` as `1000`, big integers lose digits, `"\u00e9"` becomes
// `"é"`, and integer-like keys move to the front of their object. Recordings of what a
// server saw (MCP) keep the source's own text instead: these helpers find a value's text by
// its path and re-space it without touching a single token. Pure; the text is already
// valid JSON (the caller parsed it).

/** The [start, end) of the value at `path` in `text` (keys for objects, indexes for arrays), or null when absent. */
export function rawSpanAt(text: string, path: readonly (string | number)[]): [number, number] | null {
  let i = skipSpace(text, 0);
  for (const step of path) {
    const open = text[i];
    if (open === '{' && typeof step === 'string') {
      i = skipSpace(text, i + 1);
      let found = -1;
      while (text[i] !== '}') {
        const keyEnd = skipString(text, i);
        const key = JSON.parse(text.slice(i, keyEnd)) as string;
        i = skipSpace(text, skipSpace(text, keyEnd) + 1); // past the colon
        // The last duplicate wins, as in JSON.parse.
        if (key === step) found = i;
        i = skipSpace(text, skipValue(text, i));
        if (text[i] === ',') i = skipSpace(text, i + 1);
      }
      if (found < 0) return null;
      i = found;
    } else if (open === '[' && typeof step === 'number') {
      i = skipSpace(text, i + 1);
      for (let k = 0; k < step; k++) {
        if (text[i] === ']') return null;
        i = skipSpace(text, skipValue(text, i));
        if (text[i] === ',') i = skipSpace(text, i + 1);
      }
      if (text[i] === ']') return null;
    } else return null;
  }
  return [i, skipValue(text, i)];
}

/** The text of each item of the list at `path` (one pass, for long lists), or null when there is no list there. */
export function rawItemsAt(text: string, path: readonly (string | number)[]): string[] | null {
  const span = rawSpanAt(text, path);
  if (!span || text[span[0]] !== '[') return null;
  const items: string[] = [];
  let i = skipSpace(text, span[0] + 1);
  while (i < span[1] && text[i] !== ']') {
    const end = skipValue(text, i);
    items.push(text.slice(i, end));
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return items;
}

/** The text of the value at `path`, or null when absent. */
export function rawValueAt(text: string, path: readonly (string | number)[]): string | null {
  const span = rawSpanAt(text, path);
  return span ? text.slice(span[0], span[1]) : null;
}

/** The value on one line with no whitespace between tokens; every token as written. */
export function compactRaw(raw: string): string {
  let out = '';
  for (const token of tokensOf(raw)) out += token;
  return out;
}

/** The value laid out as JSON.stringify(value, null, 2) lays it out, every token as written. */
export function prettyRaw(raw: string): string {
  let out = '';
  let depth = 0;
  const newline = () => '\n' + '  '.repeat(depth);
  const tokens = tokensOf(raw);
  for (let next = tokens.next(); !next.done; ) {
    const token = next.value;
    next = tokens.next();
    if (token === '{' || token === '[') {
      // An empty container stays on its line: {} and [].
      if (next.value === (token === '{' ? '}' : ']')) {
        out += token + next.value;
        next = tokens.next();
        continue;
      }
      depth++;
      out += token + newline();
    } else if (token === '}' || token === ']') {
      depth--;
      out += newline() + token;
    } else if (token === ',') out += ',' + newline();
    else if (token === ':') out += ': ';
    else out += token;
  }
  return out;
}

/** The tokens of a JSON text as written: strings, numbers and literals whole, punctuation one by one; whitespace dropped. */
function* tokensOf(raw: string): Generator<string, void, undefined> {
  for (let i = skipSpace(raw, 0); i < raw.length; ) {
    const c = raw[i]!;
    const end = c === '"' ? skipString(raw, i) : '{}[],:'.includes(c) ? i + 1 : skipValue(raw, i);
    yield raw.slice(i, end);
    i = skipSpace(raw, end);
  }
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\r' || c === '\t';

function skipSpace(text: string, i: number): number {
  while (isSpace(text[i])) i++;
  return i;
}

/** Past the string that starts at `i` (its opening quote). */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  return text.length;
}

/** Past the value that starts at `i`. */
function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') j = skipString(text, j) - 1;
      else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return text.length;
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  while (j < text.length && !isSpace(text[j]) && text[j] !== ',' && text[j] !== '}' && text[j] !== ']') j++;
  return j;
}
