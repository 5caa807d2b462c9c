// Runs an importer in a worker thread (./import-worker.ts) with a heap cap and a time limit,
// and hands back what it read. A file that would take longer or more memory is an error for
// that file; the host's thread is never the one replaying it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ImportFormatError, type ImportItem } from '../parsing/import-item';
import { UserError } from '../common/user-error';
import type { ImportWorkerData, WrittenAs } from './import-worker';
import { MAX_IMPORT_BYTES } from '../parsing/json-limits';

/** Longest one file may take to read off the thread, at the default --max-mib (more with a higher one). */
export const MAX_IMPORT_SECONDS = 300;
/** Heap of the reading thread, at the default --max-mib (more with a higher one). */
export const IMPORT_WORKER_HEAP_MB = 2048;

/**
 * The reading thread's time and heap for a file allowed to decode to `maxBytes` (`--max-mib`):
 * what it emits is bounded by that, so a higher allowance buys time and memory in proportion,
 * and one flag raises every limit a large file can meet.
 */
export function readingLimits(maxBytes = MAX_IMPORT_BYTES): { seconds: number; heapMb: number } {
  const scale = Math.max(1, maxBytes / MAX_IMPORT_BYTES);
  return { seconds: Math.round(MAX_IMPORT_SECONDS * scale), heapMb: Math.max(IMPORT_WORKER_HEAP_MB, Math.round((3 * maxBytes) / 1024 / 1024) + 1024) };
}

/** How to give a file more time and memory: four times its allowance, with what that buys. */
function raiseHint(maxBytes: number): string {
  const more = maxBytes * 4;
  const { seconds, heapMb } = readingLimits(more);
  return `To import it anyway, raise the limit: worldloom import --max-mib ${Math.ceil(more / 1024 / 1024)} (${seconds} s and ${Math.round(heapMb / 1024)} GiB for the file), or split it.`;
}

export interface OffThreadLimits {
  timeoutMs?: number;
  maxHeapMb?: number;
  /** A cancel ends the worker at once. */
  signal?: AbortSignal;
}

// From source (tsx, vitest) the worker loads TypeScript through tsx; a built app ships
// import-worker.js beside its main bundle (electron.vite.config.ts builds it).
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(workerData.tsx ? import(workerData.tsx).then(({ register }) => register()) : Promise.resolve()).then(() => import(workerData.entry));
`;

/**
 * A streaming worker starts while the import waits for it, so from source it loads through
 * tsx's CommonJS hook, which registers in a few milliseconds where the ESM one takes a fifth
 * of a second (its modules use nothing CommonJS lacks). A built app's worker is plain
 * JavaScript and is imported as the other one is.
 */
const STREAM_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
if (workerData.tsxCjs) {
  require(workerData.tsxCjs).register();
  require(workerData.entryFile);
} else import(workerData.entry);
`;

function streamWorkerEntry(): { entry: string; entryFile: string | null; tsxCjs: string | null } {
  const { entry, tsx } = workerEntry();
  if (!tsx) return { entry, entryFile: null, tsxCjs: null };
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  return { entry, entryFile: fileURLToPath(entry), tsxCjs: join(tsxRoot, 'dist/cjs/api/index.cjs') };
}

function workerEntry(): { entry: string; tsx: string | null } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    // tsx's ESM register (its package exports map `tsx/esm/api` there for `import`).
    const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
    return { entry: pathToFileURL(join(dirname(here), 'import-worker.ts')).href, tsx: pathToFileURL(join(tsxRoot, 'dist/esm/api/index.mjs')).href };
  }
  for (const candidate of [join(dirname(here), 'import-worker.js'), join(dirname(here), '..', 'import-worker.js')]) {
    if (existsSync(candidate)) return { entry: pathToFileURL(candidate).href, tsx: null };
  }
  throw new ImportFormatError('This build has no import worker (import-worker.js beside the main bundle); reinstall Worldloom.');
}

/** What a reading worker posts: items, the end, or why it stopped. */
interface ReaderMessage<T> {
  items: T[];
  done?: boolean;
  error?: string;
  refused?: boolean;
  code?: string;
}

/** A reading worker with its heap bounded; its output is piped, never printed over the host's. */
function startReader(bootstrap: string, workerData: object, maxHeapMb: number): Worker {
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 64 }, stdout: true, stderr: true });
}

/**
 * The error a worker's message carries: an importer's refusal (a limit it names) as it was
 * written, with its code where it had one; anything else is the file's problem, said with its name.
 */
function messageError(name: string, message: ReaderMessage<unknown>): Error {
  const said = message.refused ? message.error! : `${name} could not be read: ${message.error}`;
  return message.code !== undefined ? new UserError(said, message.code) : new ImportFormatError(said);
}

/** A worker that failed: out of its heap (naming the flag that raises it), or any other error. */
function workerError(name: string, error: Error & { code?: string }, maxHeapMb: number, maxBytes: number, kept: string): Error {
  if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') return new ImportFormatError(`${name} needed more than ${maxHeapMb} MiB to read, and was stopped${kept}. ${raiseHint(maxBytes)}`);
  return error instanceof ImportFormatError ? error : new ImportFormatError(`${name} could not be read: ${error.message}`);
}

