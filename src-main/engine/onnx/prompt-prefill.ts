// Prefill: brings one prompt's cache up to its last token, starting from the longest
// prefix already computed, in chunks (bounded memory, a cancel point between chunks).
// Snapshots go back into the prefix cache at the prompt's end and where a sibling's or a
// child's prompt will diverge from it (found by the chat tokenizer), the points later
// paths are most likely to start from.

import type { ChatPrompt } from '../chat-template-prompt';
import type { CacheLayout } from './cache-layout';
import { emptyCache, lastLogits, type CacheTensors } from './cache-tensors';
import type { DecoderStep } from './decoder-step';
import type { PrefixCache } from './prefix-cache';

export interface PreparedPrompt {
  tokens: readonly number[];
  /** One-sequence cache after every prompt token. */
  cache: CacheTensors;
  /** Next-token logits after the prompt. */
  logits: Float32Array;
  /** Prompt tokens that came from the prefix cache rather than being computed. */
  cachedTokens: number;
  computeMs: number;
}

export class PrefillCancelled extends Error {
  constructor() {
    super('Prefill cancelled');
  }
}

export interface PrefillSettings {
  chunkTokens: number;
  /** null: no reuse at all (each prompt computed from scratch, nothing kept). */
  prefixCache: PrefixCache | null;
  signal?: AbortSignal;
}

export async function prefillPrompt(
  prompt: ChatPrompt,
  step: DecoderStep,
  layout: CacheLayout,
  settings: PrefillSettings,
): Promise<PreparedPrompt> {
  const started = performance.now();
  const { tokens } = prompt;
  const hit = settings.prefixCache?.lookup(tokens) ?? null;
  let done = hit?.length ?? 0;
  let cache = hit?.cache ?? emptyCache(layout, 1);
  let logits = hit?.logits ?? null;
  const cachedTokens = done;

  const stops = chunkEnds(done, tokens.length, settings.chunkTokens, prompt.snapshots);
  for (const end of stops) {
    if (settings.signal?.aborted) throw new PrefillCancelled();
    const output = await step.run([{ tokens: tokens.slice(done, end) }], done, cache);
    cache = output.cache;
    logits = lastLogits(output.logits, 0);
    done = end;
    if (prompt.snapshots.includes(end)) settings.prefixCache?.insert(tokens.slice(0, end), cache, logits);
  }
  if (logits === null) throw new Error('prefill ended without logits');
  if (stops.length > 0) settings.prefixCache?.insert(tokens, cache, logits);
  return { tokens, cache, logits, cachedTokens, computeMs: performance.now() - started };
}

/** Where each chunk ends: every `chunkTokens`, plus every snapshot point that lies ahead. */
function chunkEnds(start: number, end: number, chunkTokens: number, snapshots: readonly number[]): number[] {
  const ends: number[] = [];
  let at = start;
  while (at < end) {
    let next = Math.min(end, at + Math.max(1, chunkTokens));
    const snapshot = snapshots.find((point) => point > at && point < next);
    if (snapshot !== undefined) next = snapshot;
    ends.push(next);
    at = next;
  }
  return ends;
}
