// goose's sessions.db (1.10 on), built here with the tables goose creates: read read-only, one
// session by `<file>#<id>` or every session, each its own trajectory (a sub-agent's too), paired
// and said as in the .jsonl files; a path naming a session that is not there, or a database
// that is not goose's, is refused with what was found.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importPathSource } from '../../parsing/session-path';
import { WorkspaceStore } from '../../store/workspace-store';
import { GOOSE_MESSAGES, writeGooseDatabase } from '../../testing/goose-sessions';
import { importAsJob } from '../import-trajectories';
import { importerFor } from '../registry';
import { listGooseSessions } from './database';
import { gooseDatabaseSessions } from './sessions';

let dir: string;
let db: string;
let store: WorkspaceStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wl-goose-db-'));
  db = join(dir, 'sessions', 'sessions.db');
  writeGooseDatabase(db, [
    { id: '20251108_1', name: 'Fix the parser test', workingDir: '/home/ana/shop', updatedAt: '2025-11-08 10:05:00', messages: GOOSE_MESSAGES },
    {
      id: '20251108_2',
      name: 'Count the lines',
      workingDir: '/home/ana/shop',
      sessionType: 'sub_agent',
      updatedAt: '2025-11-08 10:03:00.123456789+00:00',
      messages: [
        { role: 'user', content: '[{"type":"text","text":"Count the lines of src/parser.ts"}]' },
        { role: 'assistant', content: '[{"type":"toolRequest","id":"call_9","toolCall":{"status":"success","value":{"name":"shell","arguments":{"command":"wc -l src/parser.ts","timeout_secs":30}}}}]' },
        { role: 'user', content: '[{"type":"toolResponse","id":"call_9","toolResult":{"status":"success","value":{"content":[{"type":"text","text":"41 src/parser.ts"}],"isError":false}}}]' },
      ],
    },
    // Created, never used: goose lists only sessions with messages.
    { id: '20251108_3', name: '', workingDir: '/tmp', updatedAt: '2025-11-08 11:00:00', messages: [] },
  ]);
  store = WorkspaceStore.create(join(dir, 'w.worldloom'));
});
afterEach(() => store.close());

