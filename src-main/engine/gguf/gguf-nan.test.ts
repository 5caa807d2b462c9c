// The GGUF engine's NaN guard on real llama.cpp: the tiny Qwen3.5-MoE checkpoint with its final
// norm poisoned (NaN, or +infinity) in the safetensors, converted by the project's converter, so
// every logit llama.cpp computes is NaN. The engine must refuse each sample with a clear error
// and no text rather than pick a token (src-main/simulation/simulate-gguf-nan.test.ts: a
// simulated step on it stores nothing).

import { beforeAll, describe, expect, it } from 'vitest';
import { ggufFixtureUnavailable, poisonedTinyGguf } from '../../testing/gguf-fixtures';
import { GgufEngine } from './gguf-engine';

const unavailable = ggufFixtureUnavailable();
const GREEDY = { temperature: 0, topK: 0, topP: 1, maxTokens: 6, seed: 0, stop: [] };

describe.skipIf(unavailable)('the GGUF engine on weights that give NaN logits', () => {
  const files: Record<string, string> = {};

  beforeAll(() => {
    files.nan = poisonedTinyGguf(Number.NaN);
    files.inf = poisonedTinyGguf(Number.POSITIVE_INFINITY);
  }, 600_000);

  for (const kind of ['nan', 'inf'] as const) {
    it(`refuses the sample (${kind === 'nan' ? 'NaN' : 'infinite'} norm weights) with what went wrong and what to do, and gives no tokens`, async () => {
      // One thread: llama.cpp's threads wait on each other by spinning, which a loaded test machine punishes.
      const engine = await GgufEngine.load(files[kind]!, { device: 'cpu', sequences: 2, threads: 1 });
      try {
        const tokens: number[] = [];
        const results = await engine.generate(
          [0, 1].map((seed) => ({ id: String(seed), messages: [{ role: 'user' as const, content: 'ls' }], sampling: { ...GREEDY, seed } })),
          (event) => event.tokenId !== undefined && tokens.push(event.tokenId),
        );
        for (const result of results) {
          expect(result.finishReason).toBe('error');
          expect(result.error).toMatch(/NaN or infinite logits after 0 tokens on cpu.*convert the model again.*Nothing was stored/);
          expect(result.text).toBe('');
          expect(result.completionTokens).toBe(0);
        }
        expect(tokens).toEqual([]);
      } finally {
        await engine.dispose();
      }
    }, 120_000);
  }
});
