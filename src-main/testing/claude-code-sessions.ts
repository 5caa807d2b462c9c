// Claude Code sessions of one project as older versions (1.0.x) leave them when a session is
// resumed, for the tests of reading several sessions once: the resumed session's file opens
// with the conversation it resumed, each record copied with its uuid (and, as Claude Code's
// transcript store spreads the record it copies over its own fields, the session id it was
// first written with), then the turns that followed under the new session's id.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Rec = Record<string, unknown>;

/** One turn: the person's prompt, one Bash call, what it printed and the agent's answer, chained after `parent`. */
export function claudeTurn(session: string, prefix: string, parent: string | null, prompt: string, command: string, output: string): Rec[] {
  const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: session, version: '1.0.34' };
  const id = (n: number) => `${prefix}-${n}`;
  return [
    { parentUuid: parent, ...base, type: 'user', message: { role: 'user', content: prompt }, uuid: id(1), timestamp: '2025-07-01T10:00:00.000Z' },
    {
      parentUuid: id(1),
      ...base,
      type: 'assistant',
      message: { id: `msg_${prefix}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-20250514', content: [{ type: 'tool_use', id: `toolu_${prefix}`, name: 'Bash', input: { command } }] },
      requestId: `req_${prefix}`,
      uuid: id(2),
      timestamp: '2025-07-01T10:00:01.000Z',
    },
    { parentUuid: id(2), ...base, type: 'user', message: { role: 'user', content: [{ tool_use_id: `toolu_${prefix}`, type: 'tool_result', content: output }] }, uuid: id(3), timestamp: '2025-07-01T10:00:02.000Z' },
    { parentUuid: id(3), ...base, type: 'assistant', message: { id: `msg_${prefix}_end`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-20250514', content: [{ type: 'text', text: `Done: ${command}` }] }, uuid: id(4), timestamp: '2025-07-01T10:00:03.000Z' },
  ];
}

export const jsonl = (records: readonly Rec[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

/**
 * A project folder with session `first` (ls), the session that resumed it (its copy, then
 * python main.py), and an unrelated session (git status); the paths in that order.
 */
export function writeResumedProject(): { folder: string; first: string; resumed: string; other: string } {
  const folder = join(mkdtempSync(join(tmpdir(), 'wl-claude-resume-')), '-home-dev-app');
  mkdirSync(folder, { recursive: true });
  const one = claudeTurn('s-first', 'a', null, 'List the files', 'ls', 'main.py\n');
  const two = claudeTurn('s-resumed', 'b', 'a-4', 'Run it', 'python main.py', 'hello\n');
  const other = claudeTurn('s-other', 'c', null, 'What changed?', 'git status', 'nothing to commit\n');
  const paths = { folder, first: join(folder, 's-first.jsonl'), resumed: join(folder, 's-resumed.jsonl'), other: join(folder, 's-other.jsonl') };
  writeFileSync(paths.first, jsonl([{ type: 'summary', summary: 'List the files', leafUuid: 'a-4' }, ...one]));
  writeFileSync(paths.resumed, jsonl([{ type: 'summary', summary: 'List the files', leafUuid: 'a-4' }, ...one, ...two]));
  writeFileSync(paths.other, jsonl(other));
  return paths;
}
