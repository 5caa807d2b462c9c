// Several real processes on one workspace: none loses a write, a lock held too long names
// its holder, and a workspace this user may not write still opens for reading.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from './workspace-store';

const child = fileURLToPath(new URL('./concurrent-writer-child.ts', import.meta.url));
const asRoot = process.getuid?.() === 0;

/** Runs the child (as nobody when `asNobody`), resolving with its stdout once `until` appears or it exits. */
function runChild(args: string[], opts: { until?: string; asNobody?: boolean } = {}): { output: Promise<string>; exited: Promise<number | null> } {
  const command = opts.asNobody ? ['/usr/bin/setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath] : [process.execPath];
  const proc = spawn(command[0]!, [...command.slice(1), '--import', 'tsx', child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const output = new Promise<string>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (opts.until && out.includes(opts.until)) resolve(out);
    });
    void exited.then((code) => (code === 0 ? resolve(out) : reject(new Error(`child exited with ${code}: ${err}`))));
  });
  return { output, exited };
}

function workspaceWithOneTrajectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wl-concurrent-'));
  const path = join(dir, 'w.worldloom');
  const store = WorkspaceStore.create(path);
  store.createTrajectory({ title: 'kept', domain: 'terminal', systemPrompt: '', initialState: '$' });
  store.close();
  return path;
}

describe('two processes on one workspace', () => {
  it('lose no writes: read-then-write transactions wait for each other', async () => {
    const path = workspaceWithOneTrajectory();
    const runs = [runChild([path, 'count', '150']), runChild([path, 'count', '150'])];
    expect(await Promise.all(runs.map((r) => r.exited))).toEqual([0, 0]);
    const store = WorkspaceStore.open(path);
    expect(store.getSetting('counter')).toBe('300');
    store.close();
  }, 60_000);

  it('name the process that holds the workspace when it holds it past the busy timeout', async () => {
    const path = workspaceWithOneTrajectory();
    const holder = runChild([path, 'hold', '4000'], { until: 'holding' });
    await holder.output;
    const store = WorkspaceStore.open(path, { busyTimeoutMs: 200 });
    try {
      expect(() => store.setSetting('mine', '1')).toThrow(/stayed busy for 0\.2 s: another process holds it: pid \d+ \(.*concurrent-writer-child\.ts .*hold.*\)\. Nothing was written\. Wait for that process to finish/);
    } finally {
      store.close();
    }
    expect(await holder.exited).toBe(0);
    const after = WorkspaceStore.open(path);
    after.setSetting('mine', '1');
    expect(after.getSetting('mine')).toBe('1');
    after.close();
  }, 60_000);
});

describe('a workspace this user may not write', () => {
  it('opens for reading, and a write says why it cannot be made', async () => {
    const path = workspaceWithOneTrajectory();
    const dir = join(path, '..');
    chmodSync(path, 0o444);
    chmodSync(dir, 0o555);
    try {
      // Root may write anything: the reader runs as nobody, for whom the file and folder are read-only.
      const text = await runChild([path, 'read'], { asNobody: asRoot }).output;
      const seen = JSON.parse(text) as { readOnly: boolean; info: { trajectories: number }; write: string };
      expect(seen.readOnly).toBe(true);
      expect(seen.info.trajectories).toBe(1);
      expect(seen.write).toMatch(/open for reading only.*Nothing was written; copy it to a folder you can write to/);
    } finally {
      chmodSync(dir, 0o755);
    }
  }, 60_000);
});
