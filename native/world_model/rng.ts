// The project's seeded random source (mulberry32) with the helpers recordings need, so a
// recording is the same for the same seed on every machine and Node version.
import { mulberry32 } from '../../src-main/common/seeded-random';

export class Rng {
  /** Uniform in [0, 1). */
  readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Picks a key with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    let r = this.next() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [key, w] of entries) {
      r -= w;
      if (r < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }
}

/** A seed for item `index` of a stream, independent of how many items came before. */
export function subSeed(seed: number, stream: string, index: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const ch of `${stream}:${index}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}
