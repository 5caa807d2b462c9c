// A disk that fills during an import: the batches already written stay whole, and the error
// says how many trajectories were kept. SQLite's page cap stands in for the disk's end: it
// fails the write with the same SQLITE_FULL a full disk gives.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { textSource } from '../parsing/sources';
import { WorkspaceStore } from '../store/workspace-store';
import { importTrajectories } from '../formats/import-trajectories';

describe('import on a full disk', () => {
  it('keeps whole batches and says how many trajectories it kept', () => {
    const store = WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-full-')), 'w.worldloom'));
    const db = (store as unknown as { db: Database.Database }).db;
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 40}`);
    const system = 'You simulate a shell.';
    const rows = Array.from({ length: 400 }, (_, i) =>
      JSON.stringify({ messages: [{ role: 'system', content: system }, { role: 'user', content: `echo ${i} ${'x'.repeat(400)}` }, { role: 'assistant', content: `${i} ${'y'.repeat(400)}` }] }),
    );
    let error: unknown;
    try {
      importTrajectories(store, textSource('big.jsonl', rows.join('\n')), { batchSize: 20 });
    } catch (caught) {
      error = caught;
    }
    const kept = store.listTrajectories().length;
    expect(kept).toBeGreaterThan(0);
    expect(kept % 20).toBe(0);
    expect(String(error)).toMatch(new RegExp(`The disk is full: ${kept} trajectories from big\\.jsonl were kept; the 20 being written when it filled were not`));
    store.close();
  });
});