const importPath = (path: string) => {
  const { source, head } = importPathSource(path);
  return importAsJob(store, source, { head, signal: new AbortController().signal, added: [] });
};
const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe("goose's sessions.db", () => {
  it('lists each session with messages: its folder, time, size and tool calls, without decoding a message', () => {
    expect(listGooseSessions(db).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: '20251108_1', project: '/home/ana/shop', modified: '2025-11-08T10:05:00.000Z', bytes: GOOSE_MESSAGES.reduce((n, m) => n + Buffer.byteLength(m.content), 0), toolCalls: 4 },
      { id: '20251108_2', project: '/home/ana/shop', modified: '2025-11-08T10:03:00.123Z', bytes: expect.any(Number), toolCalls: 1 },
    ]);
  });

  it('is recognised by its tables, and one session is imported by <file>#<id>, the database left as it was', async () => {
    const before = { digest: digest(db), mtime: statSync(db).mtimeMs };
    expect(importerFor('auto', 'sessions.db', importPathSource(db).head).id).toBe('goose-db');
    const report = await importPath(`${db}#20251108_1`);
    expect(report).toMatchObject({ file: 'sessions.db#20251108_1', format: 'goose-db', imported: 1, problems: [] });
    const [t] = store.listTrajectories();
    const nodes = store.getNodes(t!.id);
    expect(nodes.map((n) => n.action).slice(1)).toEqual(['npm test -- parser', '{"name":"developer__text_editor","arguments":{"command":"view","path":"src/parser.ts","line":1.0}}', 'cat /etc/shadow']);
    expect(nodes[1]!.observation).toBe('FAIL parser.test.ts\n  expected 3, got 2\n');
    expect(nodes[0]!.observation).toBe('Working directory: /home/ana/shop\n\nWhy does the parser test fail?');
    expect(report.skipped.map((s) => s.what)).toEqual(expect.arrayContaining(['1 × text goose wrote for the model only', '1 × tool call goose could not read', 'the call rm -rf build']));
    // Read-only: not a byte of the user's database changed.
    expect({ digest: digest(db), mtime: statSync(db).mtimeMs }).toEqual(before);
    // Imported again, it is recognised and not imported twice.
    expect(await importPath(`${db}#20251108_1`)).toMatchObject({ imported: 0, alreadyPresent: 1 });
  });

  it('imports every session of the file when no session is named: a sub-agent is its own trajectory', async () => {
    const report = await importPath(db);
    expect(report).toMatchObject({ imported: 2, problems: [] });
    const titles = store.listTrajectories().map((t) => t.title).sort();
    expect(titles).toEqual(['goose sub-agent · Count the lines', 'goose · Fix the parser test']);
    const sub = store.listTrajectories().find((t) => t.title.startsWith('goose sub-agent'))!;
    // A shell call with a timeout keeps the timeout: the whole call is the action.
    expect(store.getNodes(sub.id)[1]!.action).toBe('{"name":"shell","arguments":{"command":"wc -l src/parser.ts","timeout_secs":30}}');
  });

  it('says so when the named session is not there, or the database is not goose’s', async () => {
    await expect(importPath(`${db}#20990101_1`)).rejects.toThrow(/has no session "20990101_1".*worldloom sessions/);
    const other = join(dir, 'other', 'sessions.db');
    const plain = new Database(join(dir, 'plain.db'));
    plain.exec('CREATE TABLE notes (id INTEGER)');
    plain.close();
    expect(() => listGooseSessions(join(dir, 'plain.db'))).toThrow(/without goose's sessions and messages tables \(it has notes\)/);
    expect(() => listGooseSessions(other)).toThrow(/could not be opened as goose's SQLite database/);
  });

  it('is bounded by what it reads, as every import is: past the limit, the limit and the flag that raises it are named', async () => {
    const { source, head } = importPathSource(db);
    await expect(importAsJob(store, source, { head, signal: new AbortController().signal, added: [], maxBytes: 2000 })).rejects.toThrow(/more than 2000 bytes of messages; import one session at a time.*--max-mib/);
    expect(store.listTrajectories()).toEqual([]);
  });

  it('reads a database in WAL mode without leaving files beside it, and through the log while goose has it open', async () => {
    const wal = new Database(db);
    wal.pragma('journal_mode = WAL');
    wal.close();
    expect(listGooseSessions(db)).toHaveLength(2);
    expect(await importPath(`${db}#20251108_2`)).toMatchObject({ imported: 1 });
    expect(readdirSync(dirname(db))).toEqual(['sessions.db']);
    // goose running: a session it wrote is still in its log, not yet in the file.
    const goose = new Database(db);
    goose.pragma('wal_autocheckpoint = 0');
    goose.prepare("INSERT INTO sessions (id, name, working_dir) VALUES ('20251108_4', 'New', '/home/ana/new')").run();
    goose.prepare("INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('20251108_4', 'user', '[]', 1)").run();
    expect(listGooseSessions(db).map((s) => s.id)).toContain('20251108_4');
    goose.close();
  });

  it('a message whose content is not JSON is said by line, and the rest of the session is read', async () => {
    const write = new Database(db);
    write.prepare("UPDATE messages SET content_json = '[{\"type\":\"text\"' WHERE session_id = '20251108_2' AND role = 'user' AND content_json LIKE '%Count the lines%'").run();
    write.close();
    const report = await importPath(`${db}#20251108_2`);
    expect(report.problems).toEqual([expect.objectContaining({ line: 2, reason: expect.stringContaining('not valid JSON') })]);
    expect(report.imported).toBe(1);
  });

  it('looks in GOOSE_PATH_ROOT, else XDG_DATA_HOME, else ~/.local/share/goose; on Windows in %APPDATA%\\Block\\goose\\data', () => {
    const at = (platform: string, env: Record<string, string>, home = '/home/ana') => gooseDatabaseSessions.folders({ home, platform, env });
    expect(at('linux', {})).toEqual([{ path: '/home/ana/.local/share/goose/sessions', from: 'default' }]);
    expect(at('darwin', {}, '/Users/ana')).toEqual([{ path: '/Users/ana/.local/share/goose/sessions', from: 'default' }]);
    expect(at('linux', { XDG_DATA_HOME: '/data/xdg' })).toEqual([{ path: '/data/xdg/goose/sessions', from: 'XDG_DATA_HOME' }]);
    // goose takes only an absolute root.
    expect(at('linux', { GOOSE_PATH_ROOT: '/srv/goose', XDG_DATA_HOME: '/data/xdg' })).toEqual([{ path: '/srv/goose/data/sessions', from: 'GOOSE_PATH_ROOT' }]);
    expect(at('linux', { GOOSE_PATH_ROOT: 'relative/root' })).toEqual([{ path: '/home/ana/.local/share/goose/sessions', from: 'default' }]);
    expect(at('win32', { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, 'C:\\Users\\ana')).toEqual([{ path: 'C:\\Users\\ana\\AppData\\Roaming\\Block\\goose\\data\\sessions', from: 'APPDATA' }]);
  });
});
