// The README is the door to docs/: every page there must be reachable from it, and every
// relative link in the README and the pages must land on a file (and, with a #fragment, on a
// heading of that file), so moving text between pages cannot leave a dead link behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './testing/paths';

const DOCS = join(PROJECT_ROOT, 'docs');
const pages = [join(PROJECT_ROOT, 'README.md'), ...readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => join(DOCS, f))];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '');
  const headings = [...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!);
  return new Set(headings.map((h) => h.toLowerCase().replace(/[`*]/g, '').replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-')));
}

/** The relative link targets of a markdown file (web addresses left out). */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('the README and docs/', () => {
  it('links every page of docs/ from the README', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const linked = new Set(relativeLinks(readme).map((target) => target.split('#')[0]));
    const unlinked = readdirSync(DOCS).filter((f) => f.endsWith('.md') && !linked.has(`docs/${f}`));
    expect(unlinked, 'docs pages the README does not link').toEqual([]);
  });

  it('has no relative link to a missing file or heading', () => {
    const dead: string[] = [];
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      for (const target of relativeLinks(text)) {
        const [file, fragment] = target.split('#');
        const resolved = file ? join(dirname(page), file) : page;
        const where = `${relative(PROJECT_ROOT, page)} → ${target}`;
        if (!existsSync(resolved)) dead.push(`${where} (no such file)`);
        else if (fragment && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(fragment)) dead.push(`${where} (no such heading)`);
      }
    }
    expect(dead).toEqual([]);
  });

  it('keeps the README short enough to read through (about 150 lines)', () => {
    const lines = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(200);
  });
});
