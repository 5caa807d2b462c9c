// A web observation as an accessibility snapshot, in the YAML-like layout Playwright's
// `ariaSnapshot` writes: one `- role "name" [attr] [ref=eN]` per line, children indented
// two spaces, text as `- paragraph: …`. Web kinds add overlays, move elements and
// replace pages through these helpers so the result keeps that layout and its refs.

export interface AriaElement {
  role: string;
  name?: string;
  /** Bracketed attributes without brackets: `level=1`, `checked`. */
  attrs?: string[];
  /** Inline text content (`- paragraph: text`); an element has text or children. */
  text?: string;
  children?: AriaElement[];
}

export interface Snapshot {
  lines: string[];
  /** Whether elements carry `[ref=…]`; new elements get refs only if the page uses them. */
  usesRefs: boolean;
  nextRef(): string;
}

export function parseSnapshot(observation: string): Snapshot {
  const lines = observation.replace(/\s+$/, '').split('\n');
  const refs = [...observation.matchAll(/\[ref=e(\d+)\]/g)].map((m) => Number(m[1]));
  let next = refs.length > 0 ? Math.max(...refs) + 1 : 1;
  return { lines, usesRefs: refs.length > 0, nextRef: () => `e${next++}` };
}

export const depthOf = (line: string) => Math.floor((/^ */.exec(line)![0].length) / 2);

/** Index just past the subtree of the element at line `i`. */
export function subtreeEnd(lines: string[], i: number): number {
  const depth = depthOf(lines[i]!);
  let j = i + 1;
  while (j < lines.length && (lines[j]!.trim() === '' || depthOf(lines[j]!) > depth)) j++;
  return j;
}

export function renderElements(snapshot: Snapshot, elements: AriaElement[], depth = 0): string[] {
  const out: string[] = [];
  for (const el of elements) {
    const parts = [`${'  '.repeat(depth)}- ${el.role}`];
    if (el.name !== undefined) parts.push(JSON.stringify(el.name));
    for (const a of el.attrs ?? []) parts.push(`[${a}]`);
    if (snapshot.usesRefs && el.role !== 'text') parts.push(`[ref=${snapshot.nextRef()}]`);
    let line = parts.join(' ');
    if (el.text !== undefined) line += `: ${el.text}`;
    else if (el.children && el.children.length > 0) line += ':';
    out.push(line);
    if (el.children) out.push(...renderElements(snapshot, el.children, depth + 1));
  }
  return out;
}

/** The role and accessible name of a snapshot line: `- button "Pay" [ref=e3]` → button, Pay. */
export function roleAndName(line: string): { role: string; name?: string } {
  const m = /^\s*- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?/.exec(line);
  return m ? { role: m[1]!, name: m[2] } : { role: '' };
}

/** Line index of the element an action targets, by accessible name or by ref. */
export function findTarget(lines: string[], target: string): number {
  const byRef = lines.findIndex((l) => l.includes(`[ref=${target}]`));
  if (byRef >= 0) return byRef;
  return lines.findIndex((l) => roleAndName(l).name === target);
}

const INTERACTIVE = /^\s*- (button|link|textbox|checkbox|radio|combobox|menuitem|tab|switch|searchbox)\b/;

export function interactiveLines(lines: string[]): number[] {
  return lines.flatMap((l, i) => (INTERACTIVE.test(l) ? [i] : []));
}

/** Top-level landmarks worth keeping around a replaced page (header, navigation). */
export function isChrome(line: string): boolean {
  return /^- (banner|navigation)\b/.test(line);
}
