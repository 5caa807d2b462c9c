// The formats whose large files are read in a worker thread while the import writes what came
// before (off-thread-import.ts `streamOffThread`): line-based formats whose reading costs about
// as much as writing what they read. Each is loaded on its own, so the worker starts without
// loading every format; a format not listed here is read on the importing thread.
import type { TrajectoryImporter } from './format';

export const STREAMED_IMPORTERS: Readonly<Record<string, () => Promise<TrajectoryImporter>>> = {
  agentworldbench: async () => (await import('./agentworldbench/import')).agentWorldBenchImporter,
};
