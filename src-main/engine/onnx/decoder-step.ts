// One forward pass of the decoder graph over a batch of rows that have all seen the same
// number of tokens: builds the token (or embedding), mask and position feeds from plain
// numbers, and returns the logits and the next cache.
//
// Rows never carry padding. The builder's full-attention layers are GroupQueryAttention,
// which reads each row's length from the sum of its mask and assumes the ones come first;
// a left-padded row would silently attend to padding and lose its newest positions. The
// batch decoder therefore only batches rows of equal cache length (K samples of one prompt).

import ort from 'onnxruntime-node';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import type { CacheLayout } from './cache-layout';
import type { CacheTensors } from './cache-tensors';
import type { TokenEmbedder } from './embedding-model';
import type { ModelConfig } from './genai-config';

export interface StepRow {
  /** New tokens for this row; every row in a step has the same count. */
  tokens: readonly number[];
}

export interface StepOutput {
  logits: Tensor;
  cache: CacheTensors;
}

export class DecoderStep {
  private readonly fetches: string[];

  constructor(
    private readonly session: InferenceSession,
    private readonly layout: CacheLayout,
    private readonly config: ModelConfig,
    private readonly embedder: TokenEmbedder | null,
  ) {
    if (layout.tokenInput === 'embeds' && !embedder) {
      throw new Error('a decoder that takes inputs_embeds needs the embedding model');
    }
    this.fetches = [config.logitsName, ...layout.slots.map((slot) => slot.output)];
  }

  /**
   * `pastLength`: tokens every row's cache already holds. With `capacity`, the key/value
   * tensors in `cache` are buffers of that many positions which the graph's
   * GroupQueryAttention fills in place (the builder's past_present_share_buffer): the mask
   * spans the buffer, and the returned cache holds the same buffers.
   */
  async run(rows: readonly StepRow[], pastLength: number, cache: CacheTensors, capacity?: number): Promise<StepOutput> {
    const batch = rows.length;
    const sequence = rows[0]!.tokens.length;
    const total = capacity ?? pastLength + sequence;
    const inputIds = new BigInt64Array(batch * sequence);
    rows.forEach((row, r) => {
      for (let s = 0; s < sequence; s++) inputIds[r * sequence + s] = BigInt(row.tokens[s]!);
    });
    const { inputIds: idsName, inputsEmbeds, attentionMask, positionIds } = this.config.inputNames;
    const feeds: Record<string, Tensor> = {
      [attentionMask]: new ort.Tensor('int64', maskFor(batch, total, pastLength + sequence), [batch, total]),
    };
    if (this.layout.tokenInput === 'ids') feeds[idsName] = new ort.Tensor('int64', inputIds, [batch, sequence]);
    else feeds[inputsEmbeds] = await this.embedder!.embed(inputIds, batch, sequence);
    const rank = this.layout.positionRank;
    if (rank !== 0) feeds[positionIds] = positionFeed(rank, batch, sequence, pastLength);
    this.layout.slots.forEach((slot, i) => {
      feeds[slot.input] = cache[i]!;
    });
    if (capacity === undefined) {
      const outputs = await this.session.run(feeds, this.fetches);
      return {
        logits: outputs[this.config.logitsName] as Tensor,
        cache: this.layout.slots.map((slot) => outputs[slot.output] as Tensor),
      };
    }
    // Key/value outputs written into the input buffers; only logits and state are new.
    const fetches: Record<string, Tensor | null> = { [this.config.logitsName]: null };
    this.layout.slots.forEach((slot, i) => {
      fetches[slot.output] = slot.kind === 'sequence' ? cache[i]! : null;
    });
    const outputs = await this.session.run(feeds, fetches);
    return {
      logits: outputs[this.config.logitsName] as Tensor,
      cache: this.layout.slots.map((slot, i) => (slot.kind === 'sequence' ? cache[i]! : (outputs[slot.output] as Tensor))),
    };
  }
}

/** Ones for each row's first `seen` positions, zeros for the rest of a `total`-wide mask. */
function maskFor(batch: number, total: number, seen: number): BigInt64Array {
  const mask = new BigInt64Array(batch * total);
  for (let r = 0; r < batch; r++) mask.fill(1n, r * total, r * total + seen);
  return mask;
}

/** Positions pastLength … pastLength+sequence-1 for every row; rank 3 repeats them for the three rotary sections (text only). */
function positionFeed(rank: 2 | 3, batch: number, sequence: number, pastLength: number): Tensor {
  const copies = rank === 3 ? 3 : 1;
  const positions = new BigInt64Array(copies * batch * sequence);
  for (let i = 0; i < positions.length; i++) positions[i] = BigInt(pastLength + (i % sequence));
  return new ort.Tensor('int64', positions, rank === 3 ? [3, batch, sequence] : [batch, sequence]);
}
