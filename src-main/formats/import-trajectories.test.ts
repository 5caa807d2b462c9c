import { spawn } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../store/workspace-store';
import { generatedAwb } from '../testing/awb-fixtures';
import { STREAM_FROM_BYTES } from './import-trajectories';

const child = fileURLToPath(new URL('../testing/import-crash-child.ts', import.meta.url));

describe('import after a crash', () => {
  // In-thread (importTrajectories), and as `worldloom import` runs it (a job; a file this large
  // is then read in a worker while the job writes).
  it.each(['in-thread', 'job'])('leaves a sound workspace holding every committed trajectory, each complete, when killed (%s)', async (how) => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-crash-'));
    const file = join(dir, 'terminal_test.jsonl');
    const turns = 5;
    writeFileSync(file, generatedAwb(3000, turns).join('\n') + '\n');
    if (how === 'job') expect(statSync(file).size).toBeGreaterThanOrEqual(STREAM_FROM_BYTES);
    const workspace = join(dir, 'w.worldloom');

    const committed = await new Promise<number>((resolve, reject) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', child, workspace, file, how], { stdio: ['ignore', 'pipe', 'inherit'] });
      let last = 0;
      let buffered = '';
      proc.stdout.on('data', (data: Buffer) => {
        buffered += data.toString();
        for (const m of buffered.matchAll(/committed (\d+)/g)) last = Number(m[1]);
        if (buffered.includes('finished')) reject(new Error('the import finished before it could be interrupted'));
        if (last >= 200) proc.kill('SIGKILL');
      });
      proc.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(last) : reject(new Error(`child exited without being killed`))));
    });

    const store = WorkspaceStore.open(workspace);
    expect(store.integrityCheck()).toBe('ok');
    const list = store.listTrajectories();
    expect(list.length).toBeGreaterThanOrEqual(committed);
    expect(list.length).toBeLessThan(3000);
    for (const t of list) expect(t.steps).toBe(turns);
    store.close();
  });
});
