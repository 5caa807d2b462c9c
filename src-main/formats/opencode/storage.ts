// opencode's JSON storage, as opencode before 1.2 wrote it (packages/opencode/src/storage/
// storage.ts: every record `JSON.stringify(value, null, 2)` in `<data>/storage/<key…>.json`):
// a session in `session/<project id>/<session id>.json`, each of its messages in
// `message/<session id>/<message id>.json`, each message's parts in
// `part/<message id>/<part id>.json`. opencode reads them back sorted by id (its ids sort in the
// order they were made), and so does this. opencode 1.2 copied these files into its database
// (./database.ts) and left them where they were.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ImportFormatError } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import type { SessionInFile } from '../format';
import { isRec, type Rec, RecordLines } from './records';

/** The storage folder a session file is in (`<storage>/session/<project>/<id>.json`), or null when it is not laid out so. */
export function storageRootOf(sessionFile: string): string | null {
  const project = dirname(sessionFile);
  const sessions = dirname(project);
  return basename(sessions) === 'session' ? dirname(sessions) : null;
}

const jsonFiles = (folder: string): string[] => {
  try {
    return readdirSync(folder)
      .filter((f) => f.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
};

function readRecord(path: string): { value: Rec } | { error: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { error: `${path} could not be read (${(error as Error).message})` };
  }
  try {
    const value: unknown = JSON.parse(text);
    return isRec(value) ? { value } : { error: `${path} is not a JSON object` };
  } catch (error) {
    return { error: `${path} is not valid JSON (${(error as Error).message}); opencode writes each record whole, so it was cut short or changed since` };
  }
}

/** One session of opencode's JSON storage, from its session file, as the lines ./conversation.ts reads. */
export function storageSessionSource(sessionFile: string, name: string, maxBytes?: number): ImportSource {
  const root = storageRootOf(sessionFile);
  if (!root) throw new ImportFormatError(`${sessionFile} is an opencode session file away from its storage folder: its messages are kept in storage/message/<session id>/ beside storage/session/, so import it where opencode keeps it (…/opencode/storage/session/<project>/<session id>.json), or import what \`opencode export <session id>\` prints.`);
  const session = readRecord(sessionFile);
  if ('error' in session) throw new ImportFormatError(session.error);
  const id = typeof session.value.id === 'string' ? session.value.id : basename(sessionFile, '.json');
  const out = new RecordLines(name, maxBytes);
  out.session({ ...session.value, id });
  const messageFolder = join(root, 'message', id);
  for (const file of jsonFiles(messageFolder)) {
    const message = readRecord(join(messageFolder, file));
    if ('error' in message) {
      out.unreadable(message.error);
      continue;
    }
    const messageID = typeof message.value.id === 'string' ? message.value.id : basename(file, '.json');
    out.message({ ...message.value, id: messageID });
    const partFolder = join(root, 'part', messageID);
    for (const partFile of jsonFiles(partFolder)) {
      const part = readRecord(join(partFolder, partFile));
      if ('error' in part) out.unreadable(part.error);
      else out.part(part.value);
    }
  }
  return out.source();
}

/** A tool part that ran, found in a part file's text without parsing it (quotes inside strings are escaped, so this is a key). */
const TOOL_PART = /"type"\s*:\s*"tool"/;
const ANSWERED = /"status"\s*:\s*"(completed|error)"/;

/**
 * What a session of the JSON storage holds, for a listing: its project, time, size (all its files)
 * and the tool calls that ran. Its many small files are read one after another without yielding:
 * for files this size a read through the thread pool costs more than the read itself.
 */
export async function describeStorageSession(sessionFile: string, inDatabase: (id: string) => Promise<boolean>): Promise<Omit<SessionInFile, 'id'> | null> {
  const root = storageRootOf(sessionFile);
  const text = readFileSync(sessionFile, 'utf8');
  const info: unknown = JSON.parse(text);
  if (!isRec(info) || !root) return null;
  const id = typeof info.id === 'string' ? info.id : basename(sessionFile, '.json');
  if (await inDatabase(id)) return null;
  let bytes = Buffer.byteLength(text);
  let toolCalls = 0;
  const messageFolder = join(root, 'message', id);
  for (const file of jsonFiles(messageFolder)) {
    bytes += statSync(join(messageFolder, file)).size;
    const partFolder = join(root, 'part', basename(file, '.json'));
    for (const partFile of jsonFiles(partFolder)) {
      const part = readFileSync(join(partFolder, partFile), 'latin1');
      bytes += part.length;
      if (TOOL_PART.test(part) && ANSWERED.test(part)) toolCalls++;
    }
  }
  const time = isRec(info.time) ? info.time : {};
  const updated = typeof time.updated === 'number' ? time.updated : typeof time.created === 'number' ? time.created : null;
  return {
    project: typeof info.directory === 'string' && info.directory !== '' ? info.directory : null,
    modified: updated !== null ? new Date(updated).toISOString() : null,
    bytes,
    toolCalls,
  };
}

/**
 * For a message or part file of the JSON storage (`message/<session id>/<id>.json`,
 * `part/<message id>/<id>.json`): what it is and its session's own file, which an import reads
 * with all of them; null when the file is not one.
 */
export function sessionFileOfRecord(recordFile: string): { what: 'message' | 'part'; session: string | null } | null {
  const record = readRecord(recordFile);
  if ('error' in record) return null;
  const kind = basename(dirname(dirname(recordFile)));
  if (kind !== 'message' && kind !== 'part') return null;
  const sessionID = record.value.sessionID;
  if (typeof sessionID !== 'string') return { what: kind, session: null };
  const sessions = join(dirname(dirname(dirname(recordFile))), 'session');
  let projects: string[] = [];
  try {
    projects = readdirSync(sessions);
  } catch {
    // No session folder beside it: the session file cannot be named.
  }
  const project = projects.find((p) => jsonFiles(join(sessions, p)).includes(`${sessionID}.json`));
  return { what: kind, session: project ? join(sessions, project, `${sessionID}.json`) : null };
}