/** Every item the importer reads from the file, read in a worker within the limits. */
export function importOffThread(work: Omit<ImportWorkerData, 'now'>, limits: OffThreadLimits = {}): Promise<ImportItem[]> {
  const maxBytes = work.options.maxBytes ?? MAX_IMPORT_BYTES;
  const timeoutMs = limits.timeoutMs ?? readingLimits(maxBytes).seconds * 1000;
  const maxHeapMb = limits.maxHeapMb ?? readingLimits(maxBytes).heapMb;
  const { entry, tsx } = workerEntry();
  const worker = startReader(BOOTSTRAP, { ...work, now: new Date().toISOString(), entry, tsx }, maxHeapMb);
  const items: ImportItem[] = [];
  return new Promise<ImportItem[]>((resolve, reject) => {
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (error) reject(error);
      else resolve(items);
    };
    const timer = setTimeout(
      () => settle(new ImportFormatError(`${work.name} took longer than ${Math.round(timeoutMs / 1000)} s to read, and was stopped; nothing of it was kept. ${raiseHint(maxBytes)}`)),
      timeoutMs,
    );
    limits.signal?.addEventListener('abort', () => settle(new ImportFormatError(`The import of ${work.name} was cancelled.`)), { once: true });
    worker.on('message', (message: ReaderMessage<ImportItem>) => {
      if (message.error !== undefined) {
        settle(messageError(work.name, message));
        return;
      }
      items.push(...message.items);
      if (message.done) settle(null);
    });
    // Always heard, also after settling: an 'error' nobody listens to would end the process.
    worker.on('error', (error: Error & { code?: string }) => settle(workerError(work.name, error, maxHeapMb, maxBytes, '; nothing of it was kept')));
    worker.on('exit', () => settle(new ImportFormatError(`${work.name} could not be read: the reading thread stopped.`)));
  });
}

/** Handed out by `streamOffThread` when the worker has posted nothing new yet: wait for `ready`, then read on. */
export interface PendingItems {
  kind: 'pending';
  ready: Promise<void>;
}

/** Posts of items read but not yet taken that the worker may have outstanding (64 items each). */
const STREAM_AHEAD = 64;

/**
 * Reads a file in a worker while the caller writes what was read before: the items in order
 * (trajectories as the values their rows bind),
 * and a `pending` one whenever the worker is behind (the caller awaits its `ready`, so its
 * event loop runs and the worker's posts come in). The worker stays at most STREAM_AHEAD
 * posts ahead, so memory stays bounded whatever the file's size. Leaving the loop early (a
 * cancel, a failed write) ends the worker; a failure of the worker is thrown after the items
 * it read before it.
 */
export function streamOffThread(work: Omit<ImportWorkerData, 'now' | 'stream'>, now: string, signal?: AbortSignal): Iterable<ImportItem | WrittenAs | PendingItems> {
  const maxBytes = work.options.maxBytes ?? MAX_IMPORT_BYTES;
  const maxHeapMb = readingLimits(maxBytes).heapMb;
  const taken = new Int32Array(new SharedArrayBuffer(4));
  const data: ImportWorkerData & ReturnType<typeof streamWorkerEntry> = { ...work, now, stream: { taken: taken.buffer as SharedArrayBuffer, ahead: STREAM_AHEAD }, ...streamWorkerEntry() };
  const worker = startReader(STREAM_BOOTSTRAP, data, maxHeapMb);
  const posts: (ImportItem | WrittenAs)[][] = [];
  let ended = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const wakeUp = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const fail = (error: Error) => {
    failure ??= error;
    wakeUp();
  };
  worker.on('message', (message: ReaderMessage<ImportItem | WrittenAs>) => {
    if (message.error !== undefined) {
      fail(messageError(work.name, message));
      return;
    }
    posts.push(message.items);
    if (message.done) ended = true;
    wakeUp();
  });
  // Always heard, also after the end: an 'error' nobody listens to would end the process.
  // What earlier batches wrote stays: the message does not say nothing was kept.
  worker.on('error', (error: Error & { code?: string }) => fail(workerError(work.name, error, maxHeapMb, maxBytes, '')));
  worker.on('exit', () => {
    if (!ended) fail(new ImportFormatError(`${work.name} could not be read: the reading thread stopped.`));
  });
  signal?.addEventListener('abort', wakeUp);
  return {
    *[Symbol.iterator]() {
      try {
        for (;;) {
          const post = posts.shift();
          if (post) {
            Atomics.add(taken, 0, 1);
            Atomics.notify(taken, 0);
            yield* post;
            continue;
          }
          if (failure) throw failure;
          if (ended) return;
          yield { kind: 'pending', ready: new Promise<void>((resolve) => (wake = resolve)) };
        }
      } finally {
        signal?.removeEventListener('abort', wakeUp);
        void worker.terminate();
      }
    },
  };
}
