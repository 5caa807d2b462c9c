// opencode sessions, read in the import's prepare step into the lines ./conversation.ts reads:
// - `opencode`: a session file of opencode's JSON storage (before 1.2), read with its message
//   and part files (./storage.ts), or what `opencode export <session>` prints ({info,
//   messages: [{info, parts}]}, any version);
// - `opencode-db`: opencode.db (1.2 and later), one session when the path names one
//   (`opencode.db#ses_…`, as `worldloom sessions` lists them), else every session in it, each
//   its own trajectory (a sub-agent's too), read read-only (./database.ts).
import type { TrajectoryImporter } from '../format';
import { ImportFormatError } from '../../parsing/import-item';
import { opencodeSessionItems } from './conversation';
import { opencodeDatabaseSource } from './database';
import { exportDocumentLines } from './records';
import { sessionFileOfRecord, storageRootOf, storageSessionSource } from './storage';

/** What `opencode export` prints: the session's info first, its id a session id. */
const EXPORT_DOCUMENT = /^\s*\{\s*"info"\s*:\s*\{\s*"id"\s*:\s*"ses_/;
/** A session file of the JSON storage: Session.Info, written with two-space indents, its id first. */
const SESSION_FILE = /^\s*\{\s*"id"\s*:\s*"ses_[^"]*"\s*,/;
/** A message or part file of the JSON storage: one record of a session kept over many files. */
const RECORD_FILE = /^\s*\{\s*"id"\s*:\s*"(msg|prt)_[^"]*"\s*,/;

export const opencodeImporter: TrajectoryImporter = {
  id: 'opencode',
  label: 'opencode session (storage/session/…/ses_….json, or opencode export)',
  detect(_name, head) {
    if (EXPORT_DOCUMENT.test(head) && /"messages"\s*:/.test(head)) return 0.95;
    if (SESSION_FILE.test(head) && /"projectID"\s*:/.test(head) && /"directory"\s*:/.test(head)) return 0.9;
    // Read only to say which file to import instead.
    if (RECORD_FILE.test(head) && /"sessionID"\s*:/.test(head)) return 0.5;
    return 0;
  },
  async prepare(source, options) {
    const path = source.path?.();
    const head = source.text().slice(0, 64 * 1024);
    if (!EXPORT_DOCUMENT.test(head) && path) {
      if (storageRootOf(path)) return storageSessionSource(path, source.name, options?.maxBytes);
      const record = RECORD_FILE.test(head) ? sessionFileOfRecord(path) : null;
      if (record) {
        throw new ImportFormatError(
          `${source.name} is one ${record.what} of an opencode session, which opencode keeps over many files: import the session's own file${record.session ? `, ${record.session},` : ' (storage/session/<project id>/<session id>.json)'} which reads all of them (worldloom sessions lists it).`,
        );
      }
    }
    const exported = exportDocumentLines(source.text(), source.name, options?.maxBytes);
    if (exported) return exported;
    if (path) return storageSessionSource(path, source.name, options?.maxBytes);
    throw new ImportFormatError(`${source.name} is an opencode session file without its messages, which opencode keeps in other files: import it by its path where opencode keeps it (…/opencode/storage/session/<project>/<session id>.json), or import what \`opencode export <session id>\` prints.`);
  },
  parse: (source, newId, now) => opencodeSessionItems(source, 'opencode', newId, now),
};

export const opencodeDatabaseImporter: TrajectoryImporter = {
  id: 'opencode-db',
  label: 'opencode.db (opencode 1.2 and later)',
  detect(name, head) {
    if (!head.startsWith('SQLite format 3\u0000')) return 0;
    // The schema is on the first pages: opencode's part table, keyed by message and session.
    if (/CREATE TABLE [`"]?part[`"]?/.test(head) && /[`"]?message_id[`"]?/.test(head) && /CREATE TABLE [`"]?session[`"]?/.test(head) && /[`"]?directory[`"]?/.test(head)) return 0.96;
    return /(^|[\\/])opencode(-[\w.-]+)?\.db(#[^\\/]*)?$/.test(name) ? 0.6 : 0;
  },
  async prepare(source, options) {
    const path = source.path?.();
    if (!path) throw new ImportFormatError(`${source.name} is opencode's SQLite database, which is binary: import it by path (worldloom import, worldloom sessions, or the Sessions panel), not as pasted text.`);
    return opencodeDatabaseSource(path, source.name, source.session, options?.maxBytes);
  },
  parse: (source, newId, now) => opencodeSessionItems(source, 'opencode-db', newId, now),
};
