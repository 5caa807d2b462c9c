import { describe, expect, it } from 'vitest';
import { jsonSyntaxErrorAt } from './json-syntax';

describe('locating JSON syntax errors', () => {
  it('finds nothing wrong in valid JSON', () => {
    for (const text of ['{}', '[1, -2.5e3, "a\\"b", true, null, {"k": [ ]}]', ' "x" ']) expect(jsonSyntaxErrorAt(text), text).toBeUndefined();
  });

  it('points at the first offending character', () => {
    expect(jsonSyntaxErrorAt('{\n  "a": [,]\n}')).toEqual({ line: 2, column: 9 });
    expect(jsonSyntaxErrorAt('{"a": 1,}')).toEqual({ line: 1, column: 9 });
    expect(jsonSyntaxErrorAt('{"a": 1} x')).toEqual({ line: 1, column: 10 });
    expect(jsonSyntaxErrorAt("{'a': 1}")).toEqual({ line: 1, column: 2 });
    expect(jsonSyntaxErrorAt('{"a": "open')).toEqual({ line: 1, column: 12 });
  });
});
