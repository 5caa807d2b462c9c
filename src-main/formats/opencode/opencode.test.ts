// opencode sessions, written here as opencode writes them (../../testing/opencode-sessions.ts):
// its JSON storage (a file per session, message and part) and its opencode.db read into the same
// trajectories: each tool part's input as the call and its output (or error) byte for byte as
// the result, the person's words as the task, a sub-agent's session its own trajectory, what
// opencode wrote for itself said.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importPathSource } from '../../parsing/session-path';
import { textSource } from '../../parsing/sources';
import { WorkspaceStore } from '../../store/workspace-store';
import { opencodeSessions, writeOpencodeDatabase, writeOpencodeStorage } from '../../testing/opencode-sessions';
import { importAsJob } from '../import-trajectories';
import { importerFor } from '../registry';
import { listOpencodeSessions } from './database';
import { opencodeImporter } from './import';
import { opencodeDatabaseSessions, opencodeStorageSessions } from './sessions';

const MAIN = 'ses_5f1a2b3c4d5eAAAAAAAAAAAAAA';
const CHILD = 'ses_5f1a2b3c4d5eCCCCCCCCCCCCCC';

let dir: string;
let data: string;
let store: WorkspaceStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wl-opencode-'));
  data = join(dir, 'xdg', 'opencode');
  store = WorkspaceStore.create(join(dir, 'w.worldloom'));
});
afterEach(() => store.close());

const importPath = (path: string) => {
  const { source, head } = importPathSource(path);
  return importAsJob(store, source, { head, signal: new AbortController().signal, added: [] });
};
const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const trajectory = (titleStart: string) => {
  const t = store.listTrajectories().find((x) => x.title.startsWith(titleStart));
  if (!t) throw new Error(`no trajectory titled ${titleStart}… (have ${store.listTrajectories().map((x) => x.title).join(', ')})`);
  return { t, nodes: store.getNodes(t.id) };
};

/** What the main session must import as, from whichever store it was read. */
function expectMainSession(report: Awaited<ReturnType<typeof importPath>>) {
  const { nodes } = trajectory('opencode · Why the parser test fails');
  expect(nodes[0]!.observation).toBe('Working directory: /home/ana/shop\n\nWhy does the parser test fail? See @src/parser.ts');
  expect(nodes.slice(1).map((n) => [n.action, n.observation])).toEqual([
    // bash's other arguments are part of the call as written; the output keeps its escape bytes.
    ['{"name":"bash","arguments":{"command":"npm test -- parser","description":"Runs the parser tests"}}', 'FAIL parser.test.ts\n  expected 3, got 2\n\u001b[31m1 failed\u001b[39m\n'],
    ['{"name":"read","arguments":{"filePath":"/home/ana/shop/src/parsr.ts"}}', 'Error: File not found: /home/ana/shop/src/parsr.ts'],
    ['{"name":"task","arguments":{"description":"Count the lines","prompt":"Count the lines of src/parser.ts","subagent_type":"general"}}', `task_id: ${CHILD}\n\n<task_result>\n41 src/parser.ts\n</task_result>`],
  ]);
  expect(nodes[1]!.agentReasoning).toBe('Run the tests first.\n\nRunning them.');
  expect(nodes[2]!.provenance).toMatchObject({ tool: { name: 'read', callId: 'toolu_02', isError: true } });
  expect(nodes[0]!.provenance).toMatchObject({ opencode: { sessionId: MAIN, projectId: '8e1f0c2a', version: '1.1.40' } });
  const said = report.skipped.map((s) => s.what);
  expect(said).toEqual(
    expect.arrayContaining([
      '1 × text opencode added to the person\'s message (synthetic)',
      '1 × file attached to a message',
      '3 × step-start marker',
      '2 × step-finish marker',
      '1 × patch record',
      expect.stringMatching(/^the harness call todowrite/),
      'the call npm test',
      "the agent's last words: The count is off by one in src/parser.ts.",
    ]),
  );
}

