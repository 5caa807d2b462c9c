import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN } from '../../testing/cli-bin';

const bin = CLI_BIN;
const run = (...args: string[]) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

describe('worldloom import --prompt', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wl-cli-import-'));
  // A prompt seen once cannot be learned from repetition: the pattern given cuts the session.
  const cast = join(dir, 'once.cast');
  writeFileSync(
    cast,
    [
      JSON.stringify({ version: 2, width: 60, height: 10 }),
      JSON.stringify([0.1, 'o', '[prod] >>> ']),
      JSON.stringify([1.5, 'o', 'deploy --dry-run\r\nwould deploy 3 services\r\n']),
    ].join('\n') + '\n',
  );

  it('splits a cast at the prompt the user names', () => {
    const ws = join(dir, 'w.worldloom');
    const summary = JSON.parse(run('import', cast, '--workspace', ws, '--prompt', '\\[prod\\] >>>'));
    expect(summary).toMatchObject({ format: 'asciinema', imported: 1, problems: 0 });
    const out = join(dir, 'out.jsonl');
    run('export', '--workspace', ws, '--format', 'jsonl', '--out', out);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('"action":"deploy --dry-run"');
    expect(text).toContain('"observation":"would deploy 3 services"');
  });

  it('takes the prompt as the screen shows it, trailing space and brackets as plain text', () => {
    const summary = JSON.parse(run('import', cast, '--workspace', join(dir, 'literal.worldloom'), '--prompt', '[prod] >>> '));
    expect(summary).toMatchObject({ format: 'asciinema', imported: 1, problems: 0 });
  });

  it('says when the prompt given matches no line, and which prompt would', () => {
    const bad = spawnSync(process.execPath, [bin, 'import', cast, '--workspace', join(dir, 'b.worldloom'), '--prompt', '('], { encoding: 'utf8' });
    expect(bad.status).toBe(0);
    expect(JSON.parse(bad.stdout)).toMatchObject({ problems: 1 });
    expect(bad.stderr).toMatch(/--prompt "\(" matched no line of the screen text/);
    expect(bad.stderr).toContain('"[prod] >>>"');
  });
});
