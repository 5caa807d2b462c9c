// jsonRecordLines: every line an object naming its kind in one string field; anything else is a
// problem on that field with the format's own description, by line, and the rest read on.
import { describe, expect, it } from 'vitest';
import { jsonRecordLines } from './json-lines';
import { textSource } from './sources';

describe('jsonRecordLines', () => {
  it('passes objects with the field as a string, and names every other line as a problem', () => {
    const text = ['{"type":"user","n":1}', '[1,2]', '{"type":3}', 'null', '', '{"type":"tool"}', '{not json'].join('\n');
    const out = [...jsonRecordLines(textSource('s.jsonl', text), 'type', 'a record is an object with a "type"')];
    expect(out.filter((i) => i.kind === 'json').map((i) => [i.kind === 'json' && i.lineNo, i.kind === 'json' && i.value.type])).toEqual([
      [1, 'user'],
      [6, 'tool'],
    ]);
    const problems = out.filter((i) => i.kind === 'problem');
    expect(problems.map((p) => p.line)).toEqual([2, 3, 4, 7]);
    expect(problems.slice(0, 3).every((p) => p.field === 'type' && p.reason === 'a record is an object with a "type"')).toBe(true);
    expect(problems[3]!.reason).toMatch(/not valid JSON/);
  });
});
