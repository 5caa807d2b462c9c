// Import of 100,000 AgentWorldBench lines (20,000 trajectories of 5 turns) against merely
// reading and JSON-parsing the same file. Goal: ≤ 3×.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileHead, fileSource } from '../src-main/parsing/sources';
import { importAsJob } from '../src-main/formats/import-trajectories';
import { WorkspaceStore } from '../src-main/store/workspace-store';
import { generatedAwb } from '../src-main/testing/awb-fixtures';
import { timeIt, type BenchSuite } from './bench';

export const importSuite: BenchSuite = {
  name: 'import',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'wl-bench-import-'));
    const file = join(dir, 'terminal_test.jsonl');
    writeFileSync(file, generatedAwb(20_000, 5).join('\n') + '\n');
    try {
      const parse = timeIt(() => {
        let n = 0;
        for (const line of readFileSync(file, 'utf8').split('\n')) if (line) n += (JSON.parse(line) as { prompt: unknown[] }).prompt.length;
        return n;
      });
      const store = WorkspaceStore.create(join(dir, 'bench.worldloom'));
      // As `worldloom import` and the app import it: a job, the file read in a worker while this thread writes.
      const start = performance.now();
      const report = await importAsJob(store, fileSource(file), { head: fileHead(file), signal: new AbortController().signal, added: [] });
      const imported = { ms: performance.now() - start, result: report };
      const info = store.info();
      store.close();
      if (imported.result.imported !== 20_000 || info.steps !== 100_000) {
        throw new Error(`import bench imported ${imported.result.imported} trajectories / ${info.steps} steps, expected 20000 / 100000`);
      }
      return [
        { name: 'read + JSON.parse 100k lines', value: parse.ms, unit: 'ms' },
        {
          name: 'import 100k AgentWorldBench lines (20k trajectories)',
          value: imported.ms,
          unit: 'ms',
          ratio: imported.ms / parse.ms,
          goal: 3,
          note: 'ratio to read + JSON.parse of the same file; imported as worldloom import does it (a job: the file read in a worker while this thread writes)',
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
