// opencode sessions written the way opencode writes them, for the tests of the opencode readers
// and of the session search: the objects of its session code (Session.Info, MessageV2.Info,
// MessageV2.Part), its JSON storage before 1.2 (each record `JSON.stringify(value, null, 2)` in
// storage/session|message|part/…) and its opencode.db from 1.2 (the tables of its session.sql.ts,
// the ids in columns and the rest of each record as JSON in `data`).
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

type Rec = Record<string, unknown>;

export interface OpencodeSession {
  info: Rec & { id: string; projectID: string; directory: string; title: string; version: string; time: { created: number; updated: number } };
  messages: { info: Rec & { id: string }; parts: (Rec & { id: string })[] }[];
}

const T0 = 1_760_000_000_000;

const tool = (id: string, messageID: string, sessionID: string, callID: string, name: string, state: Rec): Rec & { id: string } => ({ id, messageID, sessionID, type: 'tool', callID, tool: name, state });
const step = (id: string, messageID: string, sessionID: string, type: 'step-start' | 'step-finish'): Rec & { id: string } =>
  type === 'step-start' ? { id, messageID, sessionID, type, snapshot: '4b825dc6' } : { id, messageID, sessionID, type, reason: 'tool-calls', snapshot: '4b825dc6', cost: 0, tokens: { input: 1200, output: 80, reasoning: 0, cache: { read: 0, write: 0 } } };
