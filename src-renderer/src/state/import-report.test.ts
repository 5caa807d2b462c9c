import { describe, expect, it } from 'vitest';
import { importReportNotice } from './import-report';

const base = { file: 'trajectory.json', format: 'atif', imported: 1, alreadyPresent: 0, problems: [], skipped: [], trajectoryIds: ['t1'] };

describe('the import report notice', () => {
  it('says what was left out on purpose and why, beside the problems', () => {
    const notice = importReportNotice({
      ...base,
      problems: [{ line: 12, reason: 'not valid JSON' }],
      skipped: [{ line: null, what: 'step 9 (the harness call mark_task_complete)', reason: 'nothing ran in the environment' }],
    });
    expect(notice).toEqual({
      kind: 'info',
      title: 'trajectory.json: 1 imported, 1 problem, 1 part left out on purpose (atif)',
      lines: ['Problem, line 12: not valid JSON', 'Left out, step 9 (the harness call mark_task_complete): nothing ran in the environment'],
    });
  });

  it('is an error when nothing came in because of problems, and shortens long lists', () => {
    const problems = Array.from({ length: 25 }, (_, i) => ({ line: i + 1, reason: 'bad' }));
    const notice = importReportNotice({ ...base, imported: 0, trajectoryIds: [], problems });
    expect(notice.kind).toBe('error');
    expect(notice.lines).toHaveLength(21);
    expect(notice.lines[20]).toBe('…and 5 more problems (worldloom import lists them all)');
  });

  it("says which trajectory a resumed session's steps continued, first", () => {
    const notice = importReportNotice({
      ...base,
      file: 's-resumed.jsonl',
      format: 'claude-code',
      imported: 0,
      trajectoryIds: [],
      continued: [{ trajectoryId: 't0', title: 'List the files (Claude Code)', steps: 1 }],
      notes: ['continued trajectory List the files (Claude Code) with 1 step from s-resumed.jsonl'],
      problems: [{ line: 3, reason: 'not valid JSON' }],
    });
    expect(notice).toEqual({
      kind: 'info',
      title: 's-resumed.jsonl: 0 imported, 1 trajectory continued, 1 problem (claude-code)',
      lines: ['continued trajectory List the files (Claude Code) with 1 step from s-resumed.jsonl', 'Problem, line 3: not valid JSON'],
    });
  });
});
