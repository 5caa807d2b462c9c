// goose's database (1.10 and later): sessions/sessions.db in its data folder, SQLite, written by
// crates/goose session_manager.rs. Its tables: sessions (id like 20251108_1, name, description,
// working_dir, session_type user|scheduled|sub_agent|hidden…, created_at, updated_at, and later
// columns) and messages (id, session_id, role, content_json: the message's content list as
// JSON, created_timestamp, timestamp, metadata_json: {userVisible, agentVisible}). goose reads
// a session's messages ORDER BY timestamp; so does this. The file is opened read-only, never
// written, and only when asked: to list its sessions (without reading their content) or to
// read them as the lines ./read-sessions.ts reads.
import type Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SessionInFile } from '../format';
import { ImportFormatError } from '../../parsing/import-item';
import { MAX_IMPORT_BYTES, MAX_LINE_BYTES } from '../../parsing/json-limits';
import { builtLinesSource, type ImportSource, type SourceLine } from '../../parsing/sources';
import { openDatabase } from '../../store/workspace-access';

/** A goose tool result as serde writes it (compact, so this is exactly what it writes, and never appears inside a string, where quotes are escaped). */
export const GOOSE_TOOL_RESULT = '"type":"toolResponse"';

const mib = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${bytes} bytes`);

/**
 * What to open so that reading leaves nothing behind. A database in write-ahead-log mode (goose
 * 1.10 on) opened read-only while goose is not running would get its -wal and -shm files made
 * again beside it, and left there: it is opened immutable instead (goose folded its log in when
 * it closed). While goose runs, its log holds the newest messages, so it is read through it, as
 * is a database in the older journal mode, which a read-only open leaves as it was.
 */
function readOnlyTarget(path: string): string {
  const header = Buffer.alloc(20);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  // Bytes 18 and 19 of the header: 2 for a database in WAL mode.
  const wal = header.subarray(0, 16).toString('latin1') === 'SQLite format 3\u0000' && header[18] === 2;
  return wal && !existsSync(`${path}-wal`) ? `${pathToFileURL(path).href}?immutable=1` : path;
}

/** goose's database opened read-only, once its tables are seen to be goose's; the caller closes it. */
function openGooseDatabase(path: string): Database.Database {
  let db: Database.Database | undefined;
  let tables: Set<string>;
  try {
    db = openDatabase(readOnlyTarget(path), true);
    // A file that is not SQLite opens; its first read says so.
    tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
  } catch (error) {
    db?.close();
    throw new ImportFormatError(`${basename(path)} could not be opened as goose's SQLite database (${(error as Error).message}): check that the file is readable and is goose's own sessions.db (in ~/.local/share/goose/sessions), or list goose's sessions with worldloom sessions --agent goose-db.`);
  }
  if (!tables.has('sessions') || !tables.has('messages')) {
    db.close();
    throw new ImportFormatError(`${basename(path)} is a SQLite database without goose's sessions and messages tables (it has ${[...tables].join(', ') || 'no tables'}): not a goose sessions.db. Pick sessions.db from goose's sessions folder (~/.local/share/goose/sessions, or %APPDATA%\\Block\\goose\\data\\sessions on Windows), or name the file's own format with --format.`);
  }
  return db;
}

