import ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import type { CacheLayout, CacheSlot } from './cache-layout';
import { stackRows, selectRows, type CacheTensors } from './cache-tensors';
import { PrefixCache } from './prefix-cache';

// One key slot [batch, 1 head, seq, 2] and optionally one state slot [batch, 3].
const keySlot: CacheSlot = { input: 'past.0.key', output: 'present.0.key', kind: 'sequence', type: 'float32', shape: [1, 1, 0, 2], sequenceAxis: 2, bytesPerElement: 4 };
const stateSlot: CacheSlot = { input: 'past_state.1', output: 'present_state.1', kind: 'state', type: 'float32', shape: [1, 3], sequenceAxis: -1, bytesPerElement: 4 };
const layout = (withState: boolean): CacheLayout => ({
  slots: withState ? [keySlot, stateSlot] : [keySlot],
  hasState: withState,
  bytesPerToken: 8,
  stateBytesPerSequence: withState ? 12 : 0,
  tokenInput: 'ids',
  positionRank: 2,
});

/** A cache whose key at position p holds [p, p + 0.5], so cuts are easy to check. */
function cacheAfter(tokens: number, withState: boolean): CacheTensors {
  const keys = new Float32Array(tokens * 2).map((_, i) => Math.floor(i / 2) + (i % 2) * 0.5);
  const tensors = [new ort.Tensor('float32', keys, [1, 1, tokens, 2])];
  if (withState) tensors.push(new ort.Tensor('float32', Float32Array.of(tokens, tokens, tokens), [1, 3]));
  return tensors;
}
const logits = Float32Array.of(1, 2);

describe('PrefixCache', () => {
  it('cuts attention-only caches to the shared prefix, leaving a token to compute', () => {
    const cache = new PrefixCache(layout(false), 1 << 20);
    cache.insert([1, 2, 3, 4], cacheAfter(4, false), logits);
    const hit = cache.lookup([1, 2, 3, 9, 9])!;
    expect(hit.length).toBe(3);
    expect(hit.logits).toBeNull();
    expect([...(hit.cache[0]!.data as Float32Array)]).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
    // The same prompt again: one token short, since the logits after a cut are unknown…
    expect(cache.lookup([1, 2, 3])!.length).toBe(2);
    // …but an exact stored prompt comes back whole, with its logits.
    expect(cache.lookup([1, 2, 3, 4])).toMatchObject({ length: 4, logits });
  });

  it('reuses recurrent state only at exactly the stored position', () => {
    const cache = new PrefixCache(layout(true), 1 << 20);
    cache.insert([1, 2, 3, 4], cacheAfter(4, true), logits);
    expect(cache.lookup([1, 2, 3, 9, 9])).toBeNull();
    expect(cache.lookup([1, 2, 3])).toBeNull();
    const hit = cache.lookup([1, 2, 3, 4, 5, 6])!;
    expect(hit.length).toBe(4);
    expect([...(hit.cache[1]!.data as Float32Array)]).toEqual([4, 4, 4]);
    cache.insert([1, 2], cacheAfter(2, true), logits);
    expect(cache.lookup([1, 2, 7])!.length).toBe(2);
  });

  it('evicts the least recently used entries to stay within its byte budget', () => {
    const entryBytes = 4 * 2 * 4 + logits.byteLength + '1,2,3,4'.length * 2;
    const cache = new PrefixCache(layout(true), 2 * (entryBytes + 12) + 10);
    cache.insert([1, 2, 3, 4], cacheAfter(4, true), logits);
    cache.insert([5, 6, 7, 8], cacheAfter(4, true), logits);
    cache.lookup([1, 2, 3, 4, 0]);
    cache.insert([9, 9, 9, 9], cacheAfter(4, true), logits);
    expect(cache.size).toBe(2);
    expect(cache.lookup([5, 6, 7, 8, 0])).toBeNull();
    expect(cache.lookup([1, 2, 3, 4, 0])).not.toBeNull();
    expect(cache.bytes).toBeLessThanOrEqual(2 * (entryBytes + 12) + 10);
  });
});

describe('cache tensors', () => {
  it('left-pads rows into a batch and selects rows', () => {
    const l = layout(true);
    const batch = stackRows([cacheAfter(1, true), cacheAfter(2, true)], l, 2);
    expect(batch[0]!.dims).toEqual([2, 1, 2, 2]);
    expect([...(batch[0]!.data as Float32Array)]).toEqual([0, 0, 0, 0.5, 0, 0.5, 1, 1.5]);
    expect([...(batch[1]!.data as Float32Array)]).toEqual([1, 1, 1, 2, 2, 2]);
    const second = selectRows(batch, [1]);
    expect([...(second[0]!.data as Float32Array)]).toEqual([0, 0.5, 1, 1.5]);
  });
});
