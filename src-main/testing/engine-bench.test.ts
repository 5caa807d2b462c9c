import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchEngine } from './engine-bench';

describe('benchEngine', () => {
  it('measures speeds and the prefix-reuse ratio with identical tokens', async () => {
    const result = await benchEngine(join(import.meta.dirname, '..', 'engine', 'onnx', 'fixtures', 'qwen35', 'tiny-chat'), {
      providers: ['cpu'],
      historyTokens: 300,
      samples: 3,
      maxTokens: 4,
    });
    expect(result.prefill.tokens).toBeGreaterThanOrEqual(300);
    expect(result.prefill.tokensPerSecond).toBeGreaterThan(0);
    expect(result.decode.tokensPerSecond).toBeGreaterThan(0);
    expect(result.resample.identical).toBe(true);
    expect(result.resample.cachedPromptTokens).toBeGreaterThan(result.resample.promptTokens / 2);
    expect(result.resample.speedup).toBeGreaterThan(0);
  });
});
