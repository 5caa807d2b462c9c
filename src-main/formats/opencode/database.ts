// opencode's database, from opencode 1.2: `opencode.db` in its data folder (`opencode-<channel>.db`
// for builds of other channels), SQLite, written through drizzle by packages/opencode/src/
// session/session.sql.ts. Its tables: session (id, project_id, parent_id, directory, title,
// version, revert JSON, time_created, time_updated in ms…), message (id, session_id,
// time_created, data: the message's info as JSON without its id and session id) and part (id,
// message_id, session_id, data: the part as JSON without its ids). opencode reads a session's
// messages by time_created then id, and each message's parts by id; so does this. opencode 2
// moved sessions to other tables (session_v2, session_message), which are not read here: such a
// database is refused with that said. The file is opened read-only, never written, and only when
// asked: to list its sessions, or to read them as the lines ./conversation.ts reads.
import type Database from 'better-sqlite3';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ImportFormatError } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { openDatabase } from '../../store/workspace-access';
import type { SessionInFile } from '../format';
import { isRec, type Rec, RecordLines } from './records';

function withOpencodeDatabase<T>(path: string, read: (db: Database.Database) => T): T {
  let db: Database.Database;
  try {
    db = openDatabase(path, true);
  } catch (error) {
    throw new ImportFormatError(`${path} could not be opened as opencode's SQLite database (${(error as Error).message}): check that the file is readable and is opencode's own (opencode.db in ~/.local/share/opencode), or list opencode's sessions with worldloom sessions --agent opencode-db.`);
  }
  try {
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
    if (!tables.has('session') || !tables.has('message') || !tables.has('part')) {
      if (tables.has('session_v2') || tables.has('session_message')) {
        throw new ImportFormatError(`${path} is a database of opencode 2 (its sessions are in ${['session_v2', 'session_message'].filter((t) => tables.has(t)).join(' and ')}), which Worldloom does not read yet: it reads opencode 1.2 to 1.x databases and the JSON storage of earlier versions.`);
      }
      throw new ImportFormatError(`${path} is a SQLite database without opencode's session, message and part tables (it has ${[...tables].join(', ') || 'no tables'}): not an opencode.db. Pick opencode.db from ~/.local/share/opencode (or $XDG_DATA_HOME/opencode), or name the file's own format with --format.`);
    }
    return read(db);
  } finally {
    db.close();
  }
}

const iso = (ms: unknown): string | null => (typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null);

/** The sessions in opencode's database that have messages, each with its folder, time, size and tool calls that ran. */
export function listOpencodeSessions(path: string): SessionInFile[] {
  return withOpencodeDatabase(path, (db) => {
    const rows = db
      .prepare(
        `SELECT s.id AS id, s.directory AS directory, s.time_updated AS updated,
                (SELECT COUNT(*) FROM message m WHERE m.session_id = s.id) AS messages,
                (SELECT COALESCE(SUM(LENGTH(CAST(m.data AS BLOB))), 0) FROM message m WHERE m.session_id = s.id)
                  + (SELECT COALESCE(SUM(LENGTH(CAST(p.data AS BLOB))), 0) FROM part p WHERE p.session_id = s.id) AS bytes,
                (SELECT COUNT(*) FROM part p WHERE p.session_id = s.id AND json_extract(p.data, '$.type') = 'tool'
                   AND json_extract(p.data, '$.state.status') IN ('completed', 'error')) AS toolCalls
         FROM session s`,
      )
      .all() as { id: string; directory: unknown; updated: unknown; messages: number; bytes: number; toolCalls: number }[];
    return rows
      .filter((r) => r.messages > 0)
      .map((r) => ({ id: String(r.id), project: typeof r.directory === 'string' && r.directory !== '' ? r.directory : null, modified: iso(r.updated), bytes: r.bytes, toolCalls: r.toolCalls }));
  });
}

