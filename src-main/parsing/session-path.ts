// One session inside a file that holds many (an agent's SQLite database) is named by the file's
// path, `#`, and the session's id: the session search lists it so, and an import of that path
// reads that session only. A path that is itself a file is always that file, `#` or not.
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { fileHead, fileSource, type ImportSource } from './sources';

/** The path a listing gives one session inside `file`. */
export function sessionPath(file: string, session: string): string {
  return `${file}#${session}`;
}

/** A path as an import takes it: a file, or one session inside a file (`<file>#<session id>`). */
export function splitSessionPath(path: string): { file: string; session?: string } {
  if (existsSync(path)) return { file: path };
  const at = path.lastIndexOf('#');
  if (at > 0 && at < path.length - 1 && existsSync(path.slice(0, at))) return { file: path.slice(0, at), session: path.slice(at + 1) };
  return { file: path };
}

/** The source and first bytes an import reads for a path: the file's, and the session it names, if any. */
export function importPathSource(path: string): { source: ImportSource; head: string } {
  const { file, session } = splitSessionPath(path);
  if (session === undefined) return { source: fileSource(file), head: fileHead(file) };
  return { source: { ...fileSource(file, `${basename(file)}#${session}`), session }, head: fileHead(file) };
}
