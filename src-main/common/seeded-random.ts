// The one seeded random source of the project: perturbation transforms, the ONNX sampler,
// the dataset split, the recorded demo sessions and the benchmark fixtures all draw from it,
// so a recorded seed means the same thing everywhere. Not for anything security-related.

/**
 * Mulberry32: 32 bits of state, fast, and well distributed for sampling and shuffling.
 * Returns a uniform float in [0, 1) per call. The algorithm must not change: recorded seeds
 * (perturbed nodes, splits, demo recordings) are replayed and pinned by tests.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The murmur3 finalizer: spreads neighbouring integers (seeds 1, 2, 3) far apart. */
export function mix32(x: number): number {
  let z = x >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}