function parseColumn(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A session row as opencode's Session.Info (the fields a trajectory uses). */
function sessionInfo(row: Rec): Rec {
  const revert = parseColumn(row.revert);
  return {
    id: row.id,
    projectID: row.project_id,
    ...(row.parent_id ? { parentID: row.parent_id } : {}),
    directory: row.directory,
    title: row.title,
    version: row.version,
    time: { created: row.time_created, updated: row.time_updated },
    ...(isRec(revert) ? { revert } : {}),
  };
}

/**
 * One session of the database (`session`), or all of them, as lines: each session's info, then
 * its messages, each followed by its parts, their JSON as opencode wrote it with their ids put back.
 */
export function opencodeDatabaseSource(path: string, name: string, session: string | undefined, maxBytes?: number): ImportSource {
  return withOpencodeDatabase(path, (db) => {
    const sessions = (
      session !== undefined
        ? db.prepare('SELECT * FROM session WHERE id = ?').all(session)
        : db.prepare('SELECT * FROM session s WHERE EXISTS (SELECT 1 FROM message m WHERE m.session_id = s.id) ORDER BY s.time_created, s.id').all()
    ) as Rec[];
    if (session !== undefined && sessions.length === 0) {
      throw new ImportFormatError(`opencode's database ${path} has no session ${JSON.stringify(session)} (it may have been deleted since it was listed): list them again with worldloom sessions --agent opencode-db.`);
    }
    const messages = db.prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id');
    const parts = db.prepare('SELECT id, data FROM part WHERE message_id = ? ORDER BY id');
    const out = new RecordLines(name, maxBytes);
    for (const row of sessions) {
      out.session(sessionInfo(row));
      for (const m of messages.iterate(row.id) as Iterable<{ id: string; data: unknown }>) {
        const data = parseColumn(m.data);
        if (!isRec(data)) {
          out.unreadable(`message ${m.id} of session ${String(row.id)} holds no JSON object in its data column`);
          continue;
        }
        out.message({ ...data, id: m.id, sessionID: row.id });
        for (const p of parts.iterate(m.id) as Iterable<{ id: string; data: unknown }>) {
          const part = parseColumn(p.data);
          if (isRec(part)) out.part({ ...part, id: p.id, sessionID: row.id, messageID: m.id });
          else out.unreadable(`part ${p.id} of message ${m.id} holds no JSON object in its data column`);
        }
      }
    }
    return out.source();
  });
}

/** opencode's databases in its data folder: `opencode.db`, and `opencode-<channel>.db` of other channels' builds. */
export const DATABASE_FILES = ['opencode.db', 'opencode-*.db'] as const;
const isDatabaseName = (name: string) => name === 'opencode.db' || /^opencode-[\w.-]+\.db$/.test(name);

const idsByFile = new Map<string, { stamp: string; ids: Set<string> }>();

/**
 * Whether one of the databases in opencode's data folder holds the session: opencode 1.2 copied
 * its JSON storage in, so such a session is listed once, from the database. Each database's ids
 * are read once while it is unchanged.
 */
export function inDatabases(dataFolder: string, session: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dataFolder).filter(isDatabaseName);
  } catch {
    return false;
  }
  for (const name of names) {
    const file = join(dataFolder, name);
    try {
      const info = statSync(file);
      // opencode writes through a WAL: what changed may be in the -wal file beside it.
      let wal = '';
      try {
        wal = String(statSync(`${file}-wal`).mtimeMs);
      } catch {
        // No WAL file: the database is all there is.
      }
      const stamp = `${info.mtimeMs}:${info.size}:${wal}`;
      let known = idsByFile.get(file);
      if (!known || known.stamp !== stamp) {
        const ids = withOpencodeDatabase(file, (db) => new Set((db.prepare('SELECT id FROM session').all() as { id: string }[]).map((r) => r.id)));
        known = { stamp, ids };
        idsByFile.set(file, known);
      }
      if (known.ids.has(session)) return true;
    } catch {
      // A database that cannot be read (opencode 2, damaged) holds none of these sessions as far as the listing can tell.
    }
  }
  return false;
}
