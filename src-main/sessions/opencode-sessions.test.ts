// opencode sessions found on disk by the session search: a session of its JSON storage (a file
// per session, message and part) listed by its session file, told from all its files; one that
// opencode 1.2 also copied into opencode.db listed once, from the database.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { opencodeSessions, writeOpencodeDatabase, writeOpencodeStorage } from '../testing/opencode-sessions';
import { findSessions } from './find-sessions';

const MAIN = 'ses_5f1a2b3c4d5eAAAAAAAAAAAAAA';
const CHILD = 'ses_5f1a2b3c4d5eCCCCCCCCCCCCCC';

describe('opencode sessions on disk', () => {
  it('lists each storage session by its file, with project, date, size and tool calls; a session also in the database is listed once, from there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-opencode-find-'));
    const data = join(dir, 'xdg', 'opencode');
    const home = { home: join(dir, 'home'), platform: 'linux', env: { XDG_DATA_HOME: join(dir, 'xdg') } };
    const files = writeOpencodeStorage(join(data, 'storage'), opencodeSessions());
    const found = await findSessions(home, { formats: ['opencode', 'opencode-db'] });
    expect(found.sessions).toHaveLength(2);
    const main = found.sessions.find((s) => s.path === files[0]);
    expect(main).toMatchObject({ agent: 'opencode', format: 'opencode', project: '/home/ana/shop', modified: new Date(1_760_000_060_000).toISOString(), toolCalls: 4 });
    expect(found.sessions.find((s) => s.path === files[1])).toMatchObject({ toolCalls: 1 });
    // Its size is all its files', not the session file's alone.
    expect(main!.bytes).toBeGreaterThan(statSync(files[0]!).size * 5);

    writeOpencodeDatabase(join(data, 'opencode.db'), opencodeSessions());
    const again = await findSessions(home, { formats: ['opencode', 'opencode-db'] });
    expect(again.sessions.map((s) => s.path).sort()).toEqual([`${join(data, 'opencode.db')}#${MAIN}`, `${join(data, 'opencode.db')}#${CHILD}`]);
    expect(again.sessions.find((s) => s.path.endsWith(MAIN))).toMatchObject({ agent: 'opencode', format: 'opencode-db', project: '/home/ana/shop', toolCalls: 4 });
    expect(again.folders.map((f) => [f.format, f.path, f.exists, f.sessions])).toEqual([
      ['opencode', join(data, 'storage'), true, 0],
      ['opencode-db', data, true, 2],
    ]);
    expect(again.problems).toEqual([]);
  });
});
