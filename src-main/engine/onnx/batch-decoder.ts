// The decode loop: one token per row per step. Rows keep their own sampler and seed, their
// own stop rules and penalties, so a row's tokens do not depend on its neighbours.
//
// Rows run together only when their caches hold the same number of tokens (K samples of one
// prompt, or prompts of equal length): a batch then needs no padding, which is the only
// layout every graph reads correctly (GroupQueryAttention takes each row's length from its
// mask and assumes right padding; plain attention graphs assume left padding). Rows of other
// lengths form their own groups, stepped in turn, so every request streams at once.
// Graphs whose GroupQueryAttention can update its key/value buffer in place get buffers with
// room to grow, so a step moves only the new token's keys and values, not the whole cache.

import type { FinishReason, SamplingParams, TokenEvent } from '../../common/engine';
import type { CacheLayout } from './cache-layout';
import { growCapacity, lastLogits, selectRows, stackIntoCapacity, stackRows, type CacheTensors } from './cache-tensors';
import type { DecoderStep } from './decoder-step';
import type { PreparedPrompt } from './prompt-prefill';
import { sampleToken, seededRandom, type RandomSource, type TokenHistory } from './sampler';
import { TextStream } from './text-stream';

export interface DecodeRequest {
  id: string;
  prompt: PreparedPrompt;
  sampling: SamplingParams;
  stream: TextStream;
}

export interface DecodeOutcome {
  finishReason: FinishReason;
  completionTokens: number;
  /** performance.now() when the row finished. */
  finishedAt: number;
}

export interface DecodeSettings {
  eosTokenIds: ReadonlySet<number>;
  contextLength: number;
  signal?: AbortSignal;
  onToken: (event: TokenEvent) => void;
  /** The graph updates key/value buffers in place (checked when the model loaded). */
  sharedKvBuffer?: boolean;
  /** Positions a shared key/value buffer grows by at a time. Default 256. */
  bufferGrowth?: number;
}

interface Row {
  request: DecodeRequest;
  index: number;
  random: RandomSource;
  history: TokenHistory;
  /** Tokens in this row's cache (prompt plus fed completion tokens). */
  cacheLength: number;
  /** The sampled token not yet fed to the model. */
  nextToken: number;
  completionTokens: number;
}

/** Positions the rows of a batch may still add to their caches: the most tokens any of them may yet feed. */
function stillNeeded(rows: readonly Row[]): number {
  return Math.max(1, ...rows.map((row) => row.request.sampling.maxTokens - row.completionTokens + 1));
}

/** Rows whose caches have the same length, stepped as one batch. */
interface Group {
  rows: Row[];
  cache: CacheTensors;
  /** Positions the shared key/value buffers hold; null when every step returns a new, longer cache. */
  capacity: number | null;
}

export async function decodeBatch(
  requests: readonly DecodeRequest[],
  step: DecoderStep,
  layout: CacheLayout,
  settings: DecodeSettings,
): Promise<DecodeOutcome[]> {
  const outcomes: DecodeOutcome[] = new Array(requests.length);
  const finish = (row: Row, reason: FinishReason): void => {
    const tail = row.request.stream.finish();
    if (tail) settings.onToken({ requestId: row.request.id, text: tail });
    outcomes[row.index] = { finishReason: reason, completionTokens: row.completionTokens, finishedAt: performance.now() };
  };
  const applyToken = (row: Row, token: number): FinishReason | null => {
    const { request } = row;
    if (settings.eosTokenIds.has(token)) return 'eos';
    row.completionTokens++;
    row.nextToken = token;
    row.history.generated.add(token);
    row.history.seen.add(token);
    settings.onToken({ requestId: request.id, text: request.stream.push(token), tokenId: token });
    if (request.stream.stopped) return 'stop';
    if (row.completionTokens >= request.sampling.maxTokens) return 'length';
    // The token just sampled must still fit in the context when it is fed back.
    if (row.cacheLength + 1 >= settings.contextLength) return 'length';
    return null;
  };
  /** Samples and applies a token; returns false when that finished the row. */
  const accept = (row: Row, logits: Float32Array): boolean => {
    const reason = applyToken(row, sampleToken(logits, row.request.sampling, row.random, row.history));
    if (reason) finish(row, reason);
    return reason === null;
  };

  const started: Row[] = [];
  requests.forEach((request, index) => {
    const row: Row = {
      request,
      index,
      random: seededRandom(request.sampling.seed),
      history: { generated: new Set(), seen: new Set(request.prompt.tokens) },
      cacheLength: request.prompt.tokens.length,
      nextToken: -1,
      completionTokens: 0,
    };
    if (request.sampling.maxTokens <= 0) return finish(row, 'length');
    if (settings.signal?.aborted) return finish(row, 'cancelled');
    if (accept(row, request.prompt.logits)) started.push(row);
  });

  const growth = Math.max(1, settings.bufferGrowth ?? 256);
  let groups: Group[] = [];
  for (const length of new Set(started.map((row) => row.cacheLength))) {
    const rows = started.filter((row) => row.cacheLength === length);
    const caches = rows.map((row) => row.request.prompt.cache);
    if (!settings.sharedKvBuffer) {
      groups.push({ rows, cache: stackRows(caches, layout, length), capacity: null });
    } else {
      const capacity = Math.min(settings.contextLength, length + Math.min(growth, stillNeeded(rows)));
      groups.push({ rows, cache: stackIntoCapacity(caches, layout, capacity), capacity });
    }
  }

  while (groups.length > 0) {
    if (settings.signal?.aborted) {
      for (const group of groups) for (const row of group.rows) finish(row, 'cancelled');
      break;
    }
    const next: Group[] = [];
    for (const group of groups) {
      const length = group.rows[0]!.cacheLength;
      if (group.capacity !== null && length + 1 > group.capacity) {
        // Twice the room (at least `growth` more), never more than the rows can still use.
        const wanted = Math.max(length + 1, Math.min(group.capacity + Math.max(growth, group.capacity), length + stillNeeded(group.rows)));
        const capacity = Math.min(settings.contextLength, wanted);
        group.cache = growCapacity(group.cache, layout, length, capacity);
        group.capacity = capacity;
      }
      const output = await step.run(group.rows.map((row) => ({ tokens: [row.nextToken] })), length, group.cache, group.capacity ?? undefined);
      const kept: number[] = [];
      group.rows.forEach((row, r) => {
        row.cacheLength += 1;
        if (accept(row, lastLogits(output.logits, r))) kept.push(r);
      });
      const { capacity } = group;
      if (kept.length === group.rows.length) next.push({ rows: group.rows, cache: output.cache, capacity });
      else if (kept.length > 0) next.push({ rows: kept.map((r) => group.rows[r]!), cache: selectRows(output.cache, kept), capacity });
    }
    groups = next;
  }
  return outcomes;
}
