// Terminal recordings built to freeze the host: an escape sequence whose count is a day's
// work, the same split across events, and a recording that replays for minutes. Counts are
// cut to the largest terminal, and recordings are replayed in a worker that the host ends at
// its limits while its other work goes on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importAsJob } from '../service/import-trajectories';
import { WorkspaceStore } from '../store/workspace-store';
import { importOffThread } from './off-thread-import';
import { fileHead, fileSource } from '../parsing/sources';
import { TerminalScreen } from './terminal-screen';

let dir: string;
let store: WorkspaceStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wl-terminal-bounds-'));
  store = WorkspaceStore.create(join(dir, 'w.worldloom'));
});
afterEach(() => store.close());

const cast = (name: string, events: [number, string][]) => {
  const path = join(dir, name);
  writeFileSync(path, [JSON.stringify({ version: 2, width: 80, height: 24 }), ...events.map(([t, d]) => JSON.stringify([t, 'o', d]))].join('\n') + '\n');
  return path;
};

const importCast = (path: string) => importAsJob(store, fileSource(path), { head: fileHead(path), signal: new AbortController().signal, added: [] });

describe('terminal bounds', () => {
  it('cuts a count of work to the largest terminal, also when the sequence is split across writes', () => {
    const screen = new TerminalScreen(80, 24);
    try {
      screen.write('top\r\n');
      // Unbounded, each of these inserts ten million lines (about a minute each).
      screen.write('\x1b[10000000L');
      screen.write('\x1b[1;1H\x1b[100000');
      screen.write('00L');
      screen.write('\x1b[10000000bafter');
      expect(screen.peekNormal().join('\n')).toContain('after');
    } finally {
      screen.dispose();
    }
  });

  it('shows what a step printed on the alternate screen when the program left it up', () => {
    const screen = new TerminalScreen(80, 24);
    try {
      screen.write('$ tput smcup; echo hidden\r\n\x1b[?1049h\x1b[Hhidden\r\n$ ');
      expect(screen.take()).toEqual([]);
      expect(screen.takeShown()).toEqual(['hidden', '$']);
    } finally {
      screen.dispose();
    }
  });

  it('imports the 73-byte cast whose only event is ESC[10000000L', async () => {
    const path = cast('insert-lines.cast', [[0.1, '$ \x1b[10000000L']]);
    const report = await importCast(path);
    expect(report.format).toBe('asciinema');
  });

  it('replays a recording in a worker the host stops at its time limit, and answers other work first', { timeout: 60_000 }, async () => {
    // 20,000 events that each insert and delete the most lines a terminal has: minutes of work.
    const events: [number, string][] = [];
    for (let i = 0; i < 20_000; i++) events.push([i * 0.001, '\x1b[500L\x1b[500M\x1b[500@x\r\n']);
    const slow = cast('slow.cast', events);
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, JSON.stringify({ messages: [{ role: 'system', content: 'You simulate a shell.' }, { role: 'user', content: 'ls' }, { role: 'assistant', content: 'a b' }] }) + '\n');
    const order: string[] = [];
    const attack = importOffThread({ path: slow, name: 'slow.cast', format: 'asciinema', head: fileHead(slow), options: {} }, { timeoutMs: 15_000 }).then(
      () => order.push('attack answered'),
      (error: unknown) => order.push(`attack refused: ${(error as Error).message}`),
    );
    const other = importCast(small).then((report) => order.push(`other imported ${report.imported}`));
    await Promise.all([attack, other]);
    expect(order[0]).toBe('other imported 1');
    expect(order[1]).toMatch(/^attack refused: slow\.cast took longer than 15 s to read, and was stopped; nothing of it was kept/);
  });

  it('stops a recording that needs more memory than the reading thread has', async () => {
    const events: [number, string][] = [];
    for (let i = 0; i < 2000; i++) events.push([i * 0.01, `${'y'.repeat(2000)}\r\n`]);
    const path = cast('wide.cast', events);
    await expect(importOffThread({ path, name: 'wide.cast', format: 'asciinema', head: fileHead(path), options: {} }, { maxHeapMb: 8 })).rejects.toThrow(
      /wide\.cast (needed more than 8 MiB to read|could not be read)/,
    );
  });
});
