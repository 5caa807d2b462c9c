import { describe, expect, it } from 'vitest';
import { appendTokens, continuedStream, EMPTY_STREAM, fullText, lastLine, liveTail, splitStream, tokensPerSecond } from './sample-streams';

describe('a sample stream', () => {
  it('shows reasoning apart from the observation from the first token', () => {
    let s = appendTokens(EMPTY_STREAM, '<think>The agent', 2, 900);
    expect(splitStream(s)).toMatchObject({ reasoning: 'The agent', observation: '', reasoningOpen: true });
    s = appendTokens(s, ' listed files.</think>\n<predicted_observation>\na.txt', 9, 1000);
    expect(splitStream(s)).toMatchObject({ reasoning: 'The agent listed files.', observation: 'a.txt', reasoningOpen: false });
  });

  it('counts tokens as the core reports them and speed from the first token on, not from the prompt', () => {
    let s = appendTokens(EMPTY_STREAM, 'a', 1, 5_000);
    expect(tokensPerSecond(s)).toBeNull();
    s = appendTokens(s, 'b', 11, 6_000);
    s = appendTokens(s, 'c', 21, 7_000);
    expect(s.tokens).toBe(21);
    expect(tokensPerSecond(s)).toBe(10);
  });

  it('never counts tokens backwards when events arrive out of order', () => {
    const s = appendTokens(appendTokens(EMPTY_STREAM, 'a', 5, 10), 'b', 3, 20);
    expect(s.tokens).toBe(5);
    expect(s.text).toBe('ab');
  });

  it('puts a continued sample’s earlier text and tokens first', () => {
    let s = continuedStream('<think>half of the reasoning', 3000);
    expect(splitStream(s)).toMatchObject({ reasoning: 'half of the reasoning', reasoningOpen: true });
    expect(s.tokens).toBe(3000);
    // The core counts a continued sample's tokens from its very start.
    s = appendTokens(s, ' and the rest</think>done', 3004, 50);
    expect(fullText(s)).toBe('<think>half of the reasoning and the rest</think>done');
    expect(splitStream(s).observation).toBe('done');
    expect(s.tokens).toBe(3004);
  });

  it('shows the latest line of reasoning when collapsed, shortened from the front', () => {
    expect(lastLine('first\nsecond line\n\n  ')).toBe('second line');
    expect(lastLine(null)).toBe('');
    expect(lastLine('x'.repeat(10) + 'END', 5)).toBe('…xEND');
  });

  it('shows only the latest part of a long reasoning while it streams, from a line start, saying how much is left out', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    expect(liveTail('short')).toEqual({ shown: 'short', omitted: 0 });
    const { shown, omitted } = liveTail(text, 100);
    expect(shown.startsWith('line ')).toBe(true);
    expect(shown.endsWith('line 999')).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(100);
    expect(text.slice(omitted)).toBe(shown);
  });
});
