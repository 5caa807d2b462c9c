// Runs an importer in a worker thread (./import-worker.ts) with a heap cap and a time limit,
// and hands back what it read. A file that would take longer or more memory is an error for
// that file; the host's thread is never the one replaying it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ImportFormatError, type ImportItem } from '../parsing/import-item';
import type { ImportWorkerData } from './import-worker';

/** Longest one file may take to read off the thread. */
export const MAX_IMPORT_SECONDS = 300;
/** Heap of the reading thread. */
export const IMPORT_WORKER_HEAP_MB = 2048;

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

/** Every item the importer reads from the file, read in a worker within the limits. */
export function importOffThread(work: Omit<ImportWorkerData, 'now'>, limits: OffThreadLimits = {}): Promise<ImportItem[]> {
  const timeoutMs = limits.timeoutMs ?? MAX_IMPORT_SECONDS * 1000;
  const maxHeapMb = limits.maxHeapMb ?? IMPORT_WORKER_HEAP_MB;
  const { entry, tsx } = workerEntry();
  const worker = new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { ...work, now: new Date().toISOString(), entry, tsx },
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 64 },
    stdout: true,
    stderr: true,
  });
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
      () => settle(new ImportFormatError(`${work.name} took longer than ${Math.round(timeoutMs / 1000)} s to read, and was stopped; nothing of it was kept. Split the recording, or trim it.`)),
      timeoutMs,
    );
    limits.signal?.addEventListener('abort', () => settle(new ImportFormatError(`The import of ${work.name} was cancelled.`)), { once: true });
    worker.on('message', (message: { items: ImportItem[]; done?: boolean }) => {
      items.push(...message.items);
      if (message.done) settle(null);
    });
    // Always heard, also after settling: an 'error' nobody listens to would end the process.
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        settle(new ImportFormatError(`${work.name} needed more than ${maxHeapMb} MiB to read, and was stopped; nothing of it was kept. Split the recording, or trim it.`));
      } else settle(error instanceof ImportFormatError ? error : new ImportFormatError(`${work.name} could not be read: ${error.message}`));
    });
    worker.on('exit', () => settle(new ImportFormatError(`${work.name} could not be read: the reading thread stopped.`)));
  });
}