const assistant = (id: string, sessionID: string, parentID: string, at: number): Rec & { id: string } => ({
  id,
  sessionID,
  role: 'assistant',
  time: { created: T0 + at, completed: T0 + at + 900 },
  parentID,
  modelID: 'claude-sonnet-4',
  providerID: 'anthropic',
  mode: 'build',
  agent: 'build',
  path: { cwd: '/home/ana/shop', root: '/home/ana/shop' },
  cost: 0,
  tokens: { input: 1200, output: 80, reasoning: 0, cache: { read: 0, write: 0 } },
});
const user = (id: string, sessionID: string, at: number): Rec & { id: string } => ({ id, sessionID, role: 'user', time: { created: T0 + at }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4' } });

/** A session that asks why a test fails: every kind of part the reader must pair, keep or say, and a sub-agent it starts. */
export function opencodeSessions(): OpencodeSession[] {
  const S = 'ses_5f1a2b3c4d5eAAAAAAAAAAAAAA';
  const C = 'ses_5f1a2b3c4d5eCCCCCCCCCCCCCC';
  const main: OpencodeSession = {
    info: { id: S, slug: 'quiet-parser', version: '1.1.40', projectID: '8e1f0c2a', directory: '/home/ana/shop', title: 'Why the parser test fails', time: { created: T0, updated: T0 + 60_000 } },
    messages: [
      {
        info: user('msg_a0001', S, 0),
        parts: [
          { id: 'prt_a0001', messageID: 'msg_a0001', sessionID: S, type: 'text', text: 'Why does the parser test fail? See @src/parser.ts' },
          { id: 'prt_a0002', messageID: 'msg_a0001', sessionID: S, type: 'text', synthetic: true, text: 'Called the Read tool with the following input: {"filePath":"/home/ana/shop/src/parser.ts"}' },
          { id: 'prt_a0003', messageID: 'msg_a0001', sessionID: S, type: 'file', mime: 'text/plain', filename: 'src/parser.ts', url: 'file:///home/ana/shop/src/parser.ts' },
        ],
      },
      {
        info: assistant('msg_a0002', S, 'msg_a0001', 1000),
        parts: [
          step('prt_a0004', 'msg_a0002', S, 'step-start'),
          { id: 'prt_a0005', messageID: 'msg_a0002', sessionID: S, type: 'reasoning', text: 'Run the tests first.', time: { start: T0 + 1000, end: T0 + 1100 } },
          { id: 'prt_a0006', messageID: 'msg_a0002', sessionID: S, type: 'text', text: 'Running them.' },
          tool('prt_a0007', 'msg_a0002', S, 'toolu_01', 'bash', {
            status: 'completed',
            input: { command: 'npm test -- parser', description: 'Runs the parser tests' },
            output: 'FAIL parser.test.ts\n  expected 3, got 2\n\u001b[31m1 failed\u001b[39m\n',
            title: 'npm test -- parser',
            metadata: { exit: 1 },
            time: { start: T0 + 1200, end: T0 + 3000 },
          }),
          step('prt_a0008', 'msg_a0002', S, 'step-finish'),
        ],
      },
      {
        info: assistant('msg_a0003', S, 'msg_a0001', 4000),
        parts: [
          step('prt_a0009', 'msg_a0003', S, 'step-start'),
          tool('prt_a0010', 'msg_a0003', S, 'toolu_02', 'read', {
            status: 'error',
            input: { filePath: '/home/ana/shop/src/parsr.ts' },
            error: 'Error: File not found: /home/ana/shop/src/parsr.ts',
            time: { start: T0 + 4100, end: T0 + 4200 },
          }),
          tool('prt_a0011', 'msg_a0003', S, 'toolu_03', 'todowrite', {
            status: 'completed',
            input: { todos: [{ content: 'fix the count', status: 'in_progress', priority: 'high', id: '1' }] },
            output: '[\n  {\n    "content": "fix the count",\n    "status": "in_progress"\n  }\n]',
            title: '1 todos',
            metadata: {},
            time: { start: T0 + 4300, end: T0 + 4310 },
          }),
          tool('prt_a0012', 'msg_a0003', S, 'toolu_04', 'task', {
            status: 'completed',
            input: { description: 'Count the lines', prompt: 'Count the lines of src/parser.ts', subagent_type: 'general' },
            output: 'task_id: ' + C + '\n\n<task_result>\n41 src/parser.ts\n</task_result>',
            title: 'Count the lines',
            metadata: { sessionId: C },
            time: { start: T0 + 4400, end: T0 + 9000 },
          }),
          { id: 'prt_a0013', messageID: 'msg_a0003', sessionID: S, type: 'patch', hash: '4b825dc6', files: ['/home/ana/shop/src/parser.ts'] },
          step('prt_a0014', 'msg_a0003', S, 'step-finish'),
        ],
      },
      {
        info: assistant('msg_a0004', S, 'msg_a0001', 10_000),
        parts: [
          step('prt_a0015', 'msg_a0004', S, 'step-start'),
          tool('prt_a0016', 'msg_a0004', S, 'toolu_05', 'bash', {
            status: 'running',
            input: { command: 'npm test' },
            time: { start: T0 + 10_100 },
          }),
          { id: 'prt_a0017', messageID: 'msg_a0004', sessionID: S, type: 'text', text: 'The count is off by one in src/parser.ts.' },
        ],
      },
    ],
  };
  const child: OpencodeSession = {
    info: { id: C, version: '1.1.40', projectID: '8e1f0c2a', directory: '/home/ana/shop', parentID: S, title: 'Count the lines (@general subagent)', time: { created: T0 + 4400, updated: T0 + 9000 } },
    messages: [
      { info: user('msg_c0001', C, 4500), parts: [{ id: 'prt_c0001', messageID: 'msg_c0001', sessionID: C, type: 'text', text: 'Count the lines of src/parser.ts' }] },
      {
        info: assistant('msg_c0002', C, 'msg_c0001', 5000),
        parts: [
          tool('prt_c0002', 'msg_c0002', C, 'toolu_11', 'bash', {
            status: 'completed',
            input: { command: 'wc -l src/parser.ts', description: 'Counts lines', timeout: 30000 },
            output: '41 src/parser.ts\n',
            title: 'wc -l src/parser.ts',
            metadata: { exit: 0 },
            time: { start: T0 + 5100, end: T0 + 5200 },
          }),
        ],
      },
    ],
  };
  return [main, child];
}

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/** opencode's JSON storage (before 1.2) under `storage`: a file per session, message and part; the session files are returned, every file written is added to `written`. */
export function writeOpencodeStorage(storage: string, sessions: readonly OpencodeSession[], written: string[] = []): string[] {
  const files: string[] = [];
  const write = (path: string, value: unknown) => {
    writeFileSync(path, pretty(value));
    written.push(path);
  };
  for (const s of sessions) {
    const file = join(storage, 'session', s.info.projectID, `${s.info.id}.json`);
    mkdirSync(dirname(file), { recursive: true });
    write(file, s.info);
    files.push(file);
    for (const m of s.messages) {
      mkdirSync(join(storage, 'message', s.info.id), { recursive: true });
      write(join(storage, 'message', s.info.id, `${m.info.id}.json`), m.info);
      mkdirSync(join(storage, 'part', m.info.id), { recursive: true });
      for (const p of m.parts) write(join(storage, 'part', m.info.id, `${p.id}.json`), p);
    }
  }
  return files;
}

/** The tables of opencode 1.2's first migration that sessions use, as drizzle writes them. */
const SCHEMA = `
CREATE TABLE \`project\` (\`id\` text PRIMARY KEY, \`worktree\` text NOT NULL, \`vcs\` text, \`name\` text, \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL);
CREATE TABLE \`session\` (\`id\` text PRIMARY KEY, \`project_id\` text NOT NULL, \`parent_id\` text, \`slug\` text NOT NULL, \`directory\` text NOT NULL, \`title\` text NOT NULL, \`version\` text NOT NULL, \`share_url\` text, \`revert\` text, \`permission\` text, \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL, \`time_compacting\` integer, \`time_archived\` integer, CONSTRAINT \`fk_session_project_id_project_id_fk\` FOREIGN KEY (\`project_id\`) REFERENCES \`project\`(\`id\`) ON DELETE CASCADE);
CREATE TABLE \`message\` (\`id\` text PRIMARY KEY, \`session_id\` text NOT NULL, \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL, \`data\` text NOT NULL, CONSTRAINT \`fk_message_session_id_session_id_fk\` FOREIGN KEY (\`session_id\`) REFERENCES \`session\`(\`id\`) ON DELETE CASCADE);
CREATE TABLE \`part\` (\`id\` text PRIMARY KEY, \`message_id\` text NOT NULL, \`session_id\` text NOT NULL, \`time_created\` integer NOT NULL, \`time_updated\` integer NOT NULL, \`data\` text NOT NULL, CONSTRAINT \`fk_part_message_id_message_id_fk\` FOREIGN KEY (\`message_id\`) REFERENCES \`message\`(\`id\`) ON DELETE CASCADE);
CREATE INDEX \`message_session_idx\` ON \`message\` (\`session_id\`);
CREATE INDEX \`part_message_idx\` ON \`part\` (\`message_id\`);
CREATE INDEX \`part_session_idx\` ON \`part\` (\`session_id\`);
`;

/** opencode.db (1.2 and later) at `path`, holding the sessions; `revert` per session id, as opencode keeps it after /undo. */
export function writeOpencodeDatabase(path: string, sessions: readonly OpencodeSession[], revert: Record<string, Rec> = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.exec(SCHEMA);
    const project = db.prepare('INSERT OR IGNORE INTO project (id, worktree, vcs, time_created, time_updated) VALUES (?, ?, ?, ?, ?)');
    const session = db.prepare('INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, revert, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const message = db.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)');
    const part = db.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (const s of sessions) {
        const i = s.info;
        project.run(i.projectID, i.directory, 'git', i.time.created, i.time.updated);
        session.run(i.id, i.projectID, i.parentID ?? null, i.slug ?? '', i.directory, i.title, i.version, i.id in revert ? JSON.stringify(revert[i.id]) : null, i.time.created, i.time.updated);
        for (const m of s.messages) {
          const { id, sessionID: _s, ...data } = m.info;
          const created = (m.info.time as { created: number }).created;
          message.run(id, i.id, created, created, JSON.stringify(data));
          for (const p of m.parts) {
            const { id: partID, sessionID: _ps, messageID: _pm, ...rest } = p;
            part.run(partID, id, i.id, created, created, JSON.stringify(rest));
          }
        }
      }
    })();
  } finally {
    db.close();
  }
}
