// Parquet bombs: a file of a few kilobytes whose rows decode to far more. Each is refused by
// what it would decode to, with the limit and the flag that raises it, and the reading lets
// other work in while it runs.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importAsJob } from '../import-trajectories';
import { WorkspaceStore } from '../../store/workspace-store';
import { fileHead, fileSource } from '../../parsing/sources';

let dir: string;
let store: WorkspaceStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wl-parquet-'));
  store = WorkspaceStore.create(join(dir, 'w.worldloom'));
});
afterEach(() => store.close());

const MiB = 1024 * 1024;

/** `rows` rows whose user turn is `content`: one dictionary entry, however many rows repeat it. */
function writeRows(name: string, rows: number, content: (i: number) => string): string {
  const path = join(dir, name);
  const messages = Array.from({ length: rows }, (_, i) => [
    { role: 'user', content: content(i) },
    { role: 'assistant', content: 'ok' },
  ]);
  parquetWriteFile({ filename: path, columnData: [{ name: 'messages', data: messages }] });
  return path;
}

const importParquet = (path: string, maxBytes?: number) =>
  importAsJob(store, fileSource(path), { head: fileHead(path), signal: new AbortController().signal, added: [], chatAs: 'world-model', ...(maxBytes ? { maxBytes } : {}) });

describe('Parquet bounds', () => {
  it('refuses a small file whose rows decode past the limit, naming the limit and the flag, and lets other work in meanwhile', async () => {
    const same = 'x'.repeat(10_000);
    const path = writeRows('bomb.parquet', 2000, () => same);
    // 2000 rows of 10 KB: 20 MB of rows from a file far smaller.
    expect(statSync(path).size).toBeLessThan(100_000);
    let ticks = 0;
    let settled = false;
    const tick = (): void => {
      if (settled) return;
      ticks++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const error = await importParquet(path, 4 * MiB).catch((caught: unknown) => caught);
    settled = true;
    expect(String(error)).toMatch(/bomb\.parquet holds more than 4 MiB of rows; an imported file may decode to at most 4 MiB\. .*worldloom import --max-mib 16/);
    // Nothing of it was written, and the host's other work ran while it was read.
    expect(store.listTrajectories()).toHaveLength(0);
    expect(ticks).toBeGreaterThan(0);
    // The flag raises it.
    const report = await importParquet(path, 64 * MiB);
    expect(report).toMatchObject({ format: 'parquet', problems: [] });
    expect(report.imported + report.alreadyPresent).toBe(2000);
  });

  it('refuses a file whose footer says its rows decompress past the limit, before decoding them', async () => {
    // Distinct rows: the footer's sizes are honest and already too large.
    const path = writeRows('honest.parquet', 600, (i) => `${i} ${'abcdefghij'.repeat(1000)} ${i}`);
    await expect(importParquet(path, 2 * MiB)).rejects.toThrow(/honest\.parquet says its rows decompress to \d+ MiB; an imported file may decode to at most 2 MiB/);
  });

  it('refuses more rows than the limit allows before reading any', async () => {
    const path = writeRows('many.parquet', 5000, (i) => `row ${i}`);
    // 1 MiB allows 4096 rows.
    await expect(importParquet(path, 1 * MiB)).rejects.toThrow(/many\.parquet has 5000 rows; an imported file may hold at most 4096\. .*--max-mib 4/);
  });

  it('says a file without a messages column has none, from its schema', async () => {
    const path = join(dir, 'other.parquet');
    parquetWriteFile({ filename: path, columnData: [{ name: 'text', data: ['a', 'b'] }] });
    await expect(importParquet(path)).rejects.toThrow(/other\.parquet has no "messages" column \(its columns: text\)/);
  });
});
