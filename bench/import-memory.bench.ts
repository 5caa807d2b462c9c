// Import of a 1 GB AgentWorldBench file (WL_BENCH_IMPORT_MB to change the size): memory stays
// bounded and progress is reported while it runs. The peak growth of the process's resident
// memory is compared with a fixed limit, whatever the file's size: reading must not hold the
// file (SQLite's page cache alone may take 64 MB). Heavy (minutes, a few GB of disk), so it
// runs only when named: `npm run bench import-memory`.
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileHead, fileSource } from '../src-main/parsing/sources';
import { importAsJob } from '../src-main/formats/import-trajectories';
import { WorkspaceStore } from '../src-main/store/workspace-store';
import { awbLines } from '../src-main/testing/awb-fixtures';
import type { BenchSuite } from './bench';

/** Growth of resident memory allowed for an import of any size. */
const MEMORY_LIMIT = 512 * 1024 * 1024;

/** Writes whole AgentWorldBench trajectories (one line per turn, as the benchmark does) until `bytes`. */
function writeAwb(path: string, bytes: number): number {
  const fd = openSync(path, 'w');
  let written = 0;
  let t = 0;
  try {
    while (written < bytes) {
      const chunk: string[] = [];
      for (let k = 0; k < 1000; k++, t++) {
        chunk.push(
          ...awbLines({
            id: `big-${t}`,
            system: `You simulate a Linux terminal on host box-${t % 97}. Reply with exactly what bash prints.`,
            turns: Array.from({ length: 5 }, (_, i) => [`grep -n needle-${i} /srv/data/file-${t}-${i}.txt`, `${i + 1}:needle-${i} in record ${t * 31 + i}\n${'x'.repeat(200 + ((t * 7 + i) % 300))}`]),
          }),
        );
      }
      written += writeSync(fd, chunk.join('\n') + '\n');
    }
  } finally {
    closeSync(fd);
  }
  return t;
}

export const importMemorySuite: BenchSuite = {
  name: 'import-memory',
  async run() {
    // Only when asked for by name: it writes and reads gigabytes.
    if (!process.argv.slice(2).includes('import-memory')) return [];
    const mb = Number(process.env.WL_BENCH_IMPORT_MB ?? 1024);
    const dir = mkdtempSync(join(tmpdir(), 'wl-bench-import-memory-'));
    const file = join(dir, 'terminal_test.jsonl');
    try {
      const trajectories = writeAwb(file, mb * 1024 * 1024);
      const size = statSync(file).size;
      const store = WorkspaceStore.create(join(dir, 'bench.worldloom'));
      global.gc?.();
      const base = process.memoryUsage().rss;
      let peak = base;
      let progress = 0;
      const start = performance.now();
      // As `worldloom import` and the app import it: a job, the file read in a worker (whose memory counts too) while this thread writes.
      const report = await importAsJob(store, fileSource(file), {
        head: fileHead(file),
        signal: new AbortController().signal,
        added: [],
        onProgress: () => {
          progress++;
          peak = Math.max(peak, process.memoryUsage().rss);
        },
      });
      const ms = performance.now() - start;
      store.close();
      if (report.imported !== trajectories) throw new Error(`imported ${report.imported} of ${trajectories} trajectories`);
      const growth = peak - base;
      return [
        {
          name: `import a ${Math.round(size / 1024 / 1024)} MB AgentWorldBench file: peak memory growth`,
          value: growth / 1024 / 1024,
          unit: 'MB',
          ratio: growth / MEMORY_LIMIT,
          goal: 1,
          note: `ratio to a fixed ${MEMORY_LIMIT / 1024 / 1024} MB (${((growth / size) * 100).toFixed(0)} % of the file's size); ${report.imported} trajectories in ${(ms / 1000).toFixed(0)} s, ${progress} progress reports`,
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
