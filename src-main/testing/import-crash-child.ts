// Child process for the crash tests: imports a file in small batches and reports each
// committed batch on stdout, so the parent can kill it in the middle of the import. With
// `job`, as `worldloom import` does (a large file is then read in a worker while it writes).
import { fileHead, fileSource } from '../parsing/sources';
import { WorkspaceStore } from '../store/workspace-store';
import { importAsJob, importTrajectories } from '../formats/import-trajectories';

const [workspace, file, how] = process.argv.slice(2) as [string, string, string | undefined];
const store = WorkspaceStore.openOrCreate(workspace);
const options = { head: fileHead(file), batchSize: 20, onProgress: (r: { imported: number }) => process.stdout.write(`committed ${r.imported}\n`) };
const done = () => process.stdout.write('finished\n');
if (how === 'job') void importAsJob(store, fileSource(file), { ...options, signal: new AbortController().signal, added: [] }).then(done);
else {
  importTrajectories(store, fileSource(file), options);
  done();
}
