import { describe, expect, it } from 'vitest';
import { editDistance, editSimilarity, myersDistance } from './edit-distance';

/** Textbook O(n·m) dynamic programme, the reference the bit-parallel version must agree with. */
function referenceDistance(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length]!;
}

/** Deterministic pseudo-random text (xorshift), so failures reproduce. */
function randomText(seed: number, length: number, alphabet: string): string {
  const chars = Array.from(alphabet);
  let s = seed || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out += chars[Math.abs(s) % chars.length];
  }
  return out;
}

describe('edit distance', () => {
  it('matches hand-computed distances', () => {
    expect(editDistance('kitten', 'sitting')).toEqual({ distance: 3, exact: true });
    expect(editDistance('flaw', 'lawn').distance).toBe(2);
    expect(editDistance('', 'abc').distance).toBe(3);
    expect(editDistance('abc', '').distance).toBe(3);
    expect(editDistance('', '').distance).toBe(0);
    expect(editDistance('same', 'same').distance).toBe(0);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(editDistance('😀', '😃').distance).toBe(1);
    expect(editDistance('naïve café', 'naive cafe').distance).toBe(2);
    expect(editDistance('日本語', '日本').distance).toBe(1);
  });

  it('agrees with the reference on random pairs, across 32-character block boundaries', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const a = randomText(seed, (seed * 7) % 140, 'abcd é');
      const b = randomText(seed * 31 + 7, (seed * 13) % 150, 'abcd é');
      expect(myersDistance(Array.from(a, (c) => c.codePointAt(0)!), Array.from(b, (c) => c.codePointAt(0)!))).toBe(referenceDistance(a, b));
      expect(editDistance(a, b).distance).toBe(referenceDistance(a, b));
    }
    for (const m of [31, 32, 33, 63, 64, 65]) {
      const a = randomText(m, m, 'ab');
      const b = randomText(m + 100, m + 3, 'ab');
      expect(editDistance(a, b).distance).toBe(referenceDistance(a, b));
    }
  });

  it('handles long, mostly equal texts: exact near the ends, line-aligned in between', () => {
    const base = Array.from({ length: 4000 }, (_, i) => `line ${i}: ${randomText(i + 1, 30, 'abcdefgh ')}`).join('\n');
    // Common prefix and suffix are stripped, so edits close together stay cheap and exact.
    expect(editDistance(base, base.replace('line 2000:', 'line 2000;').replace('line 2001', 'line 20010'))).toEqual({ distance: 2, exact: true });
    // Edits 80 KB apart exceed the budget; the line-aligned bound still finds the 2 edits.
    expect(editDistance(base, base.replace('line 1000:', 'line 1000;').replace('line 3000', 'line 30000'))).toEqual({ distance: 2, exact: false });
    expect(editSimilarity(base, base + '!')).toBeCloseTo(1 - 1 / (base.length + 1), 12);
  });

  it('falls back to a line-aligned upper bound past the work budget', () => {
    const a = 'alpha\nbravo\ncharlie\ndelta';
    const b = 'alpha\nbravx\ncharlie\ndelta\necho';
    const exact = editDistance(a, b);
    const bounded = editDistance(a, b, 1);
    expect(exact).toEqual({ distance: 6, exact: true });
    expect(bounded.exact).toBe(false);
    expect(bounded.distance).toBe(6);
    const far = editDistance('abc\nxyz', 'xyz\nabc', 1);
    expect(far.distance).toBeGreaterThanOrEqual(editDistance('abc\nxyz', 'xyz\nabc').distance);
  });
});

describe('edit similarity', () => {
  it('is 1 − distance / longer length', () => {
    expect(editSimilarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 10);
    expect(editSimilarity('', '')).toBe(1);
    expect(editSimilarity('abc', '')).toBe(0);
    expect(editSimilarity('abc', 'abc')).toBe(1);
    expect(editSimilarity('😀😀', '😀😃')).toBe(0.5);
  });
});
