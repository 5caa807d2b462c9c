// A 10 MB asciinema cast (a bash session without recorded keystrokes: coloured prompts,
// commands, listings and a carriage-return progress bar) imported into a workspace, against
// replaying the same bytes through the headless terminal alone (JSON parse + emulator, no
// prompt learning, no turns, no database). The ratio is what the import adds to rendering.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileHead, fileSource } from '../src-main/parsing/sources';
import { TerminalScreen } from '../src-main/formats/terminal-screen';
import { importTrajectories } from '../src-main/service/import-trajectories';
import { WorkspaceStore } from '../src-main/store/workspace-store';
import { timeIt, type BenchSuite } from './bench';

const TARGET_BYTES = 10 * 1024 * 1024;

/** A cast of `commands` turns; returns its text and how many commands it holds. */
function generatedCast(): { text: string; commands: number } {
  const lines = [JSON.stringify({ version: 2, width: 120, height: 40, env: { SHELL: '/bin/bash', TERM: 'xterm-256color' } })];
  let bytes = lines[0]!.length;
  let t = 0;
  let commands = 0;
  const prompt = (dir: string) => `\x1b]0;dev@box: ${dir}\x07\x1b[01;32mdev@box\x1b[00m:\x1b[01;34m${dir}\x1b[00m$ `;
  const push = (dt: number, data: string) => {
    t += dt;
    const line = JSON.stringify([Number(t.toFixed(3)), 'o', data]);
    lines.push(line);
    bytes += line.length + 1;
  };
  push(0.05, prompt('~/proj'));
  while (bytes < TARGET_BYTES) {
    const n = commands++;
    const dir = `~/proj/m${n % 17}`;
    switch (n % 3) {
      case 0: {
        push(0.8, `ls -l src/m${n}\r\n`);
        const rows = Array.from({ length: 40 }, (_, i) => `-rw-r--r-- 1 dev dev ${(i * 7919 + n) % 100000} Jun 10 09:12 \x1b[01;34mfile-${n}-${i}.ts\x1b[0m`);
        push(0.02, rows.join('\r\n') + '\r\n');
        break;
      }
      case 1: {
        push(0.6, `npm run build -- --step ${n}\r\n`);
        for (let p = 0; p <= 10; p++) push(0.01, `\rBuilding [${'#'.repeat(p)}${' '.repeat(10 - p)}] ${p * 10}%`);
        push(0.01, `\r\ndone in ${(n % 50) / 10}s\r\n`);
        break;
      }
      default: {
        push(0.7, `cat notes-${n}.md\r\n`);
        push(0.02, Array.from({ length: 25 }, (_, i) => `line ${i} of notes ${n}: the quick brown fox jumps over the lazy dog`).join('\r\n') + '\r\n');
      }
    }
    push(0.01, prompt(dir));
  }
  return { text: lines.join('\n') + '\n', commands };
}

export const asciinemaSuite: BenchSuite = {
  name: 'asciinema',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'wl-bench-cast-'));
    const file = join(dir, 'session.cast');
    const { text, commands } = generatedCast();
    writeFileSync(file, text);
    try {
      const replay = timeIt(() => {
        const screen = new TerminalScreen(120, 40);
        let kept = 0;
        try {
          for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
            if (!line) continue;
            const [, code, data] = JSON.parse(line) as [number, string, string];
            if (code !== 'o') continue;
            screen.write(data);
            kept += screen.flushIfLarge().length;
          }
          return kept + screen.take().length;
        } finally {
          screen.dispose();
        }
      });
      const store = WorkspaceStore.create(join(dir, 'bench.worldloom'));
      const imported = timeIt(() => importTrajectories(store, fileSource(file), { head: fileHead(file) }));
      const info = store.info();
      store.close();
      if (imported.result.imported !== 1 || info.steps !== commands) {
        throw new Error(`asciinema bench imported ${imported.result.imported} trajectories / ${info.steps} steps, expected 1 / ${commands}`);
      }
      const mb = (text.length / 1024 / 1024).toFixed(1);
      return [
        { name: `replay a ${mb} MB cast through the headless terminal`, value: replay.ms, unit: 'ms' },
        {
          name: `import the same ${mb} MB cast (${commands} commands)`,
          value: imported.ms,
          unit: 'ms',
          ratio: imported.ms / replay.ms,
          goal: 2,
          note: 'ratio to replaying the same bytes through the headless terminal alone',
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
