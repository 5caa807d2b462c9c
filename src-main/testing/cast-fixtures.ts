// Generated asciinema casts of any size, written line by line to disk (never held whole), for
// the bounds tests and the asciinema bench: a bash session without recorded keystrokes —
// coloured prompts, commands, long listings and a carriage-return progress bar.
import { closeSync, openSync, writeSync } from 'node:fs';

export interface GeneratedCast {
  bytes: number;
  /** Commands typed at the prompt: the turns an import should find. */
  commands: number;
}

/**
 * Writes a cast of at least `targetBytes` to `path`. `listingRows` sets how much output each
 * listing command prints (a larger value makes longer observations).
 */
export function writeGeneratedCast(path: string, targetBytes: number, listingRows = 40): GeneratedCast {
  const fd = openSync(path, 'w');
  let bytes = 0;
  let t = 0;
  let commands = 0;
  let chunk: string[] = [];
  const out = (line: string) => {
    chunk.push(line);
    bytes += Buffer.byteLength(line) + 1;
    if (chunk.length >= 1000) flush();
  };
  const flush = () => {
    if (chunk.length) writeSync(fd, chunk.join('\n') + '\n');
    chunk = [];
  };
  const push = (dt: number, data: string) => {
    t += dt;
    out(JSON.stringify([Number(t.toFixed(3)), 'o', data]));
  };
  const prompt = (dir: string) => `\x1b]0;dev@box: ${dir}\x07\x1b[01;32mdev@box\x1b[00m:\x1b[01;34m${dir}\x1b[00m$ `;
  try {
    out(JSON.stringify({ version: 2, width: 120, height: 40, env: { SHELL: '/bin/bash', TERM: 'xterm-256color' } }));
    push(0.05, prompt('~/proj'));
    while (bytes < targetBytes) {
      const n = commands++;
      const dir = `~/proj/m${n % 17}`;
      switch (n % 3) {
        case 0: {
          push(0.8, `ls -l src/m${n}\r\n`);
          const rows = Array.from({ length: listingRows }, (_, i) => `-rw-r--r-- 1 dev dev ${(i * 7919 + n) % 100000} Jun 10 09:12 \x1b[01;34mfile-${n}-${i}.ts\x1b[0m`);
          // A long listing arrives in pieces, as a pipe delivers it.
          for (let i = 0; i < rows.length; i += 40) push(0.02, rows.slice(i, i + 40).join('\r\n') + '\r\n');
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
    flush();
  } finally {
    closeSync(fd);
  }
  return { bytes, commands };
}
