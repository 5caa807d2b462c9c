// goose's sessions.db (1.10 and later, ./database.ts): one session, when the path names one
// (`sessions.db#20251108_1`, as `worldloom sessions` lists them), else every session in it,
// each its own trajectory (a sub-agent's session too). The database is binary, so it is read
// in the import's prepare step, read-only, into the lines ./read-sessions.ts reads.
import type { TrajectoryImporter } from '../format';
import { ImportFormatError } from '../../parsing/import-item';
import { gooseDatabaseSource } from './database';
import { gooseSessionItems } from './read-sessions';

const FORMAT = 'goose-db';

export const gooseDatabaseImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'goose sessions.db (1.10 and later)',
  detect(name, head) {
    if (!head.startsWith('SQLite format 3\u0000')) return 0;
    // The schema is on the first page: goose's tables by their columns.
    if (/CREATE TABLE (IF NOT EXISTS )?"?sessions"?/.test(head) && /working_dir/.test(head) && /content_json/.test(head)) return 0.97;
    return /(^|[\\/])sessions\.db(#[^\\/]*)?$/.test(name) ? 0.5 : 0;
  },
  async prepare(source, options) {
    const path = source.path?.();
    if (!path) throw new ImportFormatError(`${source.name} is goose's SQLite database, which is binary: import it by path (worldloom import, worldloom sessions, or the Sessions panel), not as pasted text.`);
    return gooseDatabaseSource(path, source.name, source.session, options?.maxBytes);
  },
  parse: (source, newId, now) => gooseSessionItems(source, FORMAT, newId, now),
};
