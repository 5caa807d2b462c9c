// A prompt far past the model's context is refused before it is tokenized: tokenizing
// millions of tokens costs the same time and memory whether or not they fit. Counting
// characters is free, and no prompt holds more tokens than a fixed share of its characters
// can make; past that share it cannot fit, whatever the tokenizer.
import type { ChatMessage } from '../common/engine';
import { UserError } from '../common/user-error';

/**
 * Characters one token stands for at most, averaged over a whole prompt. Real text runs at
 * 3–5 for the tokenizers Worldloom runs; only long runs of one repeated character reach more.
 */
export const MAX_CHARACTERS_PER_TOKEN = 16;

/** Throws a UserError when `messages` cannot fit `contextLength` tokens, before any tokenizing. */
export function refuseOversizedPrompt(messages: readonly ChatMessage[], contextLength: number, what = 'This prompt'): void {
  let characters = 0;
  for (const m of messages) characters += m.content.length;
  const limit = contextLength * MAX_CHARACTERS_PER_TOKEN;
  if (characters <= limit) return;
  throw new UserError(
    `${what} is ${characters.toLocaleString('en')} characters, far more than the model's context of ${contextLength.toLocaleString('en')} tokens can hold ` +
      `(at most about ${limit.toLocaleString('en')} characters). Shorten the history or the state (edit the long observation), or use a model with a longer context.`,
    'invalid',
  );
}
