import { describe, expect, it } from 'vitest';
import { ReasoningSplitter } from './reasoning-split';

/** Feeds `text` in pieces of `size` characters and joins what comes out. */
function streamed(text: string, size: number) {
  const s = new ReasoningSplitter();
  let reasoning = '';
  let content = '';
  for (let i = 0; i < text.length; i += size) {
    const d = s.push(text.slice(i, i + size));
    reasoning += d.reasoning;
    content += d.content;
  }
  const d = s.end();
  return { reasoning: reasoning + d.reasoning, content: content + d.content };
}

describe('ReasoningSplitter', () => {
  const text = '<think>\nThe user ran ls; the folder has a.txt.\n</think>\n\n<predicted_observation>\na.txt\n</predicted_observation>';

  it('keeps reasoning apart from the answer however the stream is cut', () => {
    for (const size of [1, 2, 3, 5, 8, 1000]) {
      expect(streamed(text, size)).toEqual({
        reasoning: '\nThe user ran ls; the folder has a.txt.\n',
        content: '<predicted_observation>\na.txt\n</predicted_observation>',
      });
    }
  });

  it('treats text without a think block as the answer, and an unclosed block as reasoning only', () => {
    expect(ReasoningSplitter.split('total 0\n$ ')).toEqual({ reasoning: '', content: 'total 0\n$ ' });
    expect(streamed('<think>still going', 3)).toEqual({ reasoning: 'still going', content: '' });
    // A template that opened the block in the prompt leaves only the closing tag.
    expect(ReasoningSplitter.split('hmm</think>\nok')).toEqual({ reasoning: 'hmm', content: 'ok' });
    // The environment may print "<think>" itself once the answer has begun.
    expect(ReasoningSplitter.split('<think></think>\necho "<think>"\n<think>')).toEqual({ reasoning: '', content: 'echo "<think>"\n<think>' });
  });
});
