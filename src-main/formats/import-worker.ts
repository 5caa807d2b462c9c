// Worker thread entry: reads one file with one importer and posts what it read. Formats whose
// reading is replay (a terminal recording runs a terminal emulator over every event) run
// here, so a recording built to take minutes or gigabytes costs this thread, which the host
// ends at its limits, never the host's own. Large files of the formats in STREAMED_IMPORTERS
// are read here too, while the host writes what came before (`stream`): reading and writing
// then take a core each.
import { parentPort, workerData } from 'node:worker_threads';
import { newId } from '../common/trajectory/ids';
import type { ImporterOptions, TrajectoryImporter } from './format';
import { ImportFormatError, type ImportItem } from '../parsing/import-item';
import { UserError } from '../common/user-error';
import { fileSource } from '../parsing/sources';
import { bundleValues, type BundleValues } from '../store/rows';
import { STREAMED_IMPORTERS } from './streamed-importers';

export interface ImportWorkerData {
  path: string;
  name: string;
  format: string;
  head: string;
  now: string;
  options: ImporterOptions;
  /**
   * Streaming: `taken` counts the posts the host has taken; this thread waits while `ahead`
   * posts are not yet taken, so what it has read and the host has not written stays small.
   */
  stream?: { taken: SharedArrayBuffer; ahead: number };
}

/** A trajectory as a streaming worker posts it (`bundleValues`). */
export interface WrittenAs {
  kind: 'values';
  values: BundleValues;
}

const BATCH = 64;

const data = workerData as ImportWorkerData;

/** Only the one format's module when streaming: loading every format costs a large part of a second. */
async function chooseImporter(): Promise<TrajectoryImporter> {
  const streamed = data.stream ? STREAMED_IMPORTERS[data.format] : undefined;
  if (streamed) return streamed;
  const { importerFor } = await import('./registry');
  return importerFor(data.format, data.name, data.head);
}

async function run(): Promise<void> {
  const importer = await chooseImporter();
  const taken = data.stream ? new Int32Array(data.stream.taken) : null;
  let posted = 0;
  const post = (items: (ImportItem | WrittenAs)[], done: boolean) => {
    parentPort!.postMessage(done ? { items, done } : { items });
    posted++;
    if (!taken) return;
    for (let seen = Atomics.load(taken, 0); posted - seen > data.stream!.ahead; seen = Atomics.load(taken, 0)) Atomics.wait(taken, 0, seen, 1000);
  };
  let batch: (ImportItem | WrittenAs)[] = [];
  for (const item of importer.parse(fileSource(data.path, data.name), newId, data.now, data.options)) {
    // Streaming, a trajectory crosses as the values its rows bind: far cheaper to pass than its objects.
    batch.push(taken && item.kind === 'trajectory' ? { kind: 'values', values: bundleValues(item.bundle) } : item);
    if (batch.length >= BATCH) {
      post(batch, false);
      batch = [];
    }
  }
  post(batch, true);
}

run().catch((error: unknown) => {
  // A refusal that names its limit reaches the user as written: an error crossing threads loses its class.
  parentPort!.postMessage({
    error: (error as Error).message,
    refused: error instanceof ImportFormatError || error instanceof UserError,
    ...(error instanceof UserError ? { code: error.code } : {}),
  });
});
