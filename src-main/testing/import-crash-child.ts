// Child process for the crash test: imports a file in small batches and reports each
// committed batch on stdout, so the parent can kill it in the middle of the import.
import { fileHead, fileSource } from '../parsing/sources';
import { WorkspaceStore } from '../store/workspace-store';
import { importTrajectories } from '../formats/import-trajectories';

const [workspace, file] = process.argv.slice(2) as [string, string];
const store = WorkspaceStore.openOrCreate(workspace);
importTrajectories(store, fileSource(file), {
  head: fileHead(file),
  batchSize: 20,
  onProgress: (r) => process.stdout.write(`committed ${r.imported}\n`),
});
process.stdout.write('finished\n');
