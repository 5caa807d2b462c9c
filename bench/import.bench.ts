// Import of 100,000 AgentWorldBench lines (20,000 trajectories of 5 turns) against merely
// reading and JSON-parsing the same file, then a folder of agent sessions listed and imported
// (./sessions.bench.ts). Goal: ≤ 3×. Beside it, the same rows written with
// nothing to read (their values made beforehand): what SQLite alone takes to store them, the
// part of an import that reading in parallel cannot hide.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileHead, fileSource } from '../src-main/parsing/sources';
import { agentWorldBenchImporter } from '../src-main/formats/agentworldbench/import';
import { newId } from '../src-main/common/trajectory/ids';
import { bundleValues, type BundleValues } from '../src-main/store/rows';
import { importAsJob } from '../src-main/formats/import-trajectories';
import { WorkspaceStore } from '../src-main/store/workspace-store';
import { generatedAwb } from '../src-main/testing/awb-fixtures';
import { median, timeIt, type BenchSuite } from './bench';
import { sessionFigures } from './sessions.bench';

const ROUNDS = 5;

export const importSuite: BenchSuite = {
  name: 'import',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'wl-bench-import-'));
    const file = join(dir, 'terminal_test.jsonl');
    writeFileSync(file, generatedAwb(20_000, 5).join('\n') + '\n');
    try {
      const rows: BundleValues[] = [];
      for (const item of agentWorldBenchImporter.parse(fileSource(file), newId, new Date().toISOString(), {})) if (item.kind === 'trajectory') rows.push(bundleValues(item.bundle));
      // Rounds of (parse, import into a new workspace), each round its own ratio: on a shared
      // machine the load drifts by tens of percent between seconds, which one pair can catch.
      const rounds: { parseMs: number; importMs: number; ratio: number; writeMs: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const parse = timeIt(() => {
          let n = 0;
          for (const line of readFileSync(file, 'utf8').split('\n')) if (line) n += (JSON.parse(line) as { prompt: unknown[] }).prompt.length;
          return n;
        });
        const workspace = join(dir, `bench-${round}.worldloom`);
        const store = WorkspaceStore.create(workspace);
        // As `worldloom import` and the app import it: a job, the file read in a worker while this thread writes.
        const start = performance.now();
        const report = await importAsJob(store, fileSource(file), { head: fileHead(file), signal: new AbortController().signal, added: [] });
        const importMs = performance.now() - start;
        const info = store.info();
        store.close();
        // Gone before the next round, so the kernel does not write this one back while the next runs.
        for (const suffix of ['', '-wal', '-shm']) rmSync(workspace + suffix, { force: true });
        if (report.imported !== 20_000 || info.steps !== 100_000) {
          throw new Error(`import bench imported ${report.imported} trajectories / ${info.steps} steps, expected 20000 / 100000`);
        }
        rounds.push({ parseMs: parse.ms, importMs, ratio: importMs / parse.ms, writeMs: writeRows(join(dir, `rows-${round}.worldloom`), rows) });
      }
      const middle = rounds.find((r) => r.ratio === median(rounds.map((x) => x.ratio)))!;
      const writeRatio = median(rounds.map((r) => r.writeMs / r.parseMs));
      const writing = rounds.find((r) => r.writeMs / r.parseMs === writeRatio)!;
      // The sessions agents keep on disk: listed and imported, with their own peer (./sessions.bench.ts).
      const sessions = await sessionFigures();
      return [
        { name: 'read + JSON.parse 100k lines', value: middle.parseMs, unit: 'ms' },
        {
          name: 'import 100k AgentWorldBench lines (20k trajectories)',
          value: middle.importMs,
          unit: 'ms',
          ratio: middle.ratio,
          goal: 3,
          note:
            `ratio to read + JSON.parse of the same file, the median of ${ROUNDS} rounds (${rounds.map((r) => r.ratio.toFixed(2)).join(', ')}×); ` +
            'imported as worldloom import does it (a job: the file read in a worker while this thread writes)',
        },
        {
          name: 'write the same rows alone (nothing read)',
          value: writing.writeMs,
          unit: 'ms',
          ratio: writeRatio,
          note: `ratio to the same round's read + JSON.parse, median of ${ROUNDS} (${rounds.map((r) => (r.writeMs / r.parseMs).toFixed(2)).join(', ')}×): SQLite storing 20k trajectories and 120k nodes in batches of 500, as the import does; an import cannot take less`,
        },
        ...sessions,
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/** Writes the rows into a new workspace as the import does (batches of 500, checkpoints deferred) and removes it; the milliseconds it took. */
function writeRows(workspace: string, rows: readonly BundleValues[]): number {
  const store = WorkspaceStore.create(workspace);
  try {
    const start = performance.now();
    store.deferCheckpoints(true);
    for (let i = 0; i < rows.length; i += 500) store.insertNewBundles(rows.slice(i, i + 500));
    store.deferCheckpoints(false);
    return performance.now() - start;
  } finally {
    store.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(workspace + suffix, { force: true });
  }
}
