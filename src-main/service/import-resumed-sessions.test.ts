// A project's Claude Code sessions imported together (the sessions panel's "import all of a
// project's", `worldloom sessions --import`: one import.files call) give each step once, where
// a resumed session's file opens with a copy of the conversation it resumed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportReport } from '../formats/import-trajectories';
import { dispatch } from './dispatch';
import { Studio } from './studio';
import { writeResumedProject } from '../testing/claude-code-sessions';

function studio() {
  const dir = mkdtempSync(join(tmpdir(), 'wl-resumed-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  const s = new Studio({ door: 'host', resourcesDir: join(process.cwd(), 'resources') });
  s.openWorkspace(join(dir, 'a.worldloom'), 'create');
  return s;
}

async function importFiles(s: Studio, paths: string[]): Promise<ImportReport[]> {
  const result = await dispatch(s, 'import.files', { paths, format: 'auto' });
  if (!result.ok) throw new Error(result.error.message);
  return result.value as ImportReport[];
}

/** Every step in the workspace, by trajectory: the action of each node below the root. */
function stepsIn(s: Studio): string[][] {
  const store = s.requireStore();
  return store
    .listTrajectories()
    .map((t) => store.getNodes(t.id).slice(1).map((n) => n.action))
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('several sessions of a project imported together', () => {
  it('the resumed session is imported whole and the one it resumed is said to go on there: each step once', async () => {
    const p = writeResumedProject();
    const s = studio();
    const reports = await importFiles(s, [p.first, p.resumed, p.other]);
    expect(reports.map((r) => [r.imported, r.problems])).toEqual([
      [0, []],
      [1, []],
      [1, []],
    ]);
    expect(reports[0]!.skipped.at(-1)).toMatchObject({ what: "the session's own conversation (1 tool call)", reason: expect.stringContaining(`continued in ${p.resumed}`) });
    expect(stepsIn(s)).toEqual([['git status'], ['ls', 'python main.py']]);
    // Importing the project again adds nothing: what came in is recognised.
    const again = await importFiles(s, [p.first, p.resumed, p.other]);
    expect(again.map((r) => [r.imported, r.alreadyPresent])).toEqual([
      [0, 0],
      [0, 1],
      [0, 1],
    ]);
    expect(stepsIn(s)).toHaveLength(2);
    s.close();
  });
});
