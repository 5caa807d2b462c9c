// The arithmetic of the GPU bench (bench/gpu.ts), apart from any engine so it can be checked alone:
// the bytes a decode step reads, the rate the memory bandwidth allows for them, and the full
// model's rates projected from two depths of the same layers.

/** What one decode step must read of a GGUF's weights, split by how routing changes it. */
export interface WeightBytes {
  /** Bytes read whole every step: attention, linear attention, norms, router, shared expert. */
  dense: number;
  /** Bytes of all routed experts of all layers (a step reads the share its tokens route to). */
  experts: number;
  /** Bytes of the output head (read whole every step; apart so the full model's head can replace it). */
  head: number;
  /** Rows of the output head (the vocabulary it scores, padding included). */
  headRows: number;
  /** Routed experts per layer, and how many each token uses. */
  expertCount: number;
  expertsUsed: number;
  layers: number;
}

/**
 * Distinct experts a step of `sequences` tokens reads in one layer, each token routing to `used`
 * of `count`, on uniform routing (random weights route about uniformly): count · (1 − (1 − used/count)^n).
 */
export function expectedDistinctExperts(count: number, used: number, sequences: number): number {
  if (count <= 0 || used <= 0) return 0;
  return count * (1 - (1 - used / count) ** sequences);
}

/** Bytes of weights one decode step of `sequences` parallel tokens reads (the embedding table aside: a few rows). */
export function bytesPerStep(weights: WeightBytes, sequences: number): number {
  const share = weights.expertCount > 0 ? expectedDistinctExperts(weights.expertCount, weights.expertsUsed, sequences) / weights.expertCount : 1;
  return weights.dense + weights.head + weights.experts * share;
}

/** Tokens per second the bandwidth allows at `sequences` parallel tokens: every step reads bytesPerStep once. */
export function bandwidthLimit(weights: WeightBytes, sequences: number, bandwidthBytesPerSecond: number): number {
  return (sequences * bandwidthBytesPerSecond) / bytesPerStep(weights, sequences);
}

/** The same layers at two depths: a step takes fixed + perLayer · layers seconds. */
export interface DepthPair {
  shallow: { layers: number; seconds: number };
  deep: { layers: number; seconds: number };
}

export function splitPerLayer({ shallow, deep }: DepthPair): { fixedSeconds: number; perLayerSeconds: number } {
  if (deep.layers <= shallow.layers) throw new Error(`the deeper model must have more layers (${deep.layers} ≤ ${shallow.layers})`);
  const perLayerSeconds = (deep.seconds - shallow.seconds) / (deep.layers - shallow.layers);
  return { fixedSeconds: deep.seconds - perLayerSeconds * deep.layers, perLayerSeconds };
}

/**
 * Seconds a step of the full model would take: the measured fixed part, `layers` times the measured
 * per-layer cost, and the full model's bigger output head read at the bandwidth the layers reached
 * (`extraHeadBytes` ÷ (layer bytes ÷ per-layer seconds)). A projection, not a measurement; null when
 * the deeper model was not the slower one.
 */
export function projectSeconds(pair: DepthPair, layers: number, extraHeadBytes = 0, bytesPerLayer = 0): number | null {
  const { fixedSeconds, perLayerSeconds } = splitPerLayer(pair);
  // The deeper model no slower: noise outweighed the layers' cost, and nothing can be projected.
  if (perLayerSeconds <= 0) return null;
  const layerBandwidth = perLayerSeconds > 0 && bytesPerLayer > 0 ? bytesPerLayer / perLayerSeconds : 0;
  const head = layerBandwidth > 0 ? extraHeadBytes / layerBandwidth : 0;
  return Math.max(0, fixedSeconds) + layers * perLayerSeconds + head;
}

/** Qwen3.5-35B-A3B, the reference model, as its config declares it (the bench's checkpoints share its per-layer sizes). */
export const REFERENCE_MODEL = { name: 'Qwen3.5-35B-A3B', layers: 40, vocabulary: 248_320, hidden: 2048 } as const;
