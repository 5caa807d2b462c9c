// The formats whose large files are read in a worker thread while the import writes what came
// before (off-thread-import.ts `streamOffThread`): line-based formats whose reading costs about
// as much as writing what they read. The worker loads only these (not every format, which
// costs a large part of a second); a format not listed here is read on the importing thread.
import type { TrajectoryImporter } from './format';
import { agentWorldBenchImporter } from './agentworldbench/import';

export const STREAMED_IMPORTERS: Readonly<Record<string, TrajectoryImporter>> = {
  agentworldbench: agentWorldBenchImporter,
};