describe('opencode JSON storage (before 1.2)', () => {
  it('a session file is read with its message and part files: calls paired with results, an error result, what opencode wrote for itself said', async () => {
    const [main] = writeOpencodeStorage(join(data, 'storage'), opencodeSessions());
    expect(importerFor('auto', `${MAIN}.json`, importPathSource(main!).head).id).toBe('opencode');
    const report = await importPath(main!);
    expect(report).toMatchObject({ format: 'opencode', imported: 1, problems: [] });
    expectMainSession(report);
    expect(await importPath(main!)).toMatchObject({ imported: 0, alreadyPresent: 1 });
  });

  it("a sub-agent's session (the task tool's, with a parentID) is its own trajectory", async () => {
    const [, child] = writeOpencodeStorage(join(data, 'storage'), opencodeSessions());
    expect(await importPath(child!)).toMatchObject({ imported: 1, problems: [] });
    const { nodes } = trajectory('opencode sub-agent · Count the lines');
    expect(nodes[0]!.observation).toBe('Working directory: /home/ana/shop\n\nCount the lines of src/parser.ts');
    expect(nodes[1]!.action).toBe('{"name":"bash","arguments":{"command":"wc -l src/parser.ts","description":"Counts lines","timeout":30000}}');
    expect(nodes[1]!.observation).toBe('41 src/parser.ts\n');
    expect(nodes[0]!.provenance).toMatchObject({ opencode: { sessionId: CHILD, parentSessionId: MAIN } });
  });

  it('a part file that is not JSON is said with its path, and the rest of the session is read', async () => {
    writeOpencodeStorage(join(data, 'storage'), opencodeSessions());
    const broken = join(data, 'storage', 'part', 'msg_a0003', 'prt_a0010.json');
    writeFileSync(broken, '{"id": "prt_a0010", "type": "tool", "st');
    const report = await importPath(join(data, 'storage', 'session', '8e1f0c2a', `${MAIN}.json`));
    expect(report.problems).toEqual([expect.objectContaining({ reason: expect.stringContaining(`${broken} is not valid JSON`) })]);
    expect(trajectory('opencode · Why').nodes).toHaveLength(3);
  });

  it('a session file away from its storage folder, or pasted, is refused with where its messages are', async () => {
    const away = join(dir, `${MAIN}.json`);
    writeFileSync(away, JSON.stringify(opencodeSessions()[0]!.info, null, 2));
    await expect(importPath(away)).rejects.toThrow(/messages are kept in storage\/message\/<session id>\/.*opencode export/);
    await expect(opencodeImporter.prepare!(textSource('s.json', readFileSync(away, 'utf8')))).rejects.toThrow(/import it by its path.*opencode export/);
  });

  it('a message or part file imported on its own is refused, naming its session file, which reads them all', async () => {
    const [main] = writeOpencodeStorage(join(data, 'storage'), opencodeSessions());
    const part = join(data, 'storage', 'part', 'msg_a0002', 'prt_a0007.json');
    expect(importerFor('auto', 'prt_a0007.json', importPathSource(part).head).id).toBe('opencode');
    await expect(importPath(part)).rejects.toThrow(`prt_a0007.json is one part of an opencode session, which opencode keeps over many files: import the session's own file, ${main},`);
    await expect(importPath(join(data, 'storage', 'message', MAIN, 'msg_a0002.json'))).rejects.toThrow(/is one message of an opencode session/);
  });

  it('a call the person interrupted has what it printed until then as its result, as opencode gives the model', async () => {
    const sessions = opencodeSessions();
    const bash = sessions[0]!.messages[1]!.parts.find((p) => p.type === 'tool')!;
    bash.state = { status: 'error', input: { command: 'npm test -- parser' }, error: 'Tool execution aborted', metadata: { interrupted: true, output: 'FAIL parser.test.ts\n' }, time: { start: 1, end: 2 } };
    const [main] = writeOpencodeStorage(join(data, 'storage'), sessions);
    await importPath(main!);
    const step = trajectory('opencode · Why').nodes[1]!;
    expect([step.action, step.observation]).toEqual(['npm test -- parser', 'FAIL parser.test.ts\n']);
    expect(step.provenance).toMatchObject({ tool: { isError: true } });
  });

  it('what `opencode export` prints imports as the same trajectory', async () => {
    const [main] = opencodeSessions();
    const file = join(dir, 'export.json');
    writeFileSync(file, JSON.stringify({ info: main!.info, messages: main!.messages }, null, 2) + '\n');
    expect(importerFor('auto', 'export.json', importPathSource(file).head).id).toBe('opencode');
    expectMainSession(await importPath(file));
  });
});

