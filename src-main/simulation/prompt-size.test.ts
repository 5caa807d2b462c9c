import { describe, expect, it } from 'vitest';
import { MAX_CHARACTERS_PER_TOKEN, refuseOversizedPrompt } from './prompt-size';

describe('a prompt far past the context', () => {
  it('is refused from its length alone, before anything is tokenized', () => {
    const huge = [{ role: 'system' as const, content: 'x'.repeat(4096 * MAX_CHARACTERS_PER_TOKEN + 1) }];
    expect(() => refuseOversizedPrompt(huge, 4096)).toThrow(/This prompt is 65,537 characters, far more than the model's context of 4,096 tokens can hold.*Shorten the history/);
    expect(() => refuseOversizedPrompt([{ role: 'user', content: 'x'.repeat(4096 * MAX_CHARACTERS_PER_TOKEN) }], 4096)).not.toThrow();
  });

  it('costs nothing near the size of the 2.7M-token prompt that once took a minute to refuse', () => {
    const messages = Array.from({ length: 100 }, () => ({ role: 'user' as const, content: 'word '.repeat(27_000) }));
    // Only lengths are read: no tokenizer is involved, so the refusal cannot grow with the text's tokens.
    expect(() => refuseOversizedPrompt(messages, 262_144)).toThrow(/13,500,000 characters/);
  });
});
