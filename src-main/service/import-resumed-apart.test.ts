// A resumed Claude Code session and the one it resumed, imported into one workspace by separate
// imports (on different days): each step is still there once. The resumed session continues the
// earlier one's trajectory, or, imported first, holds the earlier one whole
// (../formats/claude-code/resumed-in-workspace.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportReport } from '../formats/import-trajectories';
import { dispatch } from './dispatch';
import { Studio } from './studio';
import { writeResumedProject } from '../testing/claude-code-sessions';

function studio() {
  const dir = mkdtempSync(join(tmpdir(), 'wl-resumed-apart-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  const s = new Studio({ door: 'host', resourcesDir: join(process.cwd(), 'resources') });
  s.openWorkspace(join(dir, 'a.worldloom'), 'create');
  return s;
}

async function importFiles(s: Studio, paths: string[], jobId?: string): Promise<ImportReport[]> {
  const result = await dispatch(s, 'import.files', { paths, format: 'auto', ...(jobId ? { jobId } : {}) });
  if (!result.ok) throw new Error(result.error.message);
  return result.value as ImportReport[];
}

/** Each trajectory's title and the actions on its path from the root, in the order the nodes were written. */
function trajectories(s: Studio): { title: string; steps: string[] }[] {
  const store = s.requireStore();
  return store
    .listTrajectories()
    .map((t) => ({ title: t.title, steps: store.getNodes(t.id).slice(1).map((n) => n.action) }))
    .sort((a, b) => a.title.localeCompare(b.title) || a.steps.length - b.steps.length);
}

const TITLE = 'List the files (Claude Code)';

describe('a resumed Claude Code session imported apart from the one it resumed', () => {
  it('continues the earlier trajectory with its new steps only, under its last step, and adds nothing when imported again', async () => {
    const p = writeResumedProject();
    const s = studio();
    const [first] = await importFiles(s, [p.first]);
    expect(first!.imported).toBe(1);
    const t = first!.trajectoryIds[0]!;
    const lastBefore = s.requireStore().getNodes(t).at(-1)!;

    const [resumed] = await importFiles(s, [p.resumed]);
    expect(resumed).toMatchObject({ imported: 0, alreadyPresent: 0, problems: [], continued: [{ trajectoryId: t, title: TITLE, steps: 1 }] });
    expect(resumed!.notes).toEqual([`continued trajectory ${TITLE} with 1 step from s-resumed.jsonl`]);
    expect(trajectories(s)).toEqual([{ title: TITLE, steps: ['ls', 'python main.py'] }]);
    const added = s.requireStore().getNodes(t).at(-1)!;
    expect(added).toMatchObject({ action: 'python main.py', parentId: lastBefore.id, depth: lastBefore.depth + 1, origin: 'real' });
    expect(added.provenance).toMatchObject({ source: { file: 's-resumed.jsonl' }, tool: { callId: 'toolu_b' } });

    const again = await importFiles(s, [p.resumed]);
    expect(again[0]).toMatchObject({ imported: 0, alreadyPresent: 1 });
    expect(again[0]!.continued).toBeUndefined();
    expect(again[0]!.notes).toEqual([`already present: every step of it continues trajectory ${TITLE}`]);
    // The earlier session again is its own trajectory, already here.
    expect((await importFiles(s, [p.first]))[0]).toMatchObject({ imported: 0, alreadyPresent: 1 });
    expect(trajectories(s)).toEqual([{ title: TITLE, steps: ['ls', 'python main.py'] }]);
    s.close();
  });

  it('imported first, holds the earlier session whole: the earlier one imported later is said to be there', async () => {
    const p = writeResumedProject();
    const s = studio();
    const [resumed] = await importFiles(s, [p.resumed]);
    expect(resumed!.imported).toBe(1);
    // The resumed session says how many of its first steps it copied.
    const root = s.requireStore().getNodes(resumed!.trajectoryIds[0]!)[0]!;
    expect(root.provenance.claudeCode).toMatchObject({ resumedFrom: ['s-first'], copiedSteps: { 's-first': 1 } });

    const [first] = await importFiles(s, [p.first]);
    expect(first).toMatchObject({ imported: 0, alreadyPresent: 1, problems: [], trajectoryIds: [] });
    expect(first!.notes).toEqual([`already present: its conversation continues in trajectory ${TITLE}, which holds every step of it`]);
    expect(trajectories(s)).toEqual([{ title: TITLE, steps: ['ls', 'python main.py'] }]);
    // An unrelated session of the project is still imported.
    expect((await importFiles(s, [p.other]))[0]!.imported).toBe(1);
    s.close();
  });

  it('where the earlier trajectory no longer holds the copied steps (deleted since), imports the resumed session whole and says why', async () => {
    const p = writeResumedProject();
    const s = studio();
    const [first] = await importFiles(s, [p.first]);
    const store = s.requireStore();
    const ls = store.getNodes(first!.trajectoryIds[0]!)[1]!;
    store.deleteNodes([ls.id], 'delete of ls');

    const [resumed] = await importFiles(s, [p.resumed]);
    expect(resumed!.imported).toBe(1);
    expect(resumed!.continued).toBeUndefined();
    expect(resumed!.notes).toEqual([expect.stringMatching(new RegExp(`^imported whole: it resumed the session of trajectory ${TITLE.replace(/[()]/g, '\\$&')} and copied its first 1 step, but step 1 is no longer on that trajectory's path`))]);
    expect(trajectories(s)).toEqual([
      { title: TITLE, steps: [] },
      { title: TITLE, steps: ['ls', 'python main.py'] },
    ]);
    s.close();
  });

  it('the earlier session imported alone, then the whole project together: the resumed one continues its trajectory', async () => {
    const p = writeResumedProject();
    const s = studio();
    const t = (await importFiles(s, [p.first]))[0]!.trajectoryIds[0]!;
    const reports = await importFiles(s, [p.first, p.resumed, p.other]);
    expect(reports.map((r) => [r.imported, r.alreadyPresent, r.continued?.map((c) => [c.trajectoryId, c.steps]), r.problems])).toEqual([
      [0, 0, undefined, []],
      [0, 0, [[t, 1]], []],
      [1, 0, undefined, []],
    ]);
    expect(trajectories(s)).toEqual([
      { title: 'Claude Code 1.0.34 · s-other', steps: ['git status'] },
      { title: TITLE, steps: ['ls', 'python main.py'] },
    ]);
    s.close();
  });

  it('cancelled after it continued a trajectory, leaves that trajectory as it was', async () => {
    const p = writeResumedProject();
    const s = studio();
    const [first] = await importFiles(s, [p.first]);
    const t = first!.trajectoryIds[0]!;
    const before = s.requireStore().getNodes(t);
    // The second file of the import starts after the first continued the trajectory: cancel then.
    s.onEvent((event, payload) => {
      const progress = payload as { jobId?: string; done?: number; total?: number | null };
      if (event === 'job.progress' && progress.jobId === 'cancel-me' && progress.done === 1 && progress.total === 2) s.jobs.cancel('cancel-me');
    });
    const result = await dispatch(s, 'import.files', { paths: [p.resumed, p.other], format: 'auto', jobId: 'cancel-me' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toMatch(/cancelled/);
    expect(s.requireStore().getNodes(t)).toEqual(before);
    expect(trajectories(s)).toEqual([{ title: TITLE, steps: ['ls'] }]);
    // Nothing of it stays behind: imported again, it continues the trajectory as if for the first time.
    expect((await importFiles(s, [p.resumed]))[0]!.continued).toEqual([{ trajectoryId: t, title: TITLE, steps: 1 }]);
    s.close();
  });
});
