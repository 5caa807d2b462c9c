// The limit for the engine's decode loop: a bare loop of session.run on the same graph and
// the same inputs (prompt in one pass, then one token a step, greedy, caches fed straight
// back), with nothing of the engine around it. Same session options as the engine's.

import ort from 'onnxruntime-node';
import type { Tensor } from 'onnxruntime-node';
import { discoverCacheLayout } from '../src-main/engine/onnx/cache-layout';
import { emptyCache, lastLogits } from '../src-main/engine/onnx/cache-tensors';
import { openSession } from '../src-main/engine/onnx/execution-providers';
import { readModelFolder } from '../src-main/engine/onnx/genai-config';
import { argmax } from '../src-main/engine/onnx/sampler';

export interface BareRun {
  tokens: number[];
  /** performance.now() after each generated token. */
  tokenTimes: number[];
}

export async function bareGreedyLoop(folder: string, prompt: readonly number[], maxTokens: number, threads: number, rounds: number): Promise<BareRun[]> {
  const model = readModelFolder(folder);
  const { session } = await openSession(model.modelPath, { providers: ['cpu'], intraOpThreads: threads });
  try {
    const layout = discoverCacheLayout(session, model.config);
    if (layout.tokenInput !== 'ids') throw new Error('the bare loop runs token-id decoders only');
    const names = model.config.inputNames;
    const fetches = [model.config.logitsName, ...layout.slots.map((slot) => slot.output)];
    const feedsFor = (ids: readonly number[], past: number, cache: Tensor[]): Record<string, Tensor> => {
      const feeds: Record<string, Tensor> = {
        [names.inputIds]: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
        [names.attentionMask]: new ort.Tensor('int64', new BigInt64Array(past + ids.length).fill(1n), [1, past + ids.length]),
      };
      if (layout.positionRank === 2) {
        feeds[names.positionIds] = new ort.Tensor('int64', BigInt64Array.from(ids, (_, i) => BigInt(past + i)), [1, ids.length]);
      }
      layout.slots.forEach((slot, i) => (feeds[slot.input] = cache[i]!));
      return feeds;
    };
    const runs: BareRun[] = [];
    for (let round = 0; round < rounds; round++) {
      const run: BareRun = { tokens: [], tokenTimes: [] };
      let out = await session.run(feedsFor(prompt, 0, emptyCache(layout, 1)), fetches);
      let length = prompt.length;
      for (let step = 0; step < maxTokens; step++) {
        const token = argmax(lastLogits(out[model.config.logitsName] as Tensor, 0));
        run.tokens.push(token);
        run.tokenTimes.push(performance.now());
        if (step === maxTokens - 1) break;
        out = await session.run(feedsFor([token], length, layout.slots.map((slot) => out[slot.output] as Tensor)), fetches);
        length += 1;
      }
      runs.push(run);
    }
    return runs;
  } finally {
    await session.release();
  }
}
