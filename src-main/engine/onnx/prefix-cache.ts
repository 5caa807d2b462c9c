// Paths of a trajectory share their history, so their prompts share a token prefix.
// This keeps the computed cache of recent prompts (least recently used first out,
// bounded by bytes) and hands back the longest part of a new prompt already computed.
//
// Attention keys/values can be cut to any shorter prefix. Conv/recurrent state cannot:
// it summarises every token it saw, so for models that carry it an entry is only usable
// when the whole entry is a prefix of the new prompt, at exactly its stored length.

import type { CacheLayout } from './cache-layout';
import { cutToLength, tensorBytes, type CacheTensors } from './cache-tensors';

interface PrefixEntry {
  tokens: readonly number[];
  /** One-sequence cache after all of `tokens`. */
  cache: CacheTensors;
  /** Next-token logits after the last of `tokens`. */
  logits: Float32Array;
  bytes: number;
}

export interface PrefixHit {
  /** How many leading prompt tokens `cache` covers. */
  length: number;
  cache: CacheTensors;
  /** Next-token logits at `length`, when known (the entry ended exactly there). */
  logits: Float32Array | null;
}

export class PrefixCache {
  /** Insertion order is recency order: the first entry is the least recently used. */
  private readonly entries = new Map<string, PrefixEntry>();
  private usedBytes = 0;

  constructor(
    private readonly layout: CacheLayout,
    private readonly maxBytes: number,
  ) {}

  get bytes(): number {
    return this.usedBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The longest usable computed prefix of `tokens`, or null when nothing is reusable. */
  lookup(tokens: readonly number[]): PrefixHit | null {
    let best: { entry: PrefixEntry; key: string; length: number } | null = null;
    for (const [key, entry] of this.entries) {
      const length = this.usableLength(entry.tokens, tokens);
      if (length > 0 && (!best || length > best.length || (length === best.length && length === entry.tokens.length))) {
        best = { entry, key, length };
      }
    }
    if (!best) return null;
    this.entries.delete(best.key);
    this.entries.set(best.key, best.entry);
    const exact = best.length === best.entry.tokens.length;
    return {
      length: best.length,
      cache: exact ? best.entry.cache : cutToLength(best.entry.cache, this.layout, best.length),
      logits: exact ? best.entry.logits : null,
    };
  }

  /** Whether the cache after exactly `tokens` is kept. */
  has(tokens: readonly number[]): boolean {
    return this.entries.has(tokens.join(','));
  }

  /** Remembers the cache after `tokens`; evicts least recently used entries to stay within budget. */
  insert(tokens: readonly number[], cache: CacheTensors, logits: Float32Array): void {
    if (tokens.length === 0) return;
    const key = tokens.join(',');
    const bytes = cache.reduce((sum, tensor) => sum + tensorBytes(tensor), 0) + logits.byteLength + key.length * 2;
    if (bytes > this.maxBytes) return;
    this.remove(key);
    if (!this.layout.hasState) {
      // A longer attention-only entry can serve every prefix of itself: shorter ones are redundant.
      for (const [otherKey, other] of [...this.entries]) {
        if (other.tokens.length < tokens.length && commonPrefixLength(other.tokens, tokens) === other.tokens.length) {
          this.remove(otherKey);
        }
      }
    }
    while (this.usedBytes + bytes > this.maxBytes && this.entries.size > 0) {
      this.remove(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { tokens: [...tokens], cache, logits, bytes });
    this.usedBytes += bytes;
  }

  clear(): void {
    this.entries.clear();
    this.usedBytes = 0;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.usedBytes -= entry.bytes;
  }

  private usableLength(stored: readonly number[], prompt: readonly number[]): number {
    const common = commonPrefixLength(stored, prompt);
    if (common === stored.length) return common;
    // A partial match needs cut-able caches, and must leave a token to compute the logits from.
    if (this.layout.hasState) return 0;
    return Math.min(common, prompt.length - 1);
  }
}

export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a[i] === b[i]) i++;
  return i;
}
