import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeVllm, type FakeServer } from '../src-main/testing/fake-vllm-server';
import { ENDLESS_MODEL, NO_CHROMIUM, ROOT, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

const DATA = join(ROOT, 'src-main', 'evaluation', 'fixtures', 'bench');

/** A page with the evaluation panel open on the bench fixtures, writing to a fresh output folder. */
async function openEvaluationForm(session: ReturnType<typeof useStudioInBrowser>) {
  const page = await session.browser.newPage();
  const errors = watchPageErrors(page);
  await page.goto(session.studio.url);
  await page.getByRole('button', { name: 'Evaluation' }).click();
  const form = page.getByRole('form', { name: 'Run an evaluation' });
  await expect.poll(() => form.getByTestId('eval-model').textContent()).not.toContain('none loaded');
  await form.getByLabel('Data folder').fill(DATA);
  await form.getByLabel('Output folder').fill(join(mkdtempSync(join(tmpdir(), 'wl-eval-panel-out-')), 'run'));
  return { page, errors, form };
}

describe.skipIf(NO_CHROMIUM !== '')(`running an evaluation from the panel${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => ['--workspace', join(mkdtempSync(join(tmpdir(), 'wl-eval-panel-')), 'e.worldloom'), '--model', TEST_MODEL]);
  // A judge server that answers in prose, never in the rubric's shape: every judgement fails, with a reason.
  let judge: FakeServer;
  beforeAll(async () => {
    judge = await startFakeVllm({ models: [{ id: 'judge', max_model_len: 131_072 }], reply: () => ({ reasoning: '', content: 'Looks fine to me.' }) });
  });
  afterAll(() => judge.close());

  it('starts a run with a judge, follows it to the end, and shows scores on axes and every failure with its reason', async () => {
    const { page, errors, form } = await openEvaluationForm(session);
    await form.getByLabel('Max new tokens').fill('6');
    // The loaded world model is never offered as a judge.
    expect(await form.getByLabel('Judge').locator('option').allTextContents()).toEqual(['none (rule-based metrics only)', 'a server (OpenAI-compatible)']);
    // This judge cannot grade: every judgement fails, and the panel must say why.
    await form.getByLabel('Judge').selectOption('openai');
    await form.getByLabel('Judge URL').fill(judge.url);
    await form.getByRole('button', { name: 'Start evaluation' }).click();
    await expect.poll(() => form.getByTestId('eval-run-end').textContent(), { timeout: 120_000 }).toContain('Done: 5 predicted');
    const table = page.getByRole('table', { name: 'Scores' });
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    const overall = table.getByRole('row').filter({ hasText: 'Overall' });
    expect(await overall.getByRole('cell').nth(3).textContent()).toBe('5');
    const reasons = page.getByRole('list', { name: 'Failure reasons' }).getByRole('listitem');
    await expect.poll(() => reasons.count()).toBeGreaterThan(0);
    for (const text of await reasons.allTextContents()) expect(text).toMatch(/^\d+ × \S.+: .+/);
    // The chart has an axis with ticks from 0 to 100 and a bar series per rubric dimension.
    const chart = page.getByRole('img', { name: 'Scores per domain' });
    expect(await chart.getByTestId('chart-tick').allTextContents()).toEqual(['0', '25', '50', '75', '100']);
    expect(await chart.getByText('score (normalized 0–100)').count()).toBe(1);
    for (const dimension of ['format', 'factuality', 'consistency', 'realism', 'quality', 'total_score']) expect(await chart.getByText(dimension, { exact: true }).count()).toBe(1);
    // Every failed case names its reason in the list.
    const failed = page.getByRole('list', { name: 'Evaluated cases' }).getByRole('listitem');
    for (const text of await failed.allTextContents()) expect(text).toMatch(/failed: \S[^:]*: .+/);
    expect(errors).toEqual([]);
  });

});

describe.skipIf(NO_CHROMIUM !== '')(`cancelling an evaluation from the panel${NO_CHROMIUM}`, () => {
  // A model that never ends its reply: the run is surely still predicting when Cancel is pressed
  // (tiny-chat may answer all five cases before the click lands).
  const session = useStudioInBrowser(() => ['--workspace', join(mkdtempSync(join(tmpdir(), 'wl-eval-cancel-')), 'e.worldloom'), '--model', ENDLESS_MODEL]);

  it('cancels a run and resumes it to the end', async () => {
    const { page, errors, form } = await openEvaluationForm(session);
    // One case at a time with a long budget: the run is still predicting when Cancel is pressed.
    await form.getByLabel('At once').fill('1');
    await form.getByLabel('Max new tokens').fill('400');
    await form.getByRole('button', { name: 'Start evaluation' }).click();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => form.getByTestId('eval-run-end').textContent(), { timeout: 120_000 }).toMatch(/^Stopped: \d predicted this time/);
    await form.getByRole('button', { name: 'Resume evaluation' }).click();
    await expect.poll(() => form.getByTestId('eval-run-end').textContent(), { timeout: 120_000 }).toMatch(/^Done: \d predicted, \d kept from before/);
    const end = (await form.getByTestId('eval-run-end').textContent())!;
    const [, predicted, kept] = /Done: (\d) predicted, (\d) kept/.exec(end)!;
    expect(Number(predicted) + Number(kept)).toBe(5);
    const table = page.getByRole('table', { name: 'Scores' });
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'Overall' }).getByRole('cell').nth(1).textContent()).toBe('5');
    expect(errors).toEqual([]);
  });
});
