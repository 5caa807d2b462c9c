// Worker thread entry: reads one file with one importer and posts what it read. Formats whose
// reading is replay (a terminal recording runs a terminal emulator over every event) run
// here, so a recording built to take minutes or gigabytes costs this thread, which the host
// ends at its limits, never the host's own.
import { parentPort, workerData } from 'node:worker_threads';
import { newId } from '../common/trajectory/ids';
import type { ImporterOptions } from './format';
import { ImportFormatError, type ImportItem } from '../parsing/import-item';
import { UserError } from '../common/user-error';
import { importerFor } from './registry';
import { fileSource } from '../parsing/sources';

export interface ImportWorkerData {
  path: string;
  name: string;
  format: string;
  head: string;
  now: string;
  options: ImporterOptions;
}

const BATCH = 64;

const data = workerData as ImportWorkerData;
const importer = importerFor(data.format, data.name, data.head);
let batch: ImportItem[] = [];
try {
  for (const item of importer.parse(fileSource(data.path, data.name), newId, data.now, data.options)) {
    batch.push(item);
    if (batch.length >= BATCH) {
      parentPort!.postMessage({ items: batch });
      batch = [];
    }
  }
  parentPort!.postMessage({ items: batch, done: true });
} catch (error) {
  // A refusal that names its limit reaches the user as written: an error crossing threads loses its class.
  parentPort!.postMessage({ error: (error as Error).message, refused: error instanceof ImportFormatError || error instanceof UserError });
}
