// Prefix reuse between paths on node-llama-cpp's public API. A context holds a fixed set
// of sequences; each keeps the tokens it last evaluated. node-llama-cpp cannot copy one
// sequence's state into another, so reuse means giving a prompt to the sequence whose
// evaluated tokens share the longest prefix with it, erasing the rest, and evaluating only
// what differs. Attention caches can be cut anywhere; recurrent state (Qwen3.5's linear
// attention) cannot, so a hybrid model's sequence keeps checkpoints (node-llama-cpp's
// takeCheckpoint) where later prompts are likely to diverge: at each snapshot point and just
// before the prompt's last token. Erasing back to a prefix then restores the nearest
// checkpoint at or before it and evaluates forward from there.

import type { LlamaContext, LlamaContextSequence, Token } from 'node-llama-cpp';

/** node-llama-cpp brands token ids; the app's are plain numbers from the same vocabulary. */
export const asTokens = (ids: readonly number[]): Token[] => ids as Token[];

export class PrefillCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export interface PrefillOutcome {
  /** Prompt tokens that were already in the sequence and not evaluated again. */
  reusedTokens: number;
  computeMs: number;
}

export class SequencePool {
  private readonly sequences: LlamaContextSequence[];
  private readonly busy = new Set<LlamaContextSequence>();
  /** Requests waiting for a sequence, first come first served. */
  private readonly waiting: (() => void)[] = [];
  private lastUsed = new Map<LlamaContextSequence, number>();
  private clock = 0;

  constructor(
    private readonly context: LlamaContext,
    /** false evaluates every prompt from scratch (a baseline for benchmarks). */
    private readonly reuse: boolean,
  ) {
    this.sequences = Array.from({ length: context.totalSequences }, () => context.getSequence());
  }

  get size(): number {
    return this.sequences.length;
  }

  /** Bytes the hybrid models' checkpoints hold, all sequences together. */
  get checkpointBytes(): number {
    return this.sequences.reduce((sum, sequence) => sum + sequence.checkpointsMemoryUsage, 0);
  }

  /**
   * Takes a free sequence for `tokens`: the one that already holds the longest prefix of them
   * (least recently used among equals, so K samples of a new prompt spread over idle sequences).
   */
  acquire(tokens: readonly number[]): LlamaContextSequence {
    let best: LlamaContextSequence | null = null;
    let bestShared = -1;
    for (const sequence of this.sequences) {
      if (this.busy.has(sequence)) continue;
      const shared = this.reuse ? sequence.compareContextTokens(asTokens(tokens)).firstDifferentIndex : 0;
      const older = best !== null && shared === bestShared && (this.lastUsed.get(sequence) ?? 0) < (this.lastUsed.get(best) ?? 0);
      if (shared > bestShared || older) {
        best = sequence;
        bestShared = shared;
      }
    }
    if (!best) throw new Error('every sequence of the context is in use');
    this.busy.add(best);
    this.lastUsed.set(best, ++this.clock);
    return best;
  }

  /**
   * Like acquire, but waits while every sequence is in use: concurrent steps (a fan-out) each
   * take a sequence as one frees up, and all that hold one decode together. Rejects with
   * PrefillCancelled if `signal` aborts first.
   */
  async acquireWhenFree(tokens: readonly number[], signal?: AbortSignal): Promise<LlamaContextSequence> {
    while (this.busy.size >= this.sequences.length) {
      if (signal?.aborted) throw new PrefillCancelled();
      await new Promise<void>((wake) => {
        const onAbort = () => {
          const at = this.waiting.indexOf(wake);
          if (at >= 0) this.waiting.splice(at, 1);
          wake();
        };
        this.waiting.push(() => {
          signal?.removeEventListener('abort', onAbort);
          wake();
        });
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    if (signal?.aborted) throw new PrefillCancelled();
    return this.acquire(tokens);
  }

  release(sequence: LlamaContextSequence): void {
    this.busy.delete(sequence);
    this.waiting.shift()?.();
  }

  /**
   * Brings `sequence` to hold every prompt token but the last (which generation evaluates to
   * get its first logits), keeping what it shares with the prompt and checkpointing at `snapshots`.
   * Evaluates in slices of one batch, so an abort takes effect within one step.
   */
  async prefill(
    sequence: LlamaContextSequence,
    tokens: readonly number[],
    snapshots: readonly number[],
    signal?: AbortSignal,
  ): Promise<PrefillOutcome> {
    const started = performance.now();
    const head = tokens.slice(0, -1);
    if (!this.reuse) await sequence.clearHistory();
    // Keeps the shared prefix of `head` and erases the rest; on a hybrid model this may fall
    // back to an earlier checkpoint, which is where nextTokenIndex then stands.
    else await sequence.adaptStateToTokens(asTokens(head), false);
    const reusedTokens = sequence.nextTokenIndex;
    const stops = [...snapshots.filter((point) => point > reusedTokens && point < head.length), head.length];
    const step = Math.max(1, this.context.batchSize);
    for (const stop of stops) {
      while (sequence.nextTokenIndex < stop) {
        if (signal?.aborted) throw new PrefillCancelled();
        const from = sequence.nextTokenIndex;
        await sequence.evaluateWithoutGeneratingNewTokens(asTokens(head).slice(from, Math.min(stop, from + step)));
      }
      if (this.reuse && sequence.needsCheckpoints && sequence.nextTokenIndex > 0) await sequence.takeCheckpoint();
    }
    return { reusedTokens, computeMs: performance.now() - started };
  }

  async dispose(): Promise<void> {
    for (const sequence of this.sequences) sequence.dispose();
  }
}
