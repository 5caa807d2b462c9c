// goose sessions found on disk by the session search: a .jsonl file of goose before 1.10 is one
// session; goose's sessions.db beside it is listed one entry per session (`<file>#<id>`), each
// with its working folder, time, size and tool calls, none of them imported.
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GOOSE_MESSAGES, gooseJsonlSession, writeGooseDatabase } from '../testing/goose-sessions';
import { findSessions } from './find-sessions';

describe('goose sessions on disk', () => {
  it('lists each .jsonl file and each session inside sessions.db, newest first, with project, date, size and tool calls', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wl-goose-home-'));
    const folder = join(home, '.local/share/goose/sessions');
    mkdirSync(folder, { recursive: true });
    const file = join(folder, '20250513_101500.jsonl');
    writeFileSync(file, gooseJsonlSession('/home/ana/old-shop'));
    utimesSync(file, new Date('2025-05-13T10:20:00Z'), new Date('2025-05-13T10:20:00Z'));
    const db = join(folder, 'sessions.db');
    writeGooseDatabase(db, [
      { id: '20251108_1', name: 'Fix the parser test', workingDir: '/home/ana/shop', updatedAt: '2025-11-08 10:05:00', messages: GOOSE_MESSAGES },
      { id: '20251109_1', name: 'Sub-task', workingDir: '/home/ana/api', sessionType: 'sub_agent', updatedAt: '2025-11-09 08:00:00', messages: GOOSE_MESSAGES.slice(0, 3) },
    ]);
    const found = await findSessions({ home, platform: 'linux', env: {} });
    const goose = found.sessions.filter((s) => s.agent === 'goose');
    expect(goose.map((s) => ({ path: s.path, format: s.format, project: s.project, modified: s.modified, toolCalls: s.toolCalls }))).toEqual([
      { path: `${db}#20251109_1`, format: 'goose-db', project: '/home/ana/api', modified: '2025-11-09T08:00:00.000Z', toolCalls: 1 },
      { path: `${db}#20251108_1`, format: 'goose-db', project: '/home/ana/shop', modified: '2025-11-08T10:05:00.000Z', toolCalls: 4 },
      { path: file, format: 'goose-jsonl', project: '/home/ana/old-shop', modified: '2025-05-13T10:20:00.000Z', toolCalls: 4 },
    ]);
    expect(goose.every((s) => s.bytes > 0)).toBe(true);
    expect(found.folders.filter((f) => f.agent === 'goose')).toEqual([
      { agent: 'goose', format: 'goose-jsonl', path: folder, from: 'default', exists: true, sessions: 1 },
      { agent: 'goose', format: 'goose-db', path: folder, from: 'default', exists: true, sessions: 2 },
    ]);
    expect(found.problems).toEqual([]);
  });

  it('does not list twice a .jsonl session goose copied into its database (same id), and lists the others', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wl-goose-home-'));
    const folder = join(home, '.local/share/goose/sessions');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '20250513_101500.jsonl'), gooseJsonlSession('/home/ana/copied'));
    writeFileSync(join(folder, '20250514_090000.jsonl'), gooseJsonlSession('/home/ana/not-copied'));
    writeGooseDatabase(join(folder, 'sessions.db'), [{ id: '20250513_101500', name: 'Copied in', workingDir: '/home/ana/copied', updatedAt: '2025-11-08 10:05:00', messages: GOOSE_MESSAGES }]);
    const found = await findSessions({ home, platform: 'linux', env: {} });
    expect(found.sessions.filter((s) => s.agent === 'goose').map((s) => [s.format, s.project]).sort()).toEqual([
      ['goose-db', '/home/ana/copied'],
      ['goose-jsonl', '/home/ana/not-copied'],
    ]);
  });

  it('says a sessions.db it cannot read as goose’s, and lists the rest', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wl-goose-home-'));
    const folder = join(home, 'xdg/goose/sessions');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'sessions.db'), 'not a database');
    writeFileSync(join(folder, 'a.jsonl'), gooseJsonlSession('/w'));
    const found = await findSessions({ home, platform: 'linux', env: { XDG_DATA_HOME: join(home, 'xdg') } });
    expect(found.sessions.filter((s) => s.agent === 'goose').map((s) => s.format)).toEqual(['goose-jsonl']);
    expect(found.problems).toEqual([{ path: join(folder, 'sessions.db'), reason: expect.stringMatching(/^it could not be read \(sessions\.db could not be opened as goose's SQLite database \(file is not a database\): check that the file is readable/) }]);
  });
});
