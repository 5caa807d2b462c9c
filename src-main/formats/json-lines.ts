// The JSON-per-line reading every line-based format shares: blank lines skipped, bytes
// that are not UTF-8 and text that is not JSON reported with the line number.
import type { ImportItem, ImportSource } from './format';
import { nestingProblem } from './json-limits';

type JsonLine = { kind: 'json'; lineNo: number; text: string; value: unknown } | Extract<ImportItem, { kind: 'problem' }>;

export function* jsonLines(source: ImportSource): Iterable<JsonLine> {
  for (const line of source.lines()) {
    if (line.error) {
      yield { kind: 'problem', line: line.lineNo, reason: line.error };
      continue;
    }
    if (line.text.trim() === '') continue;
    const tooDeep = nestingProblem(line.text);
    if (tooDeep) {
      yield { kind: 'problem', line: line.lineNo, reason: tooDeep };
      continue;
    }
    try {
      yield { kind: 'json', lineNo: line.lineNo, text: line.text, value: JSON.parse(line.text) as unknown };
    } catch (err) {
      yield { kind: 'problem', line: line.lineNo, reason: `not valid JSON (${(err as Error).message})` };
    }
  }
}
