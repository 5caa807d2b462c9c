// Picks the next token from one row of logits: greedy, or temperature + top-k + top-p
// sampling driven by a per-request seeded generator, so the same seed gives the same
// text whether the request runs alone or inside a batch. Repetition and presence penalties
// reshape the logits first, as transformers and vLLM apply them.
import { mix32, mulberry32 } from '../../common/seeded-random';

export interface SamplerSettings {
  /** 0 (or less) means greedy. */
  temperature: number;
  /** 0 (or less) means no top-k cut. */
  topK: number;
  /** 1 (or more) means no nucleus cut. */
  topP: number;
  /** Subtracted once from the logit of every token generated so far (OpenAI/vLLM presence penalty). */
  presencePenalty?: number;
  /**
   * transformers' repetition penalty over the prompt and the generated tokens: a positive
   * logit is divided by it, a negative one multiplied.
   */
  repetitionPenalty?: number;
}

/** The tokens a row's penalties look at. */
export interface TokenHistory {
  /** Tokens this request generated. */
  generated: Set<number>;
  /** Prompt and generated tokens. */
  seen: Set<number>;
}

/** A step whose logits hold NaN or infinity: broken weights or a broken conversion. */
export class NonFiniteLogitsError extends Error {
  constructor() {
    super(
      'The model produced NaN or infinite logits, so no token can be chosen. Its weights or its conversion are broken: ' +
        'convert the model again (fp32 to rule out fp16 overflow) or use another copy. Nothing was stored.',
    );
  }
}

/** A uniform float in [0, 1). */
export type RandomSource = () => number;

/**
 * The project's seeded generator (mulberry32) for one request. Seeds beyond 32 bits are
 * folded in so nearby large seeds still differ, and the seed is mixed so samples seeded
 * 1, 2, 3 do not start alike.
 */
export function seededRandom(seed: number): RandomSource {
  const whole = Math.floor(Math.abs(seed));
  return mulberry32(mix32((whole >>> 0) ^ Math.floor(whole / 4294967296)));
}

export function sampleToken(
  logits: Float32Array,
  settings: SamplerSettings,
  random: RandomSource,
  history?: TokenHistory,
): number {
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += logits[i]!;
  if (!Number.isFinite(sum)) throw new NonFiniteLogitsError();
  if (history) logits = penalised(logits, settings, history);
  if (!(settings.temperature > 0)) return argmax(logits);
  const candidates = settings.topK > 0 && settings.topK < logits.length
    ? topKIndices(logits, Math.floor(settings.topK))
    : Array.from(logits.keys());
  // Highest first, ties by id so the order never depends on the sort's stability.
  candidates.sort((a, b) => logits[b]! - logits[a]! || a - b);

  const inverseTemperature = 1 / settings.temperature;
  const best = logits[candidates[0]!]!;
  const weights = candidates.map((id) => Math.exp((logits[id]! - best) * inverseTemperature));
  let total = weights.reduce((sum, w) => sum + w, 0);

  let kept = candidates.length;
  if (settings.topP > 0 && settings.topP < 1) {
    let cumulative = 0;
    for (let i = 0; i < candidates.length; i++) {
      cumulative += weights[i]!;
      if (cumulative >= settings.topP * total) {
        kept = i + 1;
        break;
      }
    }
    total = weights.slice(0, kept).reduce((sum, w) => sum + w, 0);
  }

  let threshold = random() * total;
  for (let i = 0; i < kept; i++) {
    threshold -= weights[i]!;
    if (threshold < 0) return candidates[i]!;
  }
  return candidates[kept - 1]!;
}

function penalised(logits: Float32Array, settings: SamplerSettings, history: TokenHistory): Float32Array {
  const repetition = settings.repetitionPenalty ?? 1;
  const presence = settings.presencePenalty ?? 0;
  if (repetition === 1 && presence === 0) return logits;
  const out = Float32Array.from(logits);
  if (repetition !== 1 && repetition > 0) {
    for (const id of history.seen) {
      if (id < 0 || id >= out.length) continue;
      out[id] = out[id]! > 0 ? out[id]! / repetition : out[id]! * repetition;
    }
  }
  if (presence !== 0) for (const id of history.generated) if (id >= 0 && id < out.length) out[id] = out[id]! - presence;
  return out;
}

export function argmax(values: Float32Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

/** Ids of the k largest values, in no particular order: a size-k min-heap, O(n log k). */
function topKIndices(values: Float32Array, k: number): number[] {
  const heap: number[] = [];
  // Heap order: smaller value first; on equal values the larger id is "smaller" so lower ids win.
  const less = (a: number, b: number): boolean => values[a]! < values[b]! || (values[a] === values[b] && a > b);
  const siftDown = (start: number): void => {
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && less(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && less(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
      i = smallest;
    }
  };
  for (let id = 0; id < values.length; id++) {
    if (heap.length < k) {
      heap.push(id);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!less(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (less(heap[0]!, id)) {
      heap[0] = id;
      siftDown(0);
    }
  }
  return heap;
}
