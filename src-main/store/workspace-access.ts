// How a workspace file is reached: written by several processes at once (one writer at a
// time, the others wait for SQLite's busy timeout), or read where it cannot be written
// (a read-only file or folder). When a writer holds the file past the timeout, the error
// names the process that holds it, so the user knows what to wait for or stop.
import Database from 'better-sqlite3';
import { accessSync, constants, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { SCHEMA_VERSION, WORKSPACE_APPLICATION_ID } from './migrations';
import { WorkspaceError } from './workspace-error';

// URI file names (for `immutable=1` below) are off in better-sqlite3 unless this is set before
// its addon loads, at the first open. Plain paths (never starting with "file:") are unaffected.
process.env.SQLITE_USE_URI ??= '1';

/** How long a write waits for another process's write to finish. */
export const BUSY_TIMEOUT_MS = 5000;

/** Native binding override, set by the Electron door (its Node ABI differs from plain Node's). */
let nativeBinding: string | undefined;
export function setSqliteNativeBinding(path: string | undefined): void {
  nativeBinding = path;
}

export function openDatabase(path: string, readonly: boolean): Database.Database {
  return new Database(path, { readonly, fileMustExist: readonly, nativeBinding });
}

/** Whether this process may write the file and create the journal files beside it. */
export function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    accessSync(dirname(path), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const READ_ONLY_FOLDER = new Set(['SQLITE_READONLY_DIRECTORY', 'SQLITE_CANTOPEN', 'SQLITE_READONLY']);

/**
 * Opens a workspace for reading only. In a folder where SQLite cannot create its shared-memory
 * file, the file is opened as immutable: nothing can change it while it is open here.
 */
export function openForReading(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = openDatabase(path, true);
    db.pragma('user_version', { simple: true });
    return db;
  } catch (err) {
    db?.close();
    if (!READ_ONLY_FOLDER.has(sqliteCode(err) ?? '')) throw err;
  }
  const uri = `file:${path.split('/').map(encodeURIComponent).join('/')}?immutable=1`;
  const immutable = new Database(uri, { readonly: true, nativeBinding });
  immutable.pragma('user_version', { simple: true });
  return immutable;
}

/** Other processes that have the workspace (or its journal) open, as "pid 123 (command line)"; Linux only. */
export function workspaceHolders(path: string): string[] {
  if (process.platform !== 'linux') return [];
  const names = new Set([path, `${path}-wal`, `${path}-shm`]);
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid)) {
    try {
      const fds = readdirSync(`/proc/${pid}/fd`);
      if (!fds.some((fd) => names.has(safeLink(`/proc/${pid}/fd/${fd}`)))) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      found.push(`pid ${pid} (${command.slice(0, 160)})`);
    } catch {
      // The process ended, or is not ours to look at.
    }
  }
  return found;
}

function safeLink(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}

/** The error for a write that waited the whole busy timeout, naming who holds the workspace. */
export function busyError(path: string, timeoutMs: number): WorkspaceError {
  const holders = workspaceHolders(path);
  const who = holders.length ? `another process holds it: ${holders.join('; ')}` : 'another process (a Worldloom window, a `worldloom` command or an import) holds it';
  return new WorkspaceError(
    `The workspace ${path} stayed busy for ${timeoutMs / 1000} s: ${who}. Nothing was written. Wait for that process to finish (or stop it), then try again.`,
    'busy',
  );
}

export function readOnlyError(path: string): WorkspaceError {
  return new WorkspaceError(
    `The workspace ${path} is open for reading only (this user may not write the file or its folder). Nothing was written; ` +
      'copy it to a folder you can write to, or change its permissions, and open it again to make changes.',
    'read-only',
  );
}

export function sqliteCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

/** Reads the header of an existing file without changing it; throws a WorkspaceError if it is not ours. */
export function inspectExisting(path: string): void {
  let db: Database.Database | undefined;
  try {
    db = openForReading(path);
    const appId = db.pragma('application_id', { simple: true }) as number;
    const version = db.pragma('user_version', { simple: true }) as number;
    if (appId !== WORKSPACE_APPLICATION_ID) {
      throw new WorkspaceError(
        `${path} is an SQLite database but not a Worldloom workspace. It was left untouched; ` +
          `open a .worldloom file or create a new workspace.`,
        'not-a-workspace',
      );
    }
    if (version > SCHEMA_VERSION) {
      throw new WorkspaceError(
        `${path} was written by a newer Worldloom (workspace schema ${version}; this version ` +
          `knows up to ${SCHEMA_VERSION}). It was left untouched; update Worldloom to open it.`,
        'newer-schema',
      );
    }
  } catch (err) {
    if (err instanceof WorkspaceError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new WorkspaceError(
        `${path} is not a Worldloom workspace (not an SQLite database). It was left untouched; ` +
          `choose a .worldloom file or create a new workspace.`,
        'not-a-workspace',
      );
    }
    throw err;
  } finally {
    db?.close();
  }
}
