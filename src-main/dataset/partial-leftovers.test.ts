// kill -9 during an export leaves its temporary file or folder; the next export to the same
// place removes what dead processes left, and never what a live one is still writing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../store/workspace-store';
import { exportFileAs } from '../testing/registered-export';
import { removeDeadPartials } from './partial-leftovers';

/** The id of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('export leftovers', () => {
  it('removes what a killed export left beside the destination, and keeps a live writer\'s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-partials-'));
    const dead = deadPid();
    const deadFile = join(dir, `.out.jsonl.pid${dead}-abcdef.partial`);
    const liveFile = join(dir, `.out.jsonl.pid${process.pid}-123456.partial`);
    const deadFolder = join(dir, `data.partial-pid${dead}-XyZ123`);
    writeFileSync(deadFile, 'half');
    writeFileSync(liveFile, 'being written');
    mkdirSync(deadFolder);
    writeFileSync(join(deadFolder, 'train.jsonl'), 'half');
    const store = WorkspaceStore.create(join(dir, 'w.worldloom'));
    store.createTrajectory({ title: 't', domain: 'terminal', systemPrompt: '', initialState: '$' });
    await exportFileAs(store, join(dir, 'out.jsonl'), 'jsonl');
    store.close();
    expect(existsSync(deadFile)).toBe(false);
    expect(existsSync(liveFile)).toBe(true);
    expect(existsSync(join(dir, 'out.jsonl'))).toBe(true);
    expect(removeDeadPartials(join(dir, 'data'))).toEqual([deadFolder]);
    expect(readdirSync(dir).sort()).toEqual(['.out.jsonl.pid' + process.pid + '-123456.partial', 'out.jsonl', 'w.worldloom'].sort());
  });
});
