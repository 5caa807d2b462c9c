// Whole-text and bag-of-tokens agreement between a simulated and a real observation. Pure.

/** 1 when the texts are identical (line endings normalized, since recorders differ on CRLF), else 0. */
export function exactMatch(simulated: string, real: string): number {
  return simulated.replace(/\r\n/g, '\n') === real.replace(/\r\n/g, '\n') ? 1 : 0;
}

/**
 * Tokens: runs of letters, digits and underscores, and every other non-space character on
 * its own, so `ls: cannot access 'x'` and a JSON object both give meaningful tokens.
 * Case is kept: in terminal and JSON output case is part of the content.
 */
export function tokenize(text: string): string[] {
  return text.match(/[\p{L}\p{N}\p{M}_]+|[^\s\p{L}\p{N}\p{M}_]/gu) ?? [];
}

/** SQuAD-style token F1 over token multisets; 1 when both texts have no tokens, 0 when one has none. */
export function tokenF1(simulated: string, real: string): number {
  const sim = tokenize(simulated);
  const ref = tokenize(real);
  if (sim.length === 0 && ref.length === 0) return 1;
  if (sim.length === 0 || ref.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of ref) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of sim) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      common++;
      counts.set(t, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / sim.length;
  const recall = common / ref.length;
  return (2 * precision * recall) / (precision + recall);
}
