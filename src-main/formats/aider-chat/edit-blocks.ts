// The edits in one of aider's replies: the blocks aider applies to files, as the model wrote
// them, apart from the words around them. aider's edit formats (its coders/*_prompts.py) put
// each edit in a fence: SEARCH/REPLACE blocks (`diff`, the default for most models: the file's
// path on the line before the fence; `diff-fenced`: the path inside it) and unified diffs
// (`udiff`: `--- path` / `+++ path` hunks). The `whole` format is a file's path on the line
// before a fence holding its whole new text, which cannot be told from other code in a reply
// but by the path: a fence after the path of a file aider then said it edited is that file's
// edit. A reply whose edits are not found here is its own action, as written. Pure.

export interface ReplyEdits {
  /** The edit blocks, each with the path line before its fence, joined by a blank line as written apart. */
  edits: string;
  /** The rest of the reply: what the model said about the edits. */
  words: string;
}

const FENCE = /^(`{3,}|~{3,})/;
const SEARCH = /^<{5,9} SEARCH\s*$/;
const REPLACE = /^>{5,9} REPLACE\s*$/;
/** A path on its own line: no spaces inside, as aider's prompts ask for it. */
const PATH_LINE = /^\S+$/;

/** Where each fence opens and closes (the closing line's index), or null when the reply has no edits in fences. */
function fences(lines: readonly string[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const marker = open[1]!;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() !== marker) j++;
    out.push({ from: i, to: Math.min(j, lines.length - 1) });
    i = j;
  }
  return out;
}

const isEdit = (body: readonly string[]) => body.some((l) => SEARCH.test(l)) || (body.some((l) => l.startsWith('--- ')) && body.some((l) => l.startsWith('+++ ')) && body.some((l) => l.startsWith('@@')));

/** A path line as aider reads one before a fence: without Markdown emphasis, heading marks, backticks or a closing colon. */
const pathOf = (line: string) => line.trim().replace(/^#+\s*/, '').replace(/^[*`]+|[*`]+$/g, '').replace(/:$/, '').trim();

/** The reply's edit blocks and its other words; null when it holds none. `edited`: the files aider said it edited. */
export function replyEdits(reply: string, edited: ReadonlySet<string> = new Set()): ReplyEdits | null {
  const lines = reply.split('\n');
  const taken = new Set<number>();
  const blocks: { start: number; text: string }[] = [];
  for (const { from, to } of fences(lines)) {
    // The path aider reads the block for: the line before the fence, or before a blank line there (older models left one).
    const above = from > 0 && lines[from - 1]!.trim() === '' && from > 1 ? from - 2 : from - 1;
    const path = above >= 0 && !taken.has(above) && !FENCE.test(lines[above]!) ? lines[above]! : null;
    const named = path !== null && edited.has(pathOf(path));
    if (!named && !isEdit(lines.slice(from + 1, to))) continue;
    const start = path !== null && (named || PATH_LINE.test(path.trim())) ? above : from;
    for (let i = start; i <= to; i++) taken.add(i);
    blocks.push({ start, text: lines.slice(start, to + 1).join('\n') });
  }
  // SEARCH/REPLACE blocks written without a fence, which aider applies too.
  for (let i = 0; i < lines.length; i++) {
    if (taken.has(i) || !SEARCH.test(lines[i]!)) continue;
    let end = i;
    while (end < lines.length && !REPLACE.test(lines[end]!)) end++;
    if (end === lines.length) continue;
    const start = i > 0 && !taken.has(i - 1) && PATH_LINE.test(lines[i - 1]!.trim()) ? i - 1 : i;
    for (let k = start; k <= end; k++) taken.add(k);
    blocks.push({ start, text: lines.slice(start, end + 1).join('\n') });
    i = end;
  }
  if (blocks.length === 0) return null;
  const words = lines
    .filter((_, i) => !taken.has(i))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { edits: blocks.sort((a, b) => a.start - b.start).map((b) => b.text).join('\n\n'), words };
}
