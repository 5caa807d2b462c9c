import { describe, expect, it } from 'vitest';
import { diffLines, lineSimilarity, splitLines } from './line-diff';

/** LCS length by dynamic programming: the count the diff must reproduce. */
function lcs(a: string[], b: string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = [0];
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    prev = cur;
  }
  return prev[b.length]!;
}

describe('line diff', () => {
  it('counts added, removed and unchanged lines', () => {
    const d = diffLines('a\nb\nc\nd', 'a\nx\nc\nd\ne');
    expect([d.added, d.removed, d.unchanged, d.exact]).toEqual([2, 1, 3, true]);
    expect(d.hunks).toEqual([
      { removed: ['b'], added: ['x'] },
      { removed: [], added: ['e'] },
    ]);
    expect(lineSimilarity(d)).toBeCloseTo(6 / 9, 10);
  });

  it('handles empty and identical texts', () => {
    expect(diffLines('', '')).toMatchObject({ added: 0, removed: 0, unchanged: 0, hunks: [] });
    expect(diffLines('', 'a\nb')).toMatchObject({ added: 2, removed: 0 });
    expect(diffLines('a\nb', '')).toMatchObject({ added: 0, removed: 2 });
    expect(diffLines('x\ny', 'x\ny')).toMatchObject({ added: 0, removed: 0, unchanged: 2 });
    expect(lineSimilarity(diffLines('', ''))).toBe(1);
    expect(splitLines('a\r\nb')).toEqual(['a', 'b']);
  });

  it('finds a longest common subsequence of lines on random inputs', () => {
    let s = 7;
    const next = () => ((s = (s * 1103515245 + 12345) % 2147483648), s);
    for (let round = 0; round < 80; round++) {
      const a = Array.from({ length: next() % 40 }, () => 'abcde'[next() % 5]!);
      const b = Array.from({ length: next() % 40 }, () => 'abcde'[next() % 5]!);
      const d = diffLines(a.join('\n'), b.join('\n'));
      expect(d.unchanged).toBe(lcs(a, b));
      expect(d.removed).toBe(a.length - d.unchanged);
      expect(d.added).toBe(b.length - d.unchanged);
    }
  });

  it('gives up cleanly past the edit cap, counting the lines between the common head and tail as changed', () => {
    const a = Array.from({ length: 300 }, (_, i) => (i % 3 ? `a${i}` : '')).join('\n');
    const b = Array.from({ length: 300 }, (_, i) => (i % 5 ? `b${i}` : '')).join('\n');
    const exact = diffLines(a, b);
    const capped = diffLines(a, b, 10);
    expect(capped.exact).toBe(false);
    expect(capped.unchanged).toBeLessThanOrEqual(exact.unchanged);
    expect(capped.added + capped.unchanged).toBe(300);
  });
});
