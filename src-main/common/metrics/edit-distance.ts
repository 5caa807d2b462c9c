// Levenshtein distance between observations, which can be long (a whole terminal screen,
// a JSON document). Myers' bit-parallel algorithm (J. ACM 1999) in Hyyrö's multi-block
// form computes the exact distance in O(n·⌈m/32⌉) word operations; common prefixes and
// suffixes, usually most of a simulated-vs-real pair, are stripped first. Past a work
// budget the distance is bounded from above instead (see `editDistance`). Pure.
import { diffLines } from './line-diff';

/**
 * Word operations allowed before falling back to the line-aligned upper bound: about a
 * quarter second, i.e. two ~40 KB texts that differ from start to end. Replays compare
 * every step, so one huge observation must not stall a whole report.
 */
export const DEFAULT_EDIT_BUDGET = 5e7;

export interface EditDistance {
  distance: number;
  /** False when the budget was exceeded and `distance` is an upper bound. */
  exact: boolean;
}

/** Strings as arrays of code points, so an emoji or CJK character counts as one edit. */
function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

function trimCommon(a: number[], b: number[]): [number[], number[]] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return [a.slice(start, endA), b.slice(start, endB)];
}

/** Exact Levenshtein distance of two code point arrays with the multi-block bit-vector algorithm. */
export function myersDistance(x: readonly number[], y: readonly number[]): number {
  // The shorter side is the "pattern" held in bit vectors; the longer one is scanned.
  const [pattern, text] = x.length <= y.length ? [x, y] : [y, x];
  const m = pattern.length;
  if (m === 0) return text.length;
  const blocks = Math.ceil(m / 32);
  const peq = new Map<number, Int32Array>();
  for (let i = 0; i < m; i++) {
    let vec = peq.get(pattern[i]!);
    if (!vec) peq.set(pattern[i]!, (vec = new Int32Array(blocks)));
    vec[i >> 5]! |= 1 << (i & 31);
  }
  const none = new Int32Array(blocks);
  const pv = new Int32Array(blocks).fill(-1);
  const mv = new Int32Array(blocks);
  const lastHigh = 1 << ((m - 1) & 31);
  let score = m;
  for (let j = 0; j < text.length; j++) {
    const eqs = peq.get(text[j]!) ?? none;
    // Global alignment: the top row grows by one per column, so a +1 enters block 0.
    let carry = 1;
    for (let b = 0; b < blocks; b++) {
      let eq = eqs[b]!;
      const p = pv[b]!;
      const mm = mv[b]!;
      const high = b === blocks - 1 ? lastHigh : 1 << 31;
      const xv = eq | mm;
      if (carry < 0) eq |= 1;
      const xh = ((((eq & p) + p) | 0) ^ p) | eq;
      let ph = mm | ~(xh | p);
      let mh = p & xh;
      const out = ph & high ? 1 : mh & high ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      if (carry < 0) mh |= 1;
      else if (carry > 0) ph |= 1;
      pv[b] = mh | ~(xv | ph);
      mv[b] = ph & xv;
      carry = out;
    }
    score += carry;
  }
  return score;
}

/**
 * Levenshtein distance in code points. When the remaining (untrimmed) pair would cost more
 * than `budget` word operations, the texts are aligned line by line first and only the
 * changed hunks are compared character by character: an upper bound on the true distance,
 * exact whenever no edit crosses a line boundary in a way a line alignment would miss.
 */
export function editDistance(a: string, b: string, budget = DEFAULT_EDIT_BUDGET): EditDistance {
  const [x, y] = trimCommon(codePoints(a), codePoints(b));
  if (cost(x.length, y.length) <= budget) return { distance: myersDistance(x, y), exact: true };
  let distance = 0;
  for (const hunk of diffLines(a, b).hunks) {
    const [hx, hy] = trimCommon(codePoints(hunk.removed.join('\n')), codePoints(hunk.added.join('\n')));
    // A hunk still too big to compare is charged its full length: a plain upper bound.
    distance += cost(hx.length, hy.length) <= budget ? myersDistance(hx, hy) : Math.max(hx.length, hy.length);
    // Joining a hunk to its neighbours may cost one newline edit on each side.
    if (hunk.removed.length === 0 || hunk.added.length === 0) distance += 1;
  }
  return { distance, exact: false };
}

function cost(n: number, m: number): number {
  return Math.max(n, m) * Math.ceil(Math.min(n, m) / 32);
}

/** 1 − distance / longer length, in code points: 1 for identical texts (two empty texts included). */
export function editSimilarity(a: string, b: string, budget = DEFAULT_EDIT_BUDGET): number {
  const longer = Math.max(codePointLength(a), codePointLength(b));
  if (longer === 0) return 1;
  return Math.max(0, 1 - editDistance(a, b, budget).distance / longer);
}

function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
