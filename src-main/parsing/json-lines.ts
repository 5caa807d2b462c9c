// The JSON-per-line reading every line-based format shares: blank lines skipped, bytes
// that are not UTF-8 and text that is not JSON reported with the line number.
import type { ImportItem } from './import-item';
import type { ImportSource } from './sources';
import { MAX_JSON_DEPTH, nestingProblem } from './json-limits';

/** Whether a parsed value nests arrays and objects more than `max` deep; walked without recursion. */
export function deeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

type JsonLine = { kind: 'json'; lineNo: number; text: string; value: unknown } | Extract<ImportItem, { kind: 'problem' }>;

export function* jsonLines(source: ImportSource): Iterable<JsonLine> {
  for (const line of source.lines()) {
    if (line.error) {
      yield { kind: 'problem', line: line.lineNo, reason: line.error };
      continue;
    }
    if (line.text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line.text) as unknown;
    } catch (err) {
      // A line nested past what the parser takes fails here too: say that, not a parse error.
      yield { kind: 'problem', line: line.lineNo, reason: nestingProblem(line.text) ?? `not valid JSON (${(err as Error).message})` };
      continue;
    }
    // The depth is checked on the parsed value (a few nodes), not the text (every character):
    // the readers after the parser recurse, so a value nested too deep is refused here.
    if (deeperThan(value, MAX_JSON_DEPTH)) {
      yield { kind: 'problem', line: line.lineNo, reason: nestingProblem(line.text) ?? `nested deeper than ${MAX_JSON_DEPTH} levels` };
      continue;
    }
    yield { kind: 'json', lineNo: line.lineNo, text: line.text, value };
  }
}

type JsonRecordLine<F extends string> = { kind: 'json'; lineNo: number; text: string; value: Record<string, unknown> & Record<F, string> } | Extract<ImportItem, { kind: 'problem' }>;

/**
 * The JSON lines of a format whose every line is an object naming its kind in one string field
 * (`type`, `role`): a line that is not such an object is reported as a problem on that field,
 * with `shape` saying what the format's records look like.
 */
export function* jsonRecordLines<F extends string>(source: ImportSource, field: F, shape: string): Iterable<JsonRecordLine<F>> {
  for (const item of jsonLines(source)) {
    if (item.kind === 'problem') yield item;
    else if (typeof item.value !== 'object' || item.value === null || Array.isArray(item.value) || typeof (item.value as Record<string, unknown>)[field] !== 'string')
      yield { kind: 'problem', line: item.lineNo, field, reason: shape };
    else yield { ...item, value: item.value as Record<string, unknown> & Record<F, string> };
  }
}
