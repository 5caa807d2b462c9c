// The model builder marks graphs whose GroupQueryAttention can write the new token's keys and
// values into the past buffer itself (genai_config.json search.past_present_share_buffer).
// Decoding that way moves one token's keys and values per step instead of the whole cache.
// The flag is a claim about the graph; this checks it on the loaded session with one tiny
// step both ways before the engine relies on it.

import type { CacheLayout } from './cache-layout';
import { emptyCache, lastLogits, stackIntoCapacity } from './cache-tensors';
import type { DecoderStep } from './decoder-step';

export async function probeSharedKvBuffer(step: DecoderStep, layout: CacheLayout, token: number): Promise<boolean> {
  const sequence = layout.slots.filter((slot) => slot.kind === 'sequence');
  if (sequence.length === 0 || !sequence.every((slot) => slot.shape.length === 4 && slot.sequenceAxis === 2)) return false;
  try {
    const prompt = await step.run([{ tokens: [token, token] }], 0, emptyCache(layout, 1));
    const plain = lastLogits((await step.run([{ tokens: [token] }], 2, prompt.cache)).logits, 0);
    const buffers = stackIntoCapacity([prompt.cache], layout, 4);
    const shared = lastLogits((await step.run([{ tokens: [token] }], 2, buffers, 4)).logits, 0);
    let scale = 1;
    let difference = 0;
    for (let i = 0; i < plain.length; i++) {
      scale = Math.max(scale, Math.abs(plain[i]!));
      difference = Math.max(difference, Math.abs(plain[i]! - shared[i]!));
    }
    return difference <= 1e-3 * scale;
  } catch {
    // A graph that concatenates past and present refuses a buffer of fixed length.
    return false;
  }
}
