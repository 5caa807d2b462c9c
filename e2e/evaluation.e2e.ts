import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CLI, NO_CHROMIUM, ROOT, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

const DATA = join(ROOT, 'src-main', 'evaluation', 'fixtures', 'bench');
/** A judged.jsonl in the public evaluation script's layout, and nothing else. */
const PUBLIC_RUN = join(ROOT, 'src-main', 'evaluation', 'fixtures', 'public-run');

/** Opens the Evaluation panel on a run folder, as a user does; gives back its score table. */
async function readRun(page: Page, url: string, folder: string) {
  await page.goto(url);
  await page.getByRole('button', { name: 'Evaluation' }).click();
  await page.getByLabel('Run folder').fill(folder);
  await page.getByRole('button', { name: 'Read run' }).click();
  return page.getByRole('table', { name: 'Scores' });
}

describe.skipIf(NO_CHROMIUM !== '')(`reading an evaluation in the host UI${NO_CHROMIUM}`, () => {
  let out = '';
  const session = useStudioInBrowser(() => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-eval-e2e-'));
    out = join(dir, 'run');
    execFileSync(process.execPath, [CLI, 'eval', '--data', DATA, '--model', TEST_MODEL, '--out', out, '--max-tokens', '6'], { stdio: 'ignore' });
    return ['--workspace', join(dir, 'e.worldloom')];
  });

  it('shows scores per domain with a chart and shows a benchmark case beside its ground truth, outside the workspace', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    const table = await readRun(page, session.studio.url, out);
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    // No judge was given: the rule-based columns are filled, the judge's are not.
    const terminal = table.getByRole('row').filter({ hasText: 'Terminal' });
    expect(await terminal.getByRole('cell').nth(1).textContent()).toBe('3');
    expect(await terminal.getByRole('cell').nth(9).textContent()).toBe('—');
    expect(await terminal.getByRole('cell').nth(11).textContent()).toMatch(/^\d\.\d{3}$/);
    expect(await page.getByRole('img', { name: 'Scores per domain' }).count()).toBe(1);
    await page.getByRole('list', { name: 'Evaluated cases' }).getByRole('button', { name: 'terminal/t2/1' }).click();
    // The case shows beside its ground truth, as benchmark data that stays out of the workspace.
    const benchmarkCase = page.getByRole('region', { name: 'Benchmark case terminal/t2/1' });
    await expect.poll(() => benchmarkCase.getByTestId('benchmark-action').textContent()).toBe('cat nope');
    expect(await benchmarkCase.getByText('benchmark data · not in the workspace').count()).toBe(1);
    await expect.poll(() => benchmarkCase.getByTestId('observation-diff').count()).toBe(1);
    expect(await page.getByText('0 trajectories').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it("reads the public evaluation script's results and shows one of its cases", async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    const table = await readRun(page, session.studio.url, PUBLIC_RUN);
    await expect.poll(() => table.getByRole('row').count()).toBe(5);
    const terminal = table.getByRole('row').filter({ hasText: 'Terminal' });
    expect(await terminal.getByRole('cell').nth(9).textContent()).toBe('77.5');
    const overall = table.getByRole('row').filter({ hasText: 'Overall' });
    expect(await overall.getByRole('cell').nth(9).textContent()).toBe('60.0');
    const cases = page.getByRole('list', { name: 'Evaluated cases' });
    // A judged line without "failed": 0 counts as failed, as in the public scoring, and says why.
    expect(await cases.getByRole('listitem').filter({ hasText: 'search/s1/1' }).textContent()).toContain('counted as failed');
    await cases.getByRole('button', { name: 'terminal/t1/2' }).click();
    const benchmarkCase = page.getByRole('region', { name: 'Benchmark case terminal/t1/2' });
    await expect.poll(() => benchmarkCase.getByTestId('benchmark-predicted').textContent()).toBe('hi');
    expect(await benchmarkCase.getByTestId('benchmark-real').textContent()).toBe('hello');
    expect(await page.getByText('0 trajectories').count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
