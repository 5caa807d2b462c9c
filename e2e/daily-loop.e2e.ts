// The daily loop's rough edges (issue 34), as a curator meets them in Chromium against
// `worldloom serve`: perturbation modes, samples, the model panel, drafts, reloads, plurals.
import { describe, expect, it } from 'vitest';
import { importedWorkspace, NO_CHROMIUM, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

describe.skipIf(NO_CHROMIUM !== '')(`the daily loop in the host UI${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => ['--workspace', importedWorkspace('daily-loop'), '--model', TEST_MODEL]);

  it('instruction mode asks the model, transform mode edits the observation: two different siblings that say which they are', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /term-0001/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    const step = tree.getByRole('treeitem').filter({ hasText: 'cat notes.txt' });
    await step.first().click();
    await page.getByText('Perturb this step').click();
    await page.getByRole('list', { name: 'Perturbation kinds' }).getByLabel(/disk full/i).check();
    await page.getByRole('button', { name: 'Perturb', exact: true }).click();
    await expect.poll(() => step.count(), { timeout: 60_000 }).toBe(2);
    await expect.poll(() => page.getByTestId('node-perturbation').textContent()).toMatch(/observation was transformed/);
    const transformed = await page.getByTestId('node-id').textContent();

    await step.first().click();
    await page.getByText('Perturb this step').click();
    await page.getByLabel('instruct the model').check();
    await page.getByRole('list', { name: 'Perturbation kinds' }).getByLabel(/disk full/i).check();
    await page.getByRole('button', { name: 'Perturb', exact: true }).click();
    // The instructed sample is the model's own prediction: another node, another text, and its row says how it was made.
    await expect.poll(() => step.count(), { timeout: 60_000 }).toBe(3);
    await expect.poll(() => page.getByTestId('node-perturbation').textContent()).toMatch(/instructed to play it out/);
    expect(await page.getByTestId('node-id').textContent()).not.toBe(transformed);
    await expect.poll(async () => (await step.getByTestId('variant-mark').allTextContents()).map((l) => l.replace(/ · seed \d+$/, '')).sort()).toEqual([
      'terminal.disk-full',
      'terminal.disk-full (instructed)',
    ]);
    expect(errors).toEqual([]);
  });
});
