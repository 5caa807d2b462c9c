// Seeded randomness for transforms. A transform's choices (which test flakes, where output
// is cut) come only from this generator, so the same seed always gives the same
// observation: a perturbed node can be re-run from its recorded provenance.
import { mix32, mulberry32 } from '../seeded-random';

/** A small deterministic random source. Not for anything security-related. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** An integer in [min, max], both ends included. */
  between(min: number, max: number): number;
  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** `count` distinct indexes of a list of `length` items, in ascending order. */
  sample(length: number, count: number): number[];
}

/**
 * The project's mulberry32, with the seed mixed first because mulberry32's first outputs
 * for neighbouring seeds are correlated, and users do pick seeds 1, 2, 3.
 */
export function createRng(seed: number): Rng {
  const next = mulberry32(mix32(seed));
  const int = (maxExclusive: number): number => Math.floor(next() * Math.max(1, Math.floor(maxExclusive)));
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('Rng.pick needs at least one item.');
      return items[int(items.length)] as T;
    },
    chance: (p) => next() < p,
    sample(length, count) {
      const indexes = Array.from({ length }, (_, i) => i);
      for (let i = indexes.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [indexes[i], indexes[j]] = [indexes[j]!, indexes[i]!];
      }
      return indexes.slice(0, Math.max(0, Math.min(count, length))).sort((a, b) => a - b);
    },
  };
}

/**
 * A seed for one member of a group (one kind of a sweep), derived from the group's seed
 * and the member's name: FNV-1a over the name, combined with the seed, then mixed. Stable across runs and machines; a non-negative 31-bit integer so it stores
 * and prints the same everywhere.
 */
export function deriveSeed(seed: number, label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h ^ Math.imul(seed >>> 0, 0x9e3779b9)) & 0x7fffffff;
}

/** Hex digits drawn from the generator, for things like commit hashes and key fingerprints. */
export function randomHex(rng: Rng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += rng.int(16).toString(16);
  return out;
}
