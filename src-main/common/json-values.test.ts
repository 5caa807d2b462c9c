import { describe, expect, it } from 'vitest';
import { closingBracket } from './json-values';

describe('closingBracket', () => {
  it('finds where an object or list closes, skipping brackets inside strings and escaped quotes', () => {
    const text = 'say {"a": ["}", "\\"]"], "b": {"c": 1}} then more';
    expect(text.slice(4, closingBracket(text, 4) + 1)).toBe('{"a": ["}", "\\"]"], "b": {"c": 1}}');
    expect(closingBracket('[1, [2, 3]] x', 0)).toBe(10);
    expect(closingBracket('{"open": [1, 2}', 0)).toBe(-1);
  });
});
