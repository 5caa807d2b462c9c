import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed, randomHex } from './rng';

describe('seeded randomness', () => {
  it('repeats exactly for a seed and differs between seeds', () => {
    const draw = (seed: number) => {
      const rng = createRng(seed);
      return Array.from({ length: 5 }, () => rng.next());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(draw(7).every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('keeps its helpers in range', () => {
    const rng = createRng(1);
    for (let i = 0; i < 200; i++) {
      const n = rng.between(3, 5);
      expect(n >= 3 && n <= 5).toBe(true);
    }
    const picked = rng.sample(10, 4);
    expect(picked).toHaveLength(4);
    expect(new Set(picked).size).toBe(4);
    expect(picked).toEqual([...picked].sort((a, b) => a - b));
    expect(rng.sample(3, 9)).toEqual([0, 1, 2]);
    expect(randomHex(rng, 12)).toMatch(/^[0-9a-f]{12}$/);
    expect(() => rng.pick([])).toThrow();
  });

  it('derives stable, non-negative 31-bit seeds that differ by label and by base seed', () => {
    expect(deriveSeed(1, 'web.captcha')).toBe(deriveSeed(1, 'web.captcha'));
    expect(deriveSeed(1, 'web.captcha')).not.toBe(deriveSeed(1, 'web.error-page'));
    expect(deriveSeed(1, 'web.captcha')).not.toBe(deriveSeed(2, 'web.captcha'));
    for (const s of [0, 1, -5, 2 ** 31 + 3]) {
      const d = deriveSeed(s, 'x');
      expect(Number.isInteger(d) && d >= 0 && d < 2 ** 31).toBe(true);
    }
  });
});
