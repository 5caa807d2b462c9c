// What one imported file may make an importer allocate. A file is data from anyone: its
// JSON may nest without end, its lines may never end, its terminal may claim any size.
// Each bound refuses the part past it and says so; nothing past it is ever allocated.

/** Deeper JSON is refused before it is parsed (every reader after the parser recurses). */
export const MAX_JSON_DEPTH = 256;
/** A line longer than this is skipped unread (a JSON record of a trajectory is far smaller). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** A whole-document format (SWE-agent, ATIF) larger than this is refused. */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;
/**
 * What one imported file may decode to in all (a compressed format's rows, a recording's
 * screens), whatever its size on disk: a small file may claim gigabytes. `--max-mib` raises it.
 */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/** Rows an import may hold: one per 256 bytes of what it may decode to (a million by default). */
export const rowsAllowed = (maxBytes: number) => Math.floor(maxBytes / 256);

/** The sentence that says how to raise an import limit. */
export const importLimitHint = (maxBytes: number) =>
  `To import it anyway, raise the limit: worldloom import --max-mib ${Math.ceil((maxBytes * 4) / 1024 / 1024)} (or split the file).`;

/** Why `text` nests too deep to parse, or null. One pass over the characters, no allocation. */
export function nestingProblem(text: string, max = MAX_JSON_DEPTH): string | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return `JSON nested deeper than ${max} levels was refused`;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return null;
}

/** JSON.parse, refusing text that nests deeper than MAX_JSON_DEPTH (the error says so). */
export function parseBoundedJson(text: string): unknown {
  const problem = nestingProblem(text);
  if (problem) throw new SyntaxError(problem);
  return JSON.parse(text) as unknown;
}
