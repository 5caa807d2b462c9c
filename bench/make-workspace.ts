// `npm run make:workspace -- --nodes N [--trajectories T] [--out file]`: a large workspace for
// trying the studio at scale (the tree, search, export, deletion). The nodes come from the tree
// benchmark's generator (long chains with branches, every origin, some starred) and are written
// through the store in one transaction per trajectory, which is what makes 100,000 nodes quick.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { WorkspaceStore } from '../src-main/store/workspace-store';
import { generatedTree } from './tree-fixture';

export interface MadeWorkspace {
  path: string;
  trajectories: number;
  nodes: number;
}

/** Writes a new workspace of `nodes` nodes spread over `trajectories` trajectories; refuses an existing file. */
export function makeWorkspace(path: string, nodes: number, trajectories = 1, onProgress?: (written: number) => void): MadeWorkspace {
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error(`--nodes must be a whole number of at least 1 (got ${nodes}).`);
  if (!Number.isInteger(trajectories) || trajectories < 1 || trajectories > nodes) {
    throw new Error(`--trajectories must be a whole number from 1 to the number of nodes (got ${trajectories}).`);
  }
  const store = WorkspaceStore.create(path);
  let written = 0;
  try {
    for (let t = 0; t < trajectories; t++) {
      const size = Math.floor(nodes / trajectories) + (t < nodes % trajectories ? 1 : 0);
      const bundle = generatedTree(size, 7 + t);
      store.transaction(() => store.insertBundle(bundle));
      written += size;
      onProgress?.(written);
    }
    return { path, trajectories, nodes: written };
  } finally {
    store.close();
  }
}

function main(): void {
  const { values } = parseArgs({
    options: {
      nodes: { type: 'string', default: '100000' },
      trajectories: { type: 'string', default: '1' },
      out: { type: 'string' },
    },
  });
  const nodes = Number(values.nodes);
  const trajectories = Number(values.trajectories);
  const path = resolve(values.out ?? `large-${nodes}.worldloom`);
  const started = performance.now();
  const made = makeWorkspace(path, nodes, trajectories, (written) => process.stderr.write(`\r${written.toLocaleString('en')} of ${nodes.toLocaleString('en')} nodes written`));
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write('\n');
  process.stdout.write(
    `${made.path}: ${made.nodes.toLocaleString('en')} nodes in ${made.trajectories} trajectories (${seconds.toFixed(1)} s). Open it with: worldloom serve --workspace ${made.path}\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`make:workspace: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
