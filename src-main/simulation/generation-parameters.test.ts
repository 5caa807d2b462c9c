import { describe, expect, it } from 'vitest';
import { engineRequestParts, FALLBACK_SAMPLING, GenerationParameters } from './generation-parameters';

const qwen = { recommendedSampling: { temperature: 0.6, topP: 0.95, topK: 20, presencePenalty: 1.5, maxTokens: 81_920 }, reasoning: { reasons: true, canDisable: true }, contextLength: 262_144 };
const plain = { recommendedSampling: { temperature: 0 }, reasoning: { reasons: false, canDisable: false }, contextLength: 4096 };

describe('GenerationParameters', () => {
  it('layers the model’s recommendation, the workspace, then the call', () => {
    const p = new GenerationParameters(qwen, { temperature: 0.8, seed: 4 });
    expect(p.resolve()).toEqual({ ...FALLBACK_SAMPLING, temperature: 0.8, topP: 0.95, topK: 20, presencePenalty: 1.5, maxTokens: 81_920, seed: 4, thinking: true });
    expect(p.resolve({ temperature: 0.2, thinking: false, maxTokens: 1024 })).toMatchObject({ temperature: 0.2, thinking: false, maxTokens: 1024, seed: 4 });
    expect(p.sources()).toMatchObject({ temperature: 'workspace', topK: 'model', repetitionPenalty: 'fallback', seed: 'workspace' });
  });

  it('keeps thinking off for a model that does not reason, and brings the fallback budget within its context', () => {
    const p = new GenerationParameters(plain);
    expect(p.resolve()).toMatchObject({ thinking: false, maxTokens: 4096, temperature: 0 });
    expect(() => p.resolve({ maxTokens: 5000 })).toThrow(/at most 4096/);
  });

  it('with no model loaded, offers the reasoning-model fallback: 32,768 new tokens, thinking on', () => {
    expect(new GenerationParameters(null).describe()).toMatchObject({ model: {}, effective: { maxTokens: 32_768, thinking: true }, maxTokensLimit: 262_144 });
  });

  it('turns thinking off into the template variable the engines pass on, and nothing for on', () => {
    const on = engineRequestParts({ ...FALLBACK_SAMPLING, thinking: true });
    expect(on).toEqual({ sampling: { temperature: 0.6, topK: 20, topP: 0.95, maxTokens: 32_768, seed: 0, stop: [], presencePenalty: 0, repetitionPenalty: 1 } });
    expect(engineRequestParts({ ...FALLBACK_SAMPLING, thinking: false }).templateKwargs).toEqual({ enable_thinking: false });
  });
});
