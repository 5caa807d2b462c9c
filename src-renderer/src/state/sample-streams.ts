// What one simulation sample has streamed so far, and how fast: pure, so the arithmetic
// (tokens used, tokens per second) is tested apart from the view that shows it.
import { parsePartialOutput, type PartialModelOutput } from '../../../src-main/common/prompt/model-output';

export interface SampleStream {
  /** Everything streamed in this run, reasoning inline in <think> tags (every engine streams it so). */
  text: string;
  /**
   * Tokens the sample has used so far, as the core counted them; for a continued sample the
   * core counts the earlier run's tokens in too.
   */
  tokens: number;
  /** The core's clock (ms since the run started) and token count at the first token and at the latest. */
  first: { ms: number; tokens: number } | null;
  lastMs: number | null;
  /** Text and tokens an earlier run already produced (a continued sample), shown before the new text. */
  carried: { text: string; tokens: number } | null;
}

export const EMPTY_STREAM: SampleStream = { text: '', tokens: 0, first: null, lastMs: null, carried: null };

/** A stream that continues a sample cut off earlier: its text and tokens show first; speed counts only new tokens. */
export function continuedStream(text: string, tokens: number): SampleStream {
  return { ...EMPTY_STREAM, tokens, carried: { text, tokens } };
}

/** Adds one simulate.token event: its text, the run's token count so far, the core's clock. */
export function appendTokens(stream: SampleStream, text: string, tokensSoFar: number, elapsedMs: number): SampleStream {
  return {
    ...stream,
    text: stream.text + text,
    tokens: Math.max(stream.tokens, tokensSoFar),
    first: stream.first ?? { ms: elapsedMs, tokens: tokensSoFar },
    lastMs: elapsedMs,
  };
}

/**
 * Generation speed: tokens since the first event over the time since it (the wait before
 * the first token is prompt processing, not generation). Null until two moments are known.
 */
export function tokensPerSecond(stream: SampleStream): number | null {
  if (!stream.first || stream.lastMs === null) return null;
  const seconds = (stream.lastMs - stream.first.ms) / 1000;
  const tokens = stream.tokens - stream.first.tokens;
  if (seconds <= 0 || tokens <= 0) return null;
  return tokens / seconds;
}

/** The whole text of the sample, an earlier run's included. */
export function fullText(stream: SampleStream): string {
  return (stream.carried?.text ?? '') + stream.text;
}

/** Reasoning and observation apart, from the first token on. */
export function splitStream(stream: SampleStream): PartialModelOutput {
  return parsePartialOutput(fullText(stream));
}

/** The last non-empty line of the reasoning, for a collapsed view that still shows progress; looks only at the end of the text. */
export function lastLine(text: string | null, max = 160): string {
  if (!text) return '';
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).trim();
    if (line) return line.length > max ? `…${line.slice(line.length - max + 1)}` : line;
    end = start - 1;
  }
  return '';
}

/**
 * While a sample streams, an open reasoning view shows only its latest part: laying out tens
 * of thousands of growing characters twenty times a second would stall the page. Cut at a
 * line start, and say how much is left out; the whole text is kept and shown once it ends.
 */
export function liveTail(text: string, max = 20_000): { shown: string; omitted: number } {
  if (text.length <= max) return { shown: text, omitted: 0 };
  let from = text.length - max;
  const lineStart = text.indexOf('\n', from);
  if (lineStart >= 0 && lineStart < text.length - 1) from = lineStart + 1;
  return { shown: text.slice(from), omitted: from };
}
