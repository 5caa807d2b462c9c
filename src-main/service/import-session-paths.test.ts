// import.files takes what sessions.list lists: a path naming one session inside a file of many
// (`sessions.db#<id>`) imports that session only; the file's own path imports all of them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportReport } from '../formats/import-trajectories';
import { GOOSE_MESSAGES, writeGooseDatabase } from '../testing/goose-sessions';
import { dispatch } from './dispatch';
import { Studio } from './studio';

describe('import.files with a session inside a file', () => {
  it('imports the one session a <file>#<id> path names, and every session for the file itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-session-paths-'));
    process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
    const db = join(dir, 'goose', 'sessions.db');
    writeGooseDatabase(db, [
      { id: '20251108_1', name: 'One', workingDir: '/w/one', updatedAt: '2025-11-08 10:00:00', messages: GOOSE_MESSAGES },
      { id: '20251108_2', name: 'Two', workingDir: '/w/two', updatedAt: '2025-11-08 11:00:00', messages: GOOSE_MESSAGES.slice(0, 3) },
    ]);
    const s = new Studio({ door: 'host', resourcesDir: join(process.cwd(), 'resources') });
    s.openWorkspace(join(dir, 'a.worldloom'), 'create');
    const importFiles = async (paths: string[]) => {
      const result = await dispatch(s, 'import.files', { paths, format: 'auto' });
      if (!result.ok) throw new Error(result.error.message);
      return result.value as ImportReport[];
    };
    const [one] = await importFiles([`${db}#20251108_2`]);
    expect(one).toMatchObject({ file: 'sessions.db#20251108_2', format: 'goose-db', imported: 1 });
    expect(s.requireStore().listTrajectories().map((t) => t.title)).toEqual(['goose · Two']);
    const [all] = await importFiles([db]);
    expect(all).toMatchObject({ file: 'sessions.db', imported: 1, alreadyPresent: 1 });
  });
});
