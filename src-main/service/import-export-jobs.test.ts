// Import and export run as jobs of the one job runner: progress, cancel, and a cancel that
// leaves nothing behind (no file, no partial file, no trajectory of the import).
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobProgress } from '../common/contract/jobs';
import { dispatch } from './dispatch';
import { Studio } from './studio';

const RESOURCES = join(process.cwd(), 'resources');

/** A studio with `count` small trajectories, and the job.progress and change events it sends. */
function studioWith(count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'wl-jobs-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  const studio = new Studio({ door: 'host', resourcesDir: RESOURCES });
  studio.openWorkspace(join(dir, 'a.worldloom'), 'create');
  const store = studio.requireStore();
  store.transaction(() => {
    for (let i = 0; i < count; i++) {
      const root = store.createTrajectory({ title: `t${i}`, domain: 'terminal', systemPrompt: '', initialState: '$ ' }).nodes[0]!;
      store.addNode({ parentId: root.id, action: `echo ${i}`, observation: String(i), origin: 'real' });
    }
  });
  const progress: JobProgress[] = [];
  const added: { count: number; trajectoryIds: string[] }[] = [];
  studio.onEvent((event, payload) => {
    if (event === 'job.progress') progress.push(payload as JobProgress);
    if (event === 'trajectories.added') added.push(payload as { count: number; trajectoryIds: string[] });
  });
  return { studio, dir, progress, added };
}

describe('export and import as jobs', () => {
  it('exports with progress, and a cancelled export leaves no file and no partial file', async () => {
    const { studio, dir, progress } = studioWith(300);
    const done = await dispatch(studio, 'export.file', { path: join(dir, 'all.jsonl'), format: 'jsonl', jobId: 'e1' });
    expect(done).toMatchObject({ ok: true, value: { trajectories: 300 } });
    expect(progress.filter((p) => p.jobId === 'e1').at(-1)).toMatchObject({ kind: 'export', done: 300, total: 300, finished: true });

    const cancelled = dispatch(studio, 'export.file', { path: join(dir, 'cut.jsonl'), format: 'jsonl', jobId: 'e2' });
    expect(await dispatch(studio, 'job.cancel', { jobId: 'e2' })).toEqual({ ok: true, value: { cancelled: true } });
    expect(await cancelled).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(readdirSync(dir).filter((f) => f.includes('cut'))).toEqual([]);
    expect(existsSync(join(dir, 'all.jsonl'))).toBe(true);
    studio.close();
  });

  it('imports with progress and announces the new trajectories; a cancelled import keeps none of them', async () => {
    const source = studioWith(1200);
    const file = join(source.dir, 'many.jsonl');
    expect(await dispatch(source.studio, 'export.file', { path: file, format: 'jsonl' })).toMatchObject({ ok: true });
    source.studio.close();

    const { studio, progress, added } = studioWith(0);
    // Cancelled once its first batch of 500 has committed: that batch is taken back.
    let cancel: Promise<unknown> | undefined;
    studio.onEvent((event, payload) => {
      const p = payload as JobProgress;
      if (event === 'job.progress' && p.jobId === 'i1' && p.done >= 500 && !cancel) cancel = dispatch(studio, 'job.cancel', { jobId: 'i1' });
    });
    const cancelled = await dispatch(studio, 'import.files', { paths: [file], format: 'auto', jobId: 'i1' });
    expect(await cancel).toEqual({ ok: true, value: { cancelled: true } });
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(studio.requireStore().info()).toMatchObject({ trajectories: 0, steps: 0 });
    expect(added).toEqual([]);

    const imported = await dispatch(studio, 'import.files', { paths: [file], format: 'auto', jobId: 'i2' });
    expect(imported).toMatchObject({ ok: true, value: [{ imported: 1200 }] });
    expect(studio.requireStore().info()).toMatchObject({ trajectories: 1200, steps: 1200 });
    expect(added.map((a) => [a.count, a.trajectoryIds.length])).toEqual([[1200, 1000]]);
    expect(progress.filter((p) => p.jobId === 'i2').map((p) => p.kind)).toContain('import');
    expect(progress.filter((p) => p.jobId === 'i2').at(-1)).toMatchObject({ finished: true });
    // Search still finds what came in after the taken-back rows.
    expect(studio.requireStore().searchNodes({ text: 'echo' }).hits.length).toBeGreaterThan(0);
    studio.close();
  });
});
