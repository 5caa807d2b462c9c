import { describe, expect, it } from 'vitest';
import { compactRaw, prettyRaw, rawItemsAt, rawValueAt } from './json-raw';

describe('JSON values as written', () => {
  const text = '{ "a" : [1, {"x": "q\\"}", "y": 2.50}], "a2": null, "b": {"c": true}, "b": {"c": 1.0} }';

  it('finds a value by its path, the last of duplicate keys as JSON.parse does', () => {
    expect(rawValueAt(text, ['a', 1, 'y'])).toBe('2.50');
    expect(rawValueAt(text, ['a', 1, 'x'])).toBe('"q\\"}"');
    expect(rawValueAt(text, ['b'])).toBe('{"c": 1.0}');
    expect(rawValueAt(text, ['a', 5])).toBeNull();
    expect(rawValueAt(text, ['missing'])).toBeNull();
    expect(rawItemsAt(text, ['a'])).toEqual(['1', '{"x": "q\\"}", "y": 2.50}']);
  });

  it('re-spaces without changing a token, as JSON.stringify lays out', () => {
    const raw = '{"k": [ ], "o":{}, "n": [1, 2.0], "s": "a , b: {c}"}';
    expect(compactRaw(raw)).toBe('{"k":[],"o":{},"n":[1,2.0],"s":"a , b: {c}"}');
    expect(prettyRaw(raw)).toBe('{\n  "k": [],\n  "o": {},\n  "n": [\n    1,\n    2.0\n  ],\n  "s": "a , b: {c}"\n}');
    const plain = { a: [1, { b: 'x' }], c: {}, d: [] };
    expect(prettyRaw(JSON.stringify(plain))).toBe(JSON.stringify(plain, null, 2));
  });
});
