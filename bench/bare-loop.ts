// The limit for the engine's decode loop: a bare loop of session.run on the same graph and
// the same inputs (prompt in one pass, then one token a step, greedy, caches fed straight
// back), with nothing of the engine around it. Same session options as the engine's, and the
// same key/value handling: buffers updated in place where the graph is marked for it.

import ort from 'onnxruntime-node';
import type { Tensor } from 'onnxruntime-node';
import { discoverCacheLayout } from '../src-main/engine/onnx/cache-layout';
import { emptyCache, lastLogits, stackIntoCapacity } from '../src-main/engine/onnx/cache-tensors';
import { openSession } from '../src-main/engine/onnx/execution-providers';
import { readModelFolder } from '../src-main/engine/onnx/genai-config';
import { argmax } from '../src-main/engine/onnx/sampler';

export interface BareRun {
  tokens: number[];
  /** performance.now() after each generated token. */
  tokenTimes: number[];
}

/** Opens the folder's graph; each call of the returned function is one greedy run. */
export async function openBareLoop(
  folder: string,
  threads: number,
): Promise<{ run: (prompt: readonly number[], maxTokens: number) => Promise<BareRun>; close: () => Promise<void> }> {
  const model = readModelFolder(folder);
  const { session } = await openSession(model.modelPath, { providers: ['cpu'], intraOpThreads: threads });
  {
    const layout = discoverCacheLayout(session, model.config);
    if (layout.tokenInput !== 'ids') throw new Error('the bare loop runs token-id decoders only');
    const names = model.config.inputNames;
    const fetches = [model.config.logitsName, ...layout.slots.map((slot) => slot.output)];
    const shared = model.config.sharesKvBuffer;
    const feedsFor = (ids: readonly number[], past: number, cache: Tensor[], capacity?: number): Record<string, Tensor> => {
      const mask = new BigInt64Array(capacity ?? past + ids.length).fill(1n, 0, past + ids.length);
      const feeds: Record<string, Tensor> = {
        [names.inputIds]: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
        [names.attentionMask]: new ort.Tensor('int64', mask, [1, mask.length]),
      };
      if (layout.positionRank === 2) {
        feeds[names.positionIds] = new ort.Tensor('int64', BigInt64Array.from(ids, (_, i) => BigInt(past + i)), [1, ids.length]);
      }
      layout.slots.forEach((slot, i) => (feeds[slot.input] = cache[i]!));
      return feeds;
    };
    const greedyRun = async (prompt: readonly number[], maxTokens: number): Promise<BareRun> => {
      const run: BareRun = { tokens: [], tokenTimes: [] };
      let out = await session.run(feedsFor(prompt, 0, emptyCache(layout, 1)), fetches);
      let length = prompt.length;
      const capacity = prompt.length + maxTokens;
      let cache = layout.slots.map((slot) => out[slot.output] as Tensor);
      if (shared) cache = stackIntoCapacity([cache], layout, capacity);
      for (let step = 0; step < maxTokens; step++) {
        const token = argmax(lastLogits(out[model.config.logitsName] as Tensor, 0));
        run.tokens.push(token);
        run.tokenTimes.push(performance.now());
        if (step === maxTokens - 1) break;
        if (shared) {
          const outputs: Record<string, Tensor | null> = { [model.config.logitsName]: null };
          layout.slots.forEach((slot, i) => (outputs[slot.output] = slot.kind === 'sequence' ? cache[i]! : null));
          out = await session.run(feedsFor([token], length, cache, capacity), outputs);
          cache = layout.slots.map((slot, i) => (slot.kind === 'sequence' ? cache[i]! : (out[slot.output] as Tensor)));
        } else {
          out = await session.run(feedsFor([token], length, cache), fetches);
          cache = layout.slots.map((slot) => out[slot.output] as Tensor);
        }
        length += 1;
      }
      return run;
    };
    return { run: greedyRun, close: () => session.release() };
  }
}
