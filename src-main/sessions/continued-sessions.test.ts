// Which files of an import another of them carries on: asked of the format that reads them
// (Claude Code's resumed sessions), never of a file alone or one that cannot be read.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeResumedProject } from '../testing/claude-code-sessions';
import { planImport } from './continued-sessions';

describe('conversations carried on elsewhere in an import', async () => {
  it('the files of a format that says so are compared; a file imported alone is read whole', async () => {
    const p = writeResumedProject();
    expect(await planImport([p.first])).toEqual({ formats: new Map(), elsewhere: new Map() });
    const plan = await planImport([p.first, p.resumed, join(p.folder, 'gone.jsonl'), p.other]);
    expect(plan.elsewhere).toEqual(new Map([[p.first, { file: p.resumed, copy: false }]]));
    // Each file's format is told once, for its import too; a file that cannot be read is left to its own import to say.
    expect(plan.formats).toEqual(new Map([p.first, p.resumed, p.other].map((f) => [f, 'claude-code'])));
  });
});
