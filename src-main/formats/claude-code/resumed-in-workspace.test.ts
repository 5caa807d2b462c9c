import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../store/workspace-store';
import { importTrajectories } from '../import-trajectories';
import { fileSource } from '../../parsing/sources';
import { claudeTurn, jsonl } from '../../testing/claude-code-sessions';

function folder(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'wl-resumed-ws-')), '-home-dev-app');
  mkdirSync(dir, { recursive: true });
  return dir;
}

function store(): WorkspaceStore {
  return WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-resumed-ws-store-')), 'a.worldloom'));
}

const importFile = (s: WorkspaceStore, path: string) => importTrajectories(s, fileSource(path));

/** Each trajectory's steps as paths from the root to each leaf: what a reader of the tree sees. */
function paths(s: WorkspaceStore): string[][][] {
  return s.listTrajectories().map((t) => {
    const nodes = s.getNodes(t.id);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const leaves = nodes.filter((n) => n.parentId !== null && !nodes.some((c) => c.parentId === n.id));
    return leaves.map((leaf) => {
      const path: string[] = [];
      for (let n = leaf; n.parentId !== null; n = byId.get(n.parentId)!) path.unshift(n.action);
      return path;
    });
  });
}

const summary = { type: 'summary', summary: 'List the files', leafUuid: 'a-4' };

describe('a resumed Claude Code session and the trajectory of the session it resumed', () => {
  it('a session resumed twice (A, B, C) imported as A then C continues A with B and C; B afterwards is already there', () => {
    const dir = folder();
    const a = claudeTurn('s-a', 'a', null, 'List the files', 'ls', 'main.py\n');
    const b = claudeTurn('s-b', 'b', 'a-4', 'Run it', 'python main.py', 'hello\n');
    const c = claudeTurn('s-c', 'c', 'b-4', 'Test it', 'pytest', '1 passed\n');
    writeFileSync(join(dir, 's-a.jsonl'), jsonl([summary, ...a]));
    writeFileSync(join(dir, 's-b.jsonl'), jsonl([summary, ...a, ...b]));
    writeFileSync(join(dir, 's-c.jsonl'), jsonl([summary, ...a, ...b, ...c]));
    const s = store();
    expect(importFile(s, join(dir, 's-a.jsonl')).imported).toBe(1);
    const third = importFile(s, join(dir, 's-c.jsonl'));
    expect(third).toMatchObject({ imported: 0, continued: [{ title: 'List the files (Claude Code)', steps: 2 }], notes: ['continued trajectory List the files (Claude Code) with 2 steps from s-c.jsonl'] });
    expect(paths(s)).toEqual([[['ls', 'python main.py', 'pytest']]]);
    const second = importFile(s, join(dir, 's-b.jsonl'));
    expect(second).toMatchObject({ imported: 0, alreadyPresent: 1 });
    expect(paths(s)).toEqual([[['ls', 'python main.py', 'pytest']]]);
    s.close();
  });

  it('goes on beside a step the person added by hand under the last one, which stays', () => {
    const dir = folder();
    const a = claudeTurn('s-a', 'a', null, 'List the files', 'ls', 'main.py\n');
    const b = claudeTurn('s-b', 'b', 'a-4', 'Run it', 'python main.py', 'hello\n');
    writeFileSync(join(dir, 's-a.jsonl'), jsonl([summary, ...a]));
    writeFileSync(join(dir, 's-b.jsonl'), jsonl([summary, ...a, ...b]));
    const s = store();
    const t = importFile(s, join(dir, 's-a.jsonl')).trajectoryIds[0]!;
    const last = s.getNodes(t).at(-1)!;
    s.addNode({ parentId: last.id, action: 'cat main.py', observation: 'print("hello")', origin: 'manual' });
    expect(importFile(s, join(dir, 's-b.jsonl')).continued).toEqual([{ trajectoryId: t, title: 'List the files (Claude Code)', steps: 1 }]);
    expect(paths(s)).toEqual([[['ls', 'cat main.py'], ['ls', 'python main.py']]]);
    s.close();
  });

  it("matches a command the person ran themselves (bash mode), though its call is named by a line that differs in the copy", () => {
    const dir = folder();
    const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: 's-a', version: '1.0.34', timestamp: '2025-07-01T10:00:05.000Z' };
    const a = claudeTurn('s-a', 'a', null, 'List the files', 'ls', 'main.py\n');
    const bash = [
      { parentUuid: 'a-4', ...base, type: 'user', message: { role: 'user', content: '<bash-input>pwd</bash-input>' }, uuid: 'p-1' },
      { parentUuid: 'p-1', ...base, type: 'user', message: { role: 'user', content: '<bash-stdout>/home/dev/app</bash-stdout><bash-stderr></bash-stderr>' }, uuid: 'p-2' },
    ];
    const b = claudeTurn('s-b', 'b', 'p-2', 'Run it', 'python main.py', 'hello\n');
    writeFileSync(join(dir, 's-a.jsonl'), jsonl([summary, ...a, ...bash]));
    // The resumed file opens with more of the app's own records: every copied line is on another line number.
    writeFileSync(join(dir, 's-b.jsonl'), jsonl([summary, { type: 'summary', summary: 'Ran it', leafUuid: 'b-4' }, ...a, ...bash, ...b]));
    const s = store();
    const first = importFile(s, join(dir, 's-a.jsonl'));
    expect(paths(s)).toEqual([[['ls', 'pwd']]]);
    expect(s.getNodes(first.trajectoryIds[0]!)[2]!.provenance.tool).toMatchObject({ callId: expect.stringMatching(/^bash-input-/) });
    expect(importFile(s, join(dir, 's-b.jsonl')).continued).toMatchObject([{ steps: 1 }]);
    expect(paths(s)).toEqual([[['ls', 'pwd', 'python main.py']]]);
    s.close();
  });

  it('a session unrelated to any here is imported as its own trajectory, with nothing said', () => {
    const dir = folder();
    writeFileSync(join(dir, 's-a.jsonl'), jsonl(claudeTurn('s-a', 'a', null, 'List the files', 'ls', 'main.py\n')));
    writeFileSync(join(dir, 's-o.jsonl'), jsonl(claudeTurn('s-o', 'o', null, 'What changed?', 'git status', 'clean\n')));
    const s = store();
    importFile(s, join(dir, 's-a.jsonl'));
    const other = importFile(s, join(dir, 's-o.jsonl'));
    expect(other).toMatchObject({ imported: 1, alreadyPresent: 0 });
    expect(other.notes).toBeUndefined();
    expect(other.continued).toBeUndefined();
    s.close();
  });
});
