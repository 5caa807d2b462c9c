// The sandbox's limits line, run by bash as the sandbox runs it (no bubblewrap needed): a file
// may grow to the promised size and not one block beyond. bash's `ulimit -f` counts KiB, so a
// line written for 512-byte blocks allowed twice the promise.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { limitsPrefix } from './bubblewrap';

describe('sandbox limits line', () => {
  it('stops a file at the file-size limit, in bytes as promised', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-limits-'));
    const file = join(dir, 'big');
    const maxFileBytes = 1024 * 1024;
    const line = limitsPrefix({ maxProcesses: 4096, maxMemoryBytes: 2 * 1024 ** 3, maxFileBytes });
    const run = spawnSync('bash', ['-c', line, 'bash', 'sh', '-c', `head -c ${3 * maxFileBytes} /dev/zero > ${file}`], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(statSync(file).size).toBe(maxFileBytes);
  });
});
