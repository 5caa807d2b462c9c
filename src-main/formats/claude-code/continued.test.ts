// Several Claude Code sessions of a project read once each: a session resumed into a new file
// (which opens with a copy of its conversation) is carried on there, and its conversation is
// imported from there only; sessions that went another way, or are unrelated, stay their own.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeTurn, jsonl, writeResumedProject } from '../../testing/claude-code-sessions';
import { textSource } from '../../parsing/sources';
import { continuedSessions } from './continued';
import { claudeCodeImporter } from './import';

function parse(path: string, options = {}) {
  let n = 0;
  const items = [...claudeCodeImporter.parse(textSource(path, readFileSync(path, 'utf8')), () => `id-${n++}`, '2025-07-02T00:00:00Z', options)];
  return {
    bundles: items.flatMap((i) => (i.kind === 'trajectory' ? [i.bundle] : [])),
    skipped: items.flatMap((i) => (i.kind === 'skipped' ? [i] : [])),
  };
}
const actions = (bundle: { nodes: { action: string }[] }) => bundle.nodes.slice(1).map((n) => n.action);

describe('Claude Code sessions resumed into a new file', async () => {
  it('the resumed session carries on the one it resumed; an unrelated session is its own, in any order', async () => {
    const p = writeResumedProject();
    expect(await continuedSessions([p.first, p.resumed, p.other])).toEqual(new Map([[p.first, { in: p.resumed, copy: false }]]));
    expect(await continuedSessions([p.other, p.resumed, p.first])).toEqual(new Map([[p.first, { in: p.resumed, copy: false }]]));
    // Alone, or with only unrelated sessions, nothing is carried on elsewhere.
    expect((await continuedSessions([p.first, p.other])).size).toBe(0);
  });

  it('a session resumed twice is read from the last file, which holds all of it', async () => {
    const p = writeResumedProject();
    const third = join(p.folder, 's-third.jsonl');
    writeFileSync(third, readFileSync(p.resumed, 'utf8') + jsonl(claudeTurn('s-third', 'd', 'b-4', 'Test it', 'pytest -q', '1 passed\n')));
    expect(await continuedSessions([p.first, p.resumed, third])).toEqual(
      new Map([
        [p.first, { in: third, copy: false }],
        [p.resumed, { in: third, copy: false }],
      ]),
    );
  });

  it('a later session that rewound to before the end went another way: both are their own conversations, as Claude Code lists both', async () => {
    const p = writeResumedProject();
    const rewound = join(p.folder, 's-rewound.jsonl');
    // The copy, then a new first prompt (a rewind to the very start writes it as a root).
    writeFileSync(rewound, readFileSync(p.first, 'utf8') + jsonl(claudeTurn('s-rewound', 'e', null, 'List the files with sizes', 'ls -l', '-rw 1 main.py\n')));
    expect((await continuedSessions([p.first, rewound])).size).toBe(0);
  });

  it('a session resumed and left at once only copies the conversation: the first file keeps it', async () => {
    const p = writeResumedProject();
    const copy = join(p.folder, 's-copy.jsonl');
    writeFileSync(copy, readFileSync(p.first, 'utf8'));
    expect(await continuedSessions([p.first, copy])).toEqual(new Map([[copy, { in: p.first, copy: true }]]));
  });

  it('the resumed file read alone is the whole conversation, under its own session id, naming the session it resumed', async () => {
    const p = writeResumedProject();
    const { bundles } = parse(p.resumed);
    expect(bundles).toHaveLength(1);
    expect(actions(bundles[0]!)).toEqual(['ls', 'python main.py']);
    expect(bundles[0]!.nodes[0]!.provenance).toMatchObject({ source: { sampleId: 's-resumed' }, claudeCode: { resumedFrom: ['s-first'] } });
  });

  it('a session carried on elsewhere leaves its conversation out and says where it went on', async () => {
    const p = writeResumedProject();
    const { bundles, skipped } = parse(p.first, { conversationIn: { file: p.resumed, copy: false } });
    expect(bundles).toEqual([]);
    expect(skipped.at(-1)).toEqual({ kind: 'skipped', line: null, what: "the session's own conversation (1 tool call)", reason: expect.stringContaining(`continued in ${p.resumed}`) });
    const alone = parse(p.first);
    expect(actions(alone.bundles[0]!)).toEqual(['ls']);
    expect(alone.bundles[0]!.nodes[0]!.provenance).toMatchObject({ source: { sampleId: 's-first' } });
    expect(alone.bundles[0]!.nodes[0]!.provenance).not.toHaveProperty('claudeCode.resumedFrom');
  });
});
