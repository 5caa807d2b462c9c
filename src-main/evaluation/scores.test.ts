import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluatedLines, openRunFolder } from './result-files';
import { publicScoreBlock, twoDecimals, worldloomReport } from './score-report';
import { scoreRun } from './scores';

/** A folder holding only a judged.jsonl written in the public script's shape (by hand). */
const PUBLIC_RUN = fileURLToPath(new URL('./fixtures/public-run', import.meta.url));

describe('scoring a judged.jsonl written by the public evaluation script', () => {
  const summary = scoreRun(evaluatedLines(openRunFolder(PUBLIC_RUN, { repair: false })));

  it('groups by subtask, counts failed lines (and lines without `failed`), and leaves 0 scores out', () => {
    expect(Object.keys(summary.domains)).toEqual(['mcp', 'search', 'terminal']);
    // terminal: valid lines scored (4,4,4,4,5 → 4.2) and (5,–,3,4,4 → 4.0); one judge failure.
    expect(summary.domains.terminal).toEqual({
      display: 'Terminal',
      total: 3,
      valid: 2,
      failed: 1,
      format: 87.5, // mean(4, 5) = 4.5
      factuality: 75, // the missing score (0) is left out: mean(4) = 4
      consistency: 62.5, // mean(4, 3) = 3.5
      realism: 75,
      quality: 87.5,
      total_score: expect.closeTo(77.5, 10), // mean(4.2, 4.0) = 4.1
    });
    // mcp: one valid line of 2s; the other had no generation.
    expect(summary.domains.mcp).toMatchObject({ display: 'MCP', total: 2, valid: 1, failed: 1, format: 25, total_score: 25 });
    // search: its only line has scores but no `failed` field, so it counts as failed.
    expect(summary.domains.search).toEqual({
      display: 'Search',
      total: 1,
      valid: 0,
      failed: 1,
      format: null,
      factuality: null,
      consistency: null,
      realism: null,
      quality: null,
      total_score: null,
    });
  });

  it('pools every valid line for the overall score (micro), with the mean of domains beside it (macro)', () => {
    expect(summary.overall).toBeCloseTo(60, 10); // mean(4.2, 4.0, 2.0) = 3.4
    expect(summary.worldloom.macro_overall).toBeCloseTo(51.25, 10); // mean(77.5, 25); search has no score
    expect(summary).toMatchObject({ total_samples: 6, valid: 3, failed: 3 });
    expect(summary.worldloom).toMatchObject({ unjudged: 0, external_predictions: 6, models: [], judges: [], sampling: [] });
  });

  it('computes rule-based metrics from the records for lines another tool wrote', () => {
    // terminal: "a.txt" = "a.txt", "hi" ≠ "hello", the error message copied exactly.
    expect(summary.worldloom.domains.terminal!.rule_based.exactMatch).toBeCloseTo(2 / 3, 10);
    // mcp: the listing matches; the empty generation does not.
    expect(summary.worldloom.domains.mcp!.rule_based.exactMatch).toBe(0.5);
    expect(summary.worldloom.domains.mcp!.rule_based.jsonStructure).toBeDefined();
    expect(summary.worldloom.rule_based.exactMatch).toBeCloseTo(4 / 6, 10);
  });

  it('prints the block the public script prints for the same file', () => {
    // What `python eval.py score --predictions fixtures/public-run/judged.jsonl` prints.
    expect(publicScoreBlock(summary)).toBe(
      [
        '',
        '======================================================================',
        'AgentWorldBench Evaluation Results',
        '======================================================================',
        '',
        '--- MCP (1/2 valid, 1 failed) ---',
        '           format: 25.00',
        '       factuality: 25.00',
        '      consistency: 25.00',
        '          realism: 25.00',
        '          quality: 25.00',
        '      total_score: 25.00',
        '',
        '--- Search (0/1 valid, 1 failed) ---',
        '  No valid results.',
        '',
        '--- Terminal (2/3 valid, 1 failed) ---',
        '           format: 87.50',
        '       factuality: 75.00',
        '      consistency: 62.50',
        '          realism: 75.00',
        '          quality: 87.50',
        '      total_score: 77.50',
        '',
        '======================================================================',
        'Overall: 60.00',
        'Total samples: 6, Valid: 3, Failed: 3',
        '======================================================================',
      ].join('\n'),
    );
    const extras = worldloomReport(summary).split('\n');
    expect(extras).toContain("Mean of the domains' total_score (macro): 51.25");
    expect(extras.find((l) => l.startsWith('Terminal'))).toMatch(/^Terminal\s+3\s+0\.667\s+/);
  });

  it('writes two decimals as Python does, exact ties to even', () => {
    expect([0.125, 0.375, 0.015, 1.005, 62.5, 2.675, 33.375].map(twoDecimals)).toEqual(['0.12', '0.38', '0.01', '1.00', '62.50', '2.67', '33.38']);
  });
});
