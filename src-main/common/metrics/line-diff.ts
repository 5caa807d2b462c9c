// Line diff between two observations: how many lines the simulation added and removed
// relative to the real one. The alignment is jsdiff's (Myers' O((N+M)·D) diff). Its search
// grows with the square of the edit length D, so a cap keeps pathological pairs (thousands
// of lines, nothing in common but blank lines) bounded: past it, the lines between the
// common head and tail count as fully changed. Pure.
import { diffArrays } from 'diff';

/** Line edits searched before giving up on an exact alignment (~0.5 s of jsdiff's work). */
export const DEFAULT_MAX_LINE_EDITS = 1000;

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
export function diffLines(before: string, after: string, maxEdits = DEFAULT_MAX_LINE_EDITS): LineDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  const changes = diffArrays(a, b, { maxEditLength: maxEdits });
  // Each change is a run of kept, removed or added lines; walking both texts in step turns
  // runs between two kept runs into one hunk, whichever order jsdiff gives them in.
  const runs = changes ?? fallbackRuns(a, b);
  const hunks: LineHunk[] = [];
  let hunk: LineHunk | null = null;
  let i = 0;
  let j = 0;
  let unchanged = 0;
  for (const run of runs) {
    if (!run.added && !run.removed) {
      if (hunk) hunks.push(hunk);
      hunk = null;
      unchanged += run.count;
      i += run.count;
      j += run.count;
      continue;
    }
    hunk ??= { removed: [], added: [] };
    if (run.removed) hunk.removed.push(...a.slice(i, (i += run.count)));
    else hunk.added.push(...b.slice(j, (j += run.count)));
  }
  if (hunk) hunks.push(hunk);
  return { added: b.length - unchanged, removed: a.length - unchanged, unchanged, hunks, exact: changes !== undefined };
}

interface Run {
  count: number;
  added: boolean;
  removed: boolean;
}

/** Past the cap: the common head and tail are kept, everything between them changed. */
function fallbackRuns(a: string[], b: string[]): Run[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const runs: Run[] = [
    { count: head, added: false, removed: false },
    { count: a.length - head - tail, added: false, removed: true },
    { count: b.length - head - tail, added: true, removed: false },
    { count: tail, added: false, removed: false },
  ];
  return runs.filter((run) => run.count > 0);
}

/** Share of lines the two texts have in common: 2·unchanged / (lines in both); 1 for two empty texts. */
export function lineSimilarity(diff: LineDiff): number {
  const total = diff.added + diff.removed + 2 * diff.unchanged;
  return total === 0 ? 1 : (2 * diff.unchanged) / total;
}