/** goose writes its times as SQLite's `YYYY-MM-DD HH:MM:SS` (UTC) or with a fraction and offset; as ISO 8601. */
export function isoTime(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  let text = value.trim().replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1');
  if (!/(Z|[+-]\d\d:?\d\d)$/i.test(text)) text += 'Z';
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** The sessions in goose's database that have messages, each with its folder, time, size and tool calls; no message is decoded. */
export function listGooseSessions(path: string): SessionInFile[] {
  const db = openGooseDatabase(path);
  try {
    const rows = db
      .prepare(
        `SELECT s.id AS id, s.working_dir AS workingDir, s.updated_at AS updatedAt,
                SUM(LENGTH(CAST(m.content_json AS BLOB))) AS bytes,
                SUM((LENGTH(m.content_json) - LENGTH(REPLACE(m.content_json, @hint, ''))) / LENGTH(@hint)) AS toolCalls
         FROM sessions s JOIN messages m ON m.session_id = s.id
         GROUP BY s.id`,
      )
      .all({ hint: GOOSE_TOOL_RESULT }) as { id: string; workingDir: unknown; updatedAt: unknown; bytes: number | null; toolCalls: number | null }[];
    return rows.map((r) => ({
      id: String(r.id),
      project: typeof r.workingDir === 'string' && r.workingDir !== '' ? r.workingDir : null,
      modified: isoTime(r.updatedAt),
      bytes: r.bytes ?? 0,
      toolCalls: r.toolCalls ?? 0,
    }));
  } finally {
    db.close();
  }
}

let idsSeen: { key: string; ids: ReadonlySet<string> } | null = null;

/**
 * Whether goose's database at `path` holds a session of this id (goose 1.10 copied each .jsonl
 * session into it under the file's name). No database, or one that cannot be read: no. The ids
 * are read once for as long as the database (and its log) stays as it was.
 */
export function gooseDatabaseHolds(path: string, id: string): boolean {
  if (!existsSync(path)) return false;
  try {
    const time = (p: string) => (existsSync(p) ? `${statSync(p).mtimeMs}:${statSync(p).size}` : '-');
    const key = `${path}|${time(path)}|${time(`${path}-wal`)}`;
    if (idsSeen?.key !== key) {
      const db = openGooseDatabase(path);
      try {
        idsSeen = { key, ids: new Set((db.prepare('SELECT id FROM sessions').all() as { id: unknown }[]).map((r) => String(r.id))) };
      } finally {
        db.close();
      }
    }
    return idsSeen.ids.has(id);
  } catch {
    return false;
  }
}

/** The sessions row fields a session's first line keeps (the rest: tokens, recipes, extension state, stay in the database). */
const HEADER_COLUMNS = ['id', 'name', 'description', 'working_dir', 'session_type', 'created_at', 'updated_at', 'provider_name'] as const;

function validJsonOrNull(text: unknown): string {
  if (typeof text !== 'string') return 'null';
  try {
    JSON.parse(text);
    return text;
  } catch {
    // goose itself reads metadata it cannot parse as the default (visible to all).
    return 'null';
  }
}

/**
 * One session of the database (`session`), or all of them, as lines: the session's row, then
 * each message as goose's message JSON, its content as goose wrote it. Bounded by what it
 * decodes to (`maxBytes`), as every import is.
 */
export async function gooseDatabaseSource(path: string, name: string, session: string | undefined, maxBytes = MAX_IMPORT_BYTES): Promise<ImportSource> {
  const lines: SourceLine[] = [];
  const db = openGooseDatabase(path);
  try {
    const sessions = (
      session !== undefined
        ? db.prepare('SELECT * FROM sessions WHERE id = ?').all(session)
        : db.prepare('SELECT * FROM sessions s WHERE EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id) ORDER BY s.created_at, s.id').all()
    ) as Record<string, unknown>[];
    if (session !== undefined && sessions.length === 0) {
      throw new ImportFormatError(`goose's database ${path} has no session ${JSON.stringify(session)} (it may have been deleted since it was listed): list them again with worldloom sessions --agent goose-db.`);
    }
    const messages = db.prepare('SELECT role, content_json, created_timestamp, metadata_json FROM messages WHERE session_id = ? ORDER BY timestamp, id');
    let emitted = 0;
    const push = (text: string) => {
      const lineNo = lines.length + 1;
      if (text.length > MAX_LINE_BYTES) {
        lines.push({ lineNo, text: '', error: `message longer than ${mib(MAX_LINE_BYTES)} was skipped` });
        return;
      }
      emitted += text.length;
      if (emitted > maxBytes) throw new ImportFormatError(`${name} holds more than ${mib(maxBytes)} of messages; import one session at a time (worldloom sessions lists them), or raise the limit with worldloom import --max-mib.`);
      lines.push({ lineNo, text });
    };
    for (const row of sessions) {
      push(JSON.stringify(Object.fromEntries(HEADER_COLUMNS.flatMap((c) => (row[c] !== undefined && row[c] !== null ? [[c, row[c]]] : [])))));
      for (const m of messages.iterate(row.id) as Iterable<{ role: unknown; content_json: unknown; created_timestamp: unknown; metadata_json: unknown }>) {
        // The content goes in as goose wrote it: text that is not JSON is said as such by the reader.
        const content = typeof m.content_json === 'string' ? m.content_json : 'null';
        push(`{"role":${JSON.stringify(m.role)},"created":${Number(m.created_timestamp) || 0},"content":${content},"metadata":${validJsonOrNull(m.metadata_json)}}`);
      }
      // Between sessions other requests (a cancel among them) come in.
      await new Promise((next) => setImmediate(next));
    }
  } finally {
    db.close();
  }
  return builtLinesSource(name, lines);
}
