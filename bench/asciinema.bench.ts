// asciinema casts (a bash session without recorded keystrokes: coloured prompts, commands,
// listings and a carriage-return progress bar, src-main/testing/cast-fixtures.ts):
// - a 10 MB cast imported into a workspace on the calling thread, against replaying the same
//   bytes through the headless terminal alone (JSON parse + emulator, no prompt learning, no
//   turns, no database): the ratio is what the import adds to rendering;
// - an 8 MB cast (WL_BENCH_CAST_MB=115 for a larger one too) imported as the app and the CLI
//   import it, in the reading thread: its time against the same replay, and the peak growth of
//   the process's resident memory (worker included) against a fixed limit. The import streams
//   (no event is held; a long session is rendered twice rather than held), so memory follows
//   what it emits, not the file's size.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileHead, fileLines, fileSource } from '../src-main/parsing/sources';
import { TerminalScreen } from '../src-main/parsing/terminal-screen';
import { importAsJob, importTrajectories } from '../src-main/formats/import-trajectories';
import { WorkspaceStore } from '../src-main/store/workspace-store';
import { writeGeneratedCast } from '../src-main/testing/cast-fixtures';
import { timeIt, type BenchSuite, type Figure } from './bench';

/** Growth of resident memory allowed for the import of a cast of any size. */
const MEMORY_LIMIT = 512 * 1024 * 1024;

/** Replays the cast's output through the headless terminal alone, line by line from the file. */
function replay(file: string): number {
  const screen = new TerminalScreen(120, 40);
  let kept = 0;
  try {
    for (const line of fileLines(file)) {
      if (line.lineNo === 1 || !line.text) continue;
      const [, code, data] = JSON.parse(line.text) as [number, string, string];
      if (code !== 'o') continue;
      screen.write(data);
      kept += screen.flushIfLarge().length;
    }
    return kept + screen.take().length;
  } finally {
    screen.dispose();
  }
}

async function throughWorker(dir: string, mb: number): Promise<Figure[]> {
  const file = join(dir, `session-${mb}.cast`);
  const { bytes, commands } = writeGeneratedCast(file, mb * 1024 * 1024);
  const rendered = timeIt(() => replay(file));
  const store = WorkspaceStore.create(join(dir, `worker-${mb}.worldloom`));
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  // The host's thread only waits while the worker reads: sampling here sees the whole process.
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const start = performance.now();
  try {
    const report = await importAsJob(store, fileSource(file), { head: fileHead(file), signal: new AbortController().signal, added: [] });
    const ms = performance.now() - start;
    peak = Math.max(peak, process.memoryUsage().rss);
    const steps = store.info().steps;
    if (report.imported !== 1 || steps !== commands) throw new Error(`imported ${report.imported} trajectories / ${steps} steps from the ${mb} MB cast, expected 1 / ${commands}`);
    const size = `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    return [
      {
        name: `import a ${size} cast in the reading thread (${commands} commands)`,
        value: ms,
        unit: 'ms',
        ratio: ms / rendered.ms,
        goal: 3,
        note: `ratio to replaying the same bytes through the headless terminal alone (${rendered.ms.toFixed(0)} ms); includes the worker's start and the database`,
      },
      {
        name: `import a ${size} cast in the reading thread: peak memory growth`,
        value: (peak - base) / 1024 / 1024,
        unit: 'MB',
        ratio: (peak - base) / MEMORY_LIMIT,
        goal: 1,
        note: `ratio to a fixed ${MEMORY_LIMIT / 1024 / 1024} MB; resident memory of the whole process (host and reading thread), sampled every 20 ms`,
      },
    ];
  } finally {
    clearInterval(sampler);
    store.close();
  }
}

export const asciinemaSuite: BenchSuite = {
  name: 'asciinema',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'wl-bench-cast-'));
    const file = join(dir, 'session.cast');
    const { bytes, commands } = writeGeneratedCast(file, 10 * 1024 * 1024);
    try {
      const replayed = timeIt(() => replay(file));
      const store = WorkspaceStore.create(join(dir, 'bench.worldloom'));
      const imported = timeIt(() => importTrajectories(store, fileSource(file), { head: fileHead(file) }));
      const info = store.info();
      store.close();
      if (imported.result.imported !== 1 || info.steps !== commands) {
        throw new Error(`asciinema bench imported ${imported.result.imported} trajectories / ${info.steps} steps, expected 1 / ${commands}`);
      }
      const mb = (bytes / 1024 / 1024).toFixed(1);
      const figures: Figure[] = [
        { name: `replay a ${mb} MB cast through the headless terminal`, value: replayed.ms, unit: 'ms' },
        {
          name: `import the same ${mb} MB cast (${commands} commands)`,
          value: imported.ms,
          unit: 'ms',
          ratio: imported.ms / replayed.ms,
          goal: 2,
          note: 'ratio to replaying the same bytes through the headless terminal alone',
        },
      ];
      const sizes = [8, ...(process.env.WL_BENCH_CAST_MB ? [Number(process.env.WL_BENCH_CAST_MB)] : [])];
      for (const size of sizes) figures.push(...(await throughWorker(dir, size)));
      return figures;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
