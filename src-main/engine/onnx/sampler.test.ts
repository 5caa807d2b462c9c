import { describe, expect, it } from 'vitest';
import { NonFiniteLogitsError, sampleToken, seededRandom } from './sampler';

describe('sampleToken', () => {
  const logits = Float32Array.of(0.1, 2.5, 2.4, -1, 0.3);

  it('greedy and top-k 1 both pick the highest logit', () => {
    expect(sampleToken(logits, { temperature: 0, topK: 0, topP: 1 }, seededRandom(1))).toBe(1);
    expect(sampleToken(logits, { temperature: 1, topK: 1, topP: 1 }, seededRandom(1))).toBe(1);
  });

  it('is a pure function of the seed, and keeps to the top-k and nucleus', () => {
    const draw = (seed: number, topK: number, topP: number): number[] => {
      const random = seededRandom(seed);
      return Array.from({ length: 200 }, () => sampleToken(logits, { temperature: 1, topK, topP }, random));
    };
    expect(draw(3, 0, 1)).toEqual(draw(3, 0, 1));
    expect(draw(3, 0, 1)).not.toEqual(draw(4, 0, 1));
    expect(new Set(draw(5, 2, 1))).toEqual(new Set([1, 2]));
    // The top token holds ~47% of the mass: a 0.4 nucleus is that token alone.
    expect(new Set(draw(6, 0, 0.4))).toEqual(new Set([1]));
    expect(new Set(draw(6, 0, 0.6))).toEqual(new Set([1, 2]));
  });

  const greedy = { temperature: 0, topK: 0, topP: 1 };
  const history = (generated: number[], prompt: number[] = []) => ({ generated: new Set(generated), seen: new Set([...prompt, ...generated]) });

  it('presence penalty lowers every generated token once, leaving the prompt alone', () => {
    // 2.5 - 0.2 = 2.3 < 2.4: the runner-up wins once token 1 was generated.
    expect(sampleToken(logits, { ...greedy, presencePenalty: 0.2 }, seededRandom(1), history([1]))).toBe(2);
    expect(sampleToken(logits, { ...greedy, presencePenalty: 0.2 }, seededRandom(1), history([], [1]))).toBe(1);
    expect(sampleToken(logits, { ...greedy, presencePenalty: 0.05 }, seededRandom(1), history([1]))).toBe(1);
  });

  it('repetition penalty divides positive logits of prompt and generated tokens, multiplies negative ones', () => {
    // 2.5 / 1.1 = 2.27 < 2.4
    expect(sampleToken(logits, { ...greedy, repetitionPenalty: 1.1 }, seededRandom(1), history([], [1]))).toBe(2);
    const negative = Float32Array.of(-1, -1.05);
    // -1 * 1.1 = -1.1 < -1.05: a seen negative token sinks further.
    expect(sampleToken(negative, { ...greedy, repetitionPenalty: 1.1 }, seededRandom(1), history([0]))).toBe(1);
    expect(sampleToken(negative, greedy, seededRandom(1), history([0]))).toBe(0);
  });

  it('refuses NaN or infinite logits instead of picking a token', () => {
    expect(() => sampleToken(Float32Array.of(0, Number.NaN, 1), greedy, seededRandom(1))).toThrow(NonFiniteLogitsError);
    expect(() => sampleToken(Float32Array.of(0, Infinity), { temperature: 1, topK: 0, topP: 1 }, seededRandom(1))).toThrow(/NaN or infinite/);
  });
});
