// Line diff between two observations: how many lines the simulation added and removed
// relative to the real one. Myers' O((N+M)·D) diff in its linear-space form (the "middle
// snake" divide and conquer, Algorithmica 1986), so memory stays O(N+M) for long
// outputs. A work cap keeps pathological pairs (thousands of lines, nothing in common
// but blank lines) bounded: past it, the rest is counted as fully changed. Pure.

/** Snake steps allowed before giving up on an exact alignment (~0.5 s of work). */
export const DEFAULT_DIFF_BUDGET = 5e7;

export interface LineHunk {
  /** Lines only in the first text (the real side in metrics). */
  removed: string[];
  /** Lines only in the second text (the simulated side in metrics). */
  added: string[];
}

export interface LineDiff {
  added: number;
  removed: number;
  unchanged: number;
  hunks: LineHunk[];
  /** False when the work cap was hit and some common lines may have been missed. */
  exact: boolean;
}

export function splitLines(text: string): string[] {
  return text === '' ? [] : text.replace(/\r\n/g, '\n').split('\n');
}

/** Line diff from `before` to `after`. */
export function diffLines(before: string, after: string, budget = DEFAULT_DIFF_BUDGET): LineDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  // Comparing small integers is much cheaper than comparing strings in the inner loop.
  const ids = new Map<string, number>();
  const id = (line: string) => {
    let v = ids.get(line);
    if (v === undefined) ids.set(line, (v = ids.size));
    return v;
  };
  const ai = Int32Array.from(a, id);
  const bi = Int32Array.from(b, id);
  const keepA = new Uint8Array(a.length);
  const keepB = new Uint8Array(b.length);
  const state = { work: 0, budget, exact: true };
  align(ai, 0, a.length, bi, 0, b.length, keepA, keepB, state);

  const hunks: LineHunk[] = [];
  let unchanged = 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const hunk: LineHunk = { removed: [], added: [] };
    while (i < a.length && !keepA[i]) hunk.removed.push(a[i++]!);
    while (j < b.length && !keepB[j]) hunk.added.push(b[j++]!);
    if (hunk.removed.length || hunk.added.length) hunks.push(hunk);
    if (i < a.length && j < b.length) {
      unchanged++;
      i++;
      j++;
    }
  }
  const removed = a.length - unchanged;
  return { added: b.length - unchanged, removed, unchanged, hunks, exact: state.exact };
}

interface WorkState {
  work: number;
  budget: number;
  exact: boolean;
}

function align(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  keepA: Uint8Array, keepB: Uint8Array, state: WorkState,
): void {
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) keepA[aLo++] = keepB[bLo++] = 1;
  while (aHi > aLo && bHi > bLo && a[aHi - 1] === b[bHi - 1]) keepA[--aHi] = keepB[--bHi] = 1;
  if (aLo === aHi || bLo === bHi) return;
  const snake = middleSnake(a, aLo, aHi, b, bLo, bHi, state);
  if (!snake) {
    state.exact = false;
    return;
  }
  const [x, y, u, v] = snake;
  align(a, aLo, aLo + x, b, bLo, bLo + y, keepA, keepB, state);
  for (let k = 0; k < u - x; k++) keepA[aLo + x + k] = keepB[bLo + y + k] = 1;
  align(a, aLo + u, aHi, b, bLo + v, bHi, keepA, keepB, state);
}

/**
 * The middle snake of an optimal edit path, as [x, y, u, v] offsets into the two ranges;
 * null when the work budget ran out. Forward and backward searches meet in the middle.
 */
function middleSnake(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number, state: WorkState,
): [number, number, number, number] | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const delta = n - m;
  const odd = (delta & 1) !== 0;
  const max = Math.ceil((n + m) / 2) + 1;
  const off = max + 1;
  const vf = new Int32Array(2 * off + 1);
  const vb = new Int32Array(2 * off + 1);
  vf[off + 1] = 0;
  vb[off + 1] = 0;
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && vf[off + k - 1]! < vf[off + k + 1]!) ? vf[off + k + 1]! : vf[off + k - 1]! + 1;
      let y = x - k;
      const sx = x;
      const sy = y;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      vf[off + k] = x;
      state.work += x - sx + 1;
      const rk = delta - k;
      if (odd && rk >= -(d - 1) && rk <= d - 1 && x + vb[off + rk]! >= n) return [sx, sy, x, y];
    }
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && vb[off + k - 1]! < vb[off + k + 1]!) ? vb[off + k + 1]! : vb[off + k - 1]! + 1;
      let y = x - k;
      const sx = x;
      const sy = y;
      while (x < n && y < m && a[aHi - 1 - x] === b[bHi - 1 - y]) {
        x++;
        y++;
      }
      vb[off + k] = x;
      state.work += x - sx + 1;
      const fk = delta - k;
      if (!odd && fk >= -d && fk <= d && x + vf[off + fk]! >= n) return [n - x, m - y, n - sx, m - sy];
    }
    if (state.work > state.budget) return null;
  }
  return null;
}

/** Share of lines the two texts have in common: 2·unchanged / (lines in both); 1 for two empty texts. */
export function lineSimilarity(diff: LineDiff): number {
  const total = diff.added + diff.removed + 2 * diff.unchanged;
  return total === 0 ? 1 : (2 * diff.unchanged) / total;
}