describe('opencode.db (1.2 and later)', () => {
  it('lists each session with messages, and imports one by <file>#<id> as the storage reads it, the database left as it was', async () => {
    const db = join(data, 'opencode.db');
    writeOpencodeDatabase(db, opencodeSessions());
    expect(listOpencodeSessions(db).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: MAIN, project: '/home/ana/shop', modified: new Date(1_760_000_060_000).toISOString(), bytes: expect.any(Number), toolCalls: 4 },
      { id: CHILD, project: '/home/ana/shop', modified: new Date(1_760_000_009_000).toISOString(), bytes: expect.any(Number), toolCalls: 1 },
    ]);
    const before = { digest: digest(db), mtime: statSync(db).mtimeMs };
    expect(importerFor('auto', 'opencode.db', importPathSource(db).head).id).toBe('opencode-db');
    const report = await importPath(`${db}#${MAIN}`);
    expect(report).toMatchObject({ file: `opencode.db#${MAIN}`, format: 'opencode-db', imported: 1, problems: [] });
    expectMainSession(report);
    expect({ digest: digest(db), mtime: statSync(db).mtimeMs }).toEqual(before);
  });

  it('imports every session when none is named, a sub-agent apart; a missing session is refused with what to do', async () => {
    const db = join(data, 'opencode.db');
    writeOpencodeDatabase(db, opencodeSessions());
    expect(await importPath(db)).toMatchObject({ imported: 2, problems: [] });
    expect(store.listTrajectories().map((t) => t.title).sort()).toEqual(['opencode sub-agent · Count the lines (@general subagent)', 'opencode · Why the parser test fails']);
    await expect(importPath(`${db}#ses_gone`)).rejects.toThrow(/has no session "ses_gone".*worldloom sessions/);
  });

  it('a session the person reverted (/undo) keeps what opencode shows: the undone messages are said', async () => {
    const db = join(data, 'opencode.db');
    writeOpencodeDatabase(db, opencodeSessions(), { [MAIN]: { messageID: 'msg_a0003', snapshot: '4b825dc6' } });
    const report = await importPath(`${db}#${MAIN}`);
    expect(trajectory('opencode · Why').nodes.slice(1).map((n) => n.action)).toEqual(['{"name":"bash","arguments":{"command":"npm test -- parser","description":"Runs the parser tests"}}']);
    expect(report.skipped.map((s) => s.what)).toContain('9 × part the person undid (/undo)');
  });

  it('an /undo to a part keeps the parts of that message before it', async () => {
    const db = join(data, 'opencode.db');
    writeOpencodeDatabase(db, opencodeSessions(), { [MAIN]: { messageID: 'msg_a0003', partID: 'prt_a0011' } });
    const report = await importPath(`${db}#${MAIN}`);
    expect(trajectory('opencode · Why').nodes.slice(1).map((n) => JSON.parse(n.action).name as string)).toEqual(['bash', 'read']);
    expect(report.skipped.map((s) => s.what)).toContain('7 × part the person undid (/undo)');
  });

  it("a database of opencode 2, or another program's, is refused with what it holds", () => {
    const v2 = join(dir, 'v2.db');
    const w = new Database(v2);
    w.exec('CREATE TABLE session_v2 (id TEXT); CREATE TABLE session_message (id TEXT, session_id TEXT, type TEXT, seq INTEGER, data TEXT)');
    w.close();
    expect(() => listOpencodeSessions(v2)).toThrow(/database of opencode 2 .*session_v2 and session_message.*does not read yet/);
    const plain = join(dir, 'plain.db');
    const p = new Database(plain);
    p.exec('CREATE TABLE notes (id INTEGER)');
    p.close();
    expect(() => listOpencodeSessions(plain)).toThrow(/without opencode's session, message and part tables \(it has notes\)/);
  });
});

describe('opencode session folders', () => {
  it('looks in $XDG_DATA_HOME/opencode, else ~/.local/share/opencode on every system (xdg-basedir does not branch by platform)', () => {
    expect(opencodeDatabaseSessions.folders({ home: '/home/ana', platform: 'linux', env: {} })).toEqual([{ path: '/home/ana/.local/share/opencode', from: 'default' }]);
    expect(opencodeDatabaseSessions.folders({ home: '/Users/ana', platform: 'darwin', env: {} })).toEqual([{ path: '/Users/ana/.local/share/opencode', from: 'default' }]);
    expect(opencodeDatabaseSessions.folders({ home: 'C:\\Users\\ana', platform: 'win32', env: {} })).toEqual([{ path: 'C:\\Users\\ana\\.local\\share\\opencode', from: 'default' }]);
    expect(opencodeStorageSessions.folders({ home: '/home/ana', platform: 'linux', env: { XDG_DATA_HOME: '/data/xdg' } })).toEqual([{ path: '/data/xdg/opencode/storage', from: 'XDG_DATA_HOME' }]);
  });
});
