// Whole-file JSON formats (SWE-agent .traj, ATIF trajectory.json): parse errors carry a
// line number when the engine reports a position, and content fields that may be a plain
// string or a list of typed parts are read the same way everywhere.
import type { z } from 'zod';
import type { ImportItem } from './format';
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

/** A zod failure as a problem whose field is the JSON path, prefixed with where the value sits. */
export function zodProblem(error: z.ZodError, prefix: readonly (string | number)[] = []): Problem {
  const issue = error.issues[0]!;
  const field = [...prefix, ...issue.path].map(String).join('.') || '(document)';
  return { kind: 'problem', line: null, field, reason: `${field}: ${issue.message}` };
}

/** Message content as text: a string, or parts like [{type: "text", text}] joined; other parts are named. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content)) return content.map(contentText).join('\n');
  if (typeof content === 'object') {
    const part = content as Record<string, unknown>;
    if (typeof part.text === 'string') return part.text;
    if (typeof part.type === 'string') return `[${part.type}]`;
  }
  return JSON.stringify(content);
}
