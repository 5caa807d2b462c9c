// Terminal recordings built to freeze the host: an escape sequence whose count is a day's
// work, the same split across events, and a recording that replays for minutes. Counts are
// cut to the largest terminal, and recordings are replayed in a worker that the host ends at
// its limits while its other work goes on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importAsJob, importTrajectories } from './import-trajectories';
import { WorkspaceStore } from '../store/workspace-store';
import { importOffThread } from './off-thread-import';
import { fileHead, fileSource } from '../parsing/sources';
import { TerminalScreen } from '../parsing/terminal-screen';
import { MAX_OBSERVATION_CHARS } from './asciinema/import';
import { writeGeneratedCast } from '../testing/cast-fixtures';

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
    expect(order[1]).toMatch(/^attack refused: slow\.cast took longer than 15 s to read, and was stopped; nothing of it was kept\. To import it anyway, raise the limit: worldloom import --max-mib 1024 \(1200 s and 4 GiB for the file\), or split it\.$/);
  });

  it('stops a recording that needs more memory than the reading thread has', async () => {
    const events: [number, string][] = [];
    for (let i = 0; i < 2000; i++) events.push([i * 0.01, `${'y'.repeat(2000)}\r\n`]);
    const path = cast('wide.cast', events);
    await expect(importOffThread({ path, name: 'wide.cast', format: 'asciinema', head: fileHead(path), options: {} }, { maxHeapMb: 8 })).rejects.toThrow(
      /wide\.cast (needed more than 8 MiB to read|could not be read)/,
    );
  });

  it('imports a long generated session in the reading thread, streaming it, while the host answers other work', { timeout: 120_000 }, async () => {
    // Over MAX_HELD_CHARS of screen text: cut by prompts on a second rendering, nothing held.
    const big = join(dir, 'long-session.cast');
    const { commands } = writeGeneratedCast(big, 14 * 1024 * 1024);
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, JSON.stringify({ messages: [{ role: 'system', content: 'You simulate a shell.' }, { role: 'user', content: 'ls' }, { role: 'assistant', content: 'a b' }] }) + '\n');
    const order: string[] = [];
    const long = importCast(big).then((report) => order.push(`long imported ${report.imported}`));
    const other = importCast(small).then((report) => order.push(`other imported ${report.imported}`));
    await Promise.all([long, other]);
    expect(order).toEqual(['other imported 1', 'long imported 1']);
    const id = store.listTrajectories().find((t) => t.title === 'long-session.cast (asciinema)')!.id;
    const steps = store.getNodes(id).slice(1);
    expect(steps).toHaveLength(commands);
    expect(steps.slice(0, 3).map((s) => s.action)).toEqual(['ls -l src/m0', 'npm run build -- --step 1', 'cat notes-2.md']);
    expect(steps.at(-1)!.observation).toMatch(/dev@box:~\/proj\/m\d+\$$/);
  });

  it('refuses a cast whose screen text passes --max-mib, naming the limit and the flag, from the reading thread', { timeout: 60_000 }, async () => {
    const path = join(dir, 'over.cast');
    writeGeneratedCast(path, 3 * 1024 * 1024);
    await expect(importOffThread({ path, name: 'over.cast', format: 'asciinema', head: fileHead(path), options: { maxBytes: 1024 * 1024 } })).rejects.toThrow(
      /^over\.cast replays to more than 1 MiB of screen text; an imported file may decode to at most 1 MiB, so it was refused and nothing of it was kept\. To import it anyway, raise the limit: worldloom import --max-mib 4 /,
    );
  });

  it('keeps the first MiB of an observation and says how many lines followed', () => {
    const lines = Array.from({ length: 120_000 }, (_, i) => `row ${i} ${'z'.repeat(20)}`);
    const events: [number, string][] = [[0.1, 'u@h:~$ '], [0.2, 'seq-rows\r\n']];
    for (let i = 0; i < lines.length; i += 1000) events.push([0.3, lines.slice(i, i + 1000).join('\r\n') + '\r\n']);
    events.push([1.5, 'u@h:~$ '], [2, 'echo after\r\nafter\r\nu@h:~$ ']);
    const path = cast('many-lines.cast', events);
    const report = importTrajectories(store, fileSource(path), { head: fileHead(path) });
    expect(report.imported).toBe(1);
    const steps = store.getNodes(report.trajectoryIds[0]!).slice(1);
    expect(steps.map((s) => s.action)).toEqual(['seq-rows', 'echo after']);
    const kept = steps[0]!.observation.split('\n');
    expect(kept[0]).toBe(lines[0]);
    expect(steps[0]!.observation.length).toBeLessThanOrEqual(MAX_OBSERVATION_CHARS + 200);
    // The rows kept, the note, then the prompt that ended the step.
    const shown = kept.length - 2;
    expect(kept[shown - 1]).toBe(lines[shown - 1]);
    expect(kept.slice(-2)).toEqual([`[${lines.length - shown} more lines not imported: an observation keeps its first 1 MiB of screen text]`, 'u@h:~$']);
    expect(steps[1]!.observation).toBe('after\nu@h:~$');
    expect(report.skipped).toContainEqual({ line: null, what: `${lines.length - shown} lines of screen text past the first 1 MiB of 1 observation`, reason: expect.stringMatching(/keeps its first 1 MiB/) });
  });
});
