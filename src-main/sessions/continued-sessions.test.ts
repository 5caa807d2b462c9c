// Which files of an import another of them carries on: asked of the format that reads them
// (Claude Code's resumed sessions), never of a file alone or one that cannot be read.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeResumedProject } from '../testing/claude-code-sessions';
import { conversationsElsewhere } from './continued-sessions';

describe('conversations carried on elsewhere in an import', async () => {
  it('only files of a format that says so are compared, and a file imported alone is read whole', async () => {
    const p = writeResumedProject();
    expect(await conversationsElsewhere([p.first])).toEqual(new Map());
    expect(await conversationsElsewhere([p.first, p.resumed, join(p.folder, 'gone.jsonl')])).toEqual(new Map([[p.first, { file: p.resumed, copy: false }]]));
  });
});
