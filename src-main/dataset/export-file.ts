// Export to a file through a format's file writer (the caller picks it from the registry),
// and whole files written for the user (reports). Each is written beside its destination
// under a unique temporary name and renamed into place, so a failed export leaves neither a
// half file nor a `.partial` one.
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, statSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { WorkspaceStore } from '../store/workspace-store';
import { UserError } from '../common/user-error';
import { partialTag, removeDeadPartials } from './partial-leftovers';
import type { TrajectoryExporter } from './writing/file-writer';

/** Refuses a destination that is a folder (`/` included) before anything is written. */
function checkFileDestination(path: string): void {
  if (path.endsWith('/') || (existsSync(path) && statSync(path).isDirectory())) {
    throw new UserError(`${path} is a folder; export to a file path inside it (for example ${join(path, 'export.jsonl')}).`, 'invalid');
  }
}

const temporaryBeside = (path: string) => join(dirname(path), `.${basename(path)}.${partialTag()}-${randomBytes(6).toString('hex')}.partial`);

/** Writes through `write` into a temporary file beside `path`, then renames it into place; removes it on failure or cancel. */
async function writeInPlace(path: string, write: (out: WriteStream) => Promise<void>): Promise<void> {
  checkFileDestination(path);
  // What an export killed here before left behind (kill -9 skips every cleanup).
  removeDeadPartials(path);
  const tmp = temporaryBeside(path);
  let opened: WriteStream | null = null;
  try {
    const out = (opened = createWriteStream(tmp, { flags: 'wx' }));
    const done = new Promise<void>((ok, fail) => {
      out.on('finish', ok);
      out.on('error', fail);
    });
    // A failure below is reported from here; the stream's own error then has no one to tell.
    done.catch(() => undefined);
    try {
      await write(out);
    } finally {
      out.end();
    }
    await done;
    await rename(tmp, path);
  } catch (err) {
    // The file is opened in the background: let the stream close first, or it could create
    // the temporary file after it was removed, and leave it behind once the caller is told.
    if (opened && !opened.closed) {
      const closed = once(opened, 'close').catch(() => undefined);
      opened.destroy();
      await closed;
    }
    await rm(tmp, { force: true });
    throw err;
  }
}

export interface ExportFileOptions {
  signal?: AbortSignal;
  /** Trajectories written so far, of `total` when the caller named them. */
  onProgress?: (done: number, total: number | null) => void;
}

/** Trajectories handed to the exporter at once; between slices a cancel can arrive and the file drains. */
const SLICE = 64;

export async function exportToFile(
  store: WorkspaceStore,
  path: string,
  exporter: TrajectoryExporter,
  trajectoryIds?: readonly string[],
  options: ExportFileOptions = {},
): Promise<{ trajectories: number; records: number }> {
  const total = trajectoryIds?.length ?? null;
  const counts = { trajectories: 0, records: 0 };
  const cancelled = () => new UserError(`The export to ${path} was cancelled; no file was written.`, 'cancelled');
  await writeInPlace(path, async (out) => {
    const bundles = store.iterateBundles(trajectoryIds)[Symbol.iterator]();
    let read = 0;
    let finished = false;
    // One slice of trajectories at a time; file formats write one record per line, so slices concatenate.
    const slice = function* () {
      for (let i = 0; i < SLICE; i++) {
        const next = bundles.next();
        if (next.done) return void (finished = true);
        read++;
        yield next.value;
      }
    };
    while (!finished) {
      if (options.signal?.aborted) throw cancelled();
      let pending = '';
      const written = exporter.exportTo(slice(), (chunk) => {
        pending += chunk;
        if (pending.length > 1 << 20) {
          out.write(pending);
          pending = '';
        }
      });
      counts.trajectories += written.trajectories;
      counts.records += written.records;
      if (!out.write(pending)) await once(out, 'drain');
      options.onProgress?.(read, total);
      await new Promise((next) => setImmediate(next));
    }
    if (options.signal?.aborted) throw cancelled();
  });
  return counts;
}

/** Writes a whole text file (a report) into place, never leaving a partial one. */
export async function writeTextFile(path: string, text: string): Promise<void> {
  checkFileDestination(path);
  const tmp = temporaryBeside(path);
  try {
    await writeFile(tmp, text, { flag: 'wx' });
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
