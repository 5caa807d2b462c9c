// Whole-file JSON formats (SWE-agent .traj, ATIF trajectory.json): parse errors carry a
// line number when the engine reports a position, and content fields that may be a plain
// string or a list of typed parts are read the same way everywhere.
import type { z } from 'zod';
import type { ImportItem } from './import-item';
import { nestingProblem } from './json-limits';

export type Problem = Extract<ImportItem, { kind: 'problem' }>;

export function parseJsonDocument(text: string): { value: unknown } | { problem: Problem } {
  const tooDeep = nestingProblem(text);
  if (tooDeep) return { problem: { kind: 'problem', line: null, reason: tooDeep } };
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    const message = (err as Error).message;
    const lineCol = /\(line (\d+) column \d+\)/.exec(message);
    const position = /at position (\d+)/.exec(message);
    let line: number | null = null;
    if (lineCol) line = Number(lineCol[1]);
    else if (position) line = text.slice(0, Number(position[1])).split('\n').length;
    return { problem: { kind: 'problem', line, reason: `not valid JSON (${message})` } };
  }
}

/**
 * The document's value, for an importer's parse to `yield*`: a text that is not JSON (or
 * nests too deep) yields its problem and gives undefined, which no JSON value is.
 */
export function* jsonDocument(text: string): Generator<ImportItem, unknown, undefined> {
  const doc = parseJsonDocument(text);
  if ('problem' in doc) {
    yield doc.problem;
    return undefined;
  }
  return doc.value;
}

const NOUNS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
  undefined: 'missing',
  nan: 'not a number',
};
const noun = (type: string) => NOUNS[type] ?? type;

/**
 * One schema issue in a user's words ("trajectory.1.action should be text, not a number"),
 * never the schema library's own wording, which names its types and not the file's.
 */
export function plainZodIssue(issue: z.core.$ZodIssue, field: string): string {
  switch (issue.code) {
    case 'invalid_type': {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      if (received === 'undefined') return `${field} is missing (it should be ${noun(issue.expected)})`;
      return `${field} should be ${noun(issue.expected)}${received ? `, not ${noun(received)}` : ''}`;
    }
    case 'invalid_value':
      return `${field} should be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return `${field} is too short or too small (at least ${String(issue.minimum)})`;
    case 'too_big':
      return `${field} is too long or too large (at most ${String(issue.maximum)})`;
    case 'invalid_union':
      return `${field} has a value of none of the accepted kinds`;
    default:
      // Our own schemas' messages (custom checks, formats given a message) are already plain.
      return /^Invalid /.test(issue.message) ? `${field} has a value this format does not accept` : `${field}: ${issue.message}`;
  }
}

/** A zod failure as a problem whose field is the JSON path, prefixed with where the value sits. */
export function zodProblem(error: z.ZodError, prefix: readonly (string | number)[] = []): Problem {
  const issue = error.issues[0]!;
  const field = [...prefix, ...issue.path].map(String).join('.') || '(document)';
  return { kind: 'problem', line: null, field, reason: plainZodIssue(issue, field) };
}

/** Message content as text: a string, or parts like [{type: "text", text}] or [{type, value}] joined; parts with no text (an image) are named. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content)) return content.map(contentText).join('\n');
  if (typeof content === 'object') {
    const part = content as Record<string, unknown>;
    if (typeof part.text === 'string') return part.text;
    // LLaMA-Factory and others keep a part's text under `value`.
    if (typeof part.value === 'string') return part.value;
    if (typeof part.type === 'string') return `[${part.type}]`;
  }
  return JSON.stringify(content);
}
