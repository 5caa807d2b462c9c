// `<file>#<session id>` names one session inside a file of many; a file whose own name has a `#` is still that file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importPathSource, sessionPath, splitSessionPath } from './session-path';

describe('session paths', () => {
  it('splits a session off an existing file, and never a file that exists as named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-session-path-'));
    const db = join(dir, 'sessions.db');
    writeFileSync(db, 'x');
    const hashed = join(dir, 'notes#1.jsonl');
    writeFileSync(hashed, '{}\n');
    expect(splitSessionPath(sessionPath(db, '20251108_1'))).toEqual({ file: db, session: '20251108_1' });
    expect(splitSessionPath(hashed)).toEqual({ file: hashed });
    expect(splitSessionPath(join(dir, 'gone.db#1'))).toEqual({ file: join(dir, 'gone.db#1') });
    const { source, head } = importPathSource(`${db}#20251108_1`);
    expect([source.name, source.session, source.path?.(), head]).toEqual(['sessions.db#20251108_1', '20251108_1', db, 'x']);
  });
});
