import { describe, expect, it } from 'vitest';
import { exactMatch, tokenF1, tokenize } from './text-match';

describe('exact match', () => {
  it('is 1 only for identical texts, whatever the line endings', () => {
    expect(exactMatch('a\nb', 'a\r\nb')).toBe(1);
    expect(exactMatch('', '')).toBe(1);
    expect(exactMatch('a ', 'a')).toBe(0);
    expect(exactMatch('Ok', 'ok')).toBe(0);
  });
});

describe('token F1', () => {
  it('splits words and punctuation, keeping letters of any script together', () => {
    expect(tokenize("ls: cannot access 'x.txt'")).toEqual(['ls', ':', 'cannot', 'access', "'", 'x', '.', 'txt', "'"]);
    expect(tokenize('naïve 日本語 ok_2')).toEqual(['naïve', '日本語', 'ok_2']);
  });

  it('matches hand-computed scores', () => {
    // sim: a b c d; real: a b e → common 2, P = 2/4, R = 2/3, F1 = 4/7.
    expect(tokenF1('a b c d', 'a b e')).toBeCloseTo(4 / 7, 10);
    // Repeated tokens count only as often as they appear on both sides.
    expect(tokenF1('x x x', 'x')).toBeCloseTo(0.5, 10);
    expect(tokenF1('same text', 'same text')).toBe(1);
  });

  it('handles empty sides', () => {
    expect(tokenF1('', '')).toBe(1);
    expect(tokenF1('  \n', '')).toBe(1);
    expect(tokenF1('a', '')).toBe(0);
    expect(tokenF1('', 'a')).toBe(0);
    expect(tokenF1('a', 'b')).toBe(0);
  });
});
