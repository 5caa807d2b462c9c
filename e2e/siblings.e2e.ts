import { describe, expect, it } from 'vitest';
import { importedWorkspace, NO_CHROMIUM, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

describe.skipIf(NO_CHROMIUM !== '')(`the samples of one action side by side in the host UI${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => ['--workspace', importedWorkspace('siblings'), '--model', TEST_MODEL]);

  it('tells four samples apart, shows their agreement on the parent, shows them beside the real one and picks the best', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent()).toMatch(/Model: .* · cpu/);
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /term-0001/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await tree.getByRole('treeitem').filter({ has: page.locator('.tree-text', { hasText: /^ls$/ }) }).click();

    // Four samples of the action the real step took from the same state.
    const form = page.getByRole('form', { name: 'Simulate an action' });
    await form.getByLabel('Action').fill('cat notes.txt');
    await form.getByLabel('Samples').fill('4');
    await form.getByLabel('Max tokens').fill('12');
    await form.getByRole('button', { name: 'Simulate ×4' }).click();
    const samples = tree.getByRole('treeitem').filter({ has: page.getByTestId('sibling-label') });
    await expect.poll(() => samples.count(), { timeout: 60_000 }).toBe(4);
    // Rows are told apart: sample number and seed, never four identical lines.
    const marks = await samples.getByTestId('sibling-label').allTextContents();
    expect(new Set(marks).size).toBe(4);
    for (const mark of marks) expect(mark).toMatch(/^#[1-4]\/4 · seed \d+$/);

    // The parent row carries how much its samples agree; the badge shows them side by side.
    const badge = tree.getByTestId('agreement-badge');
    await expect.poll(() => badge.count()).toBe(1);
    expect(await badge.textContent()).toMatch(/^≈\d+%$/);
    await badge.click();
    const view = page.getByRole('dialog', { name: 'Samples side by side' });
    await view.waitFor();
    const actionSamples = view.getByRole('region', { name: 'Samples of cat notes.txt' });
    expect(await actionSamples.getByTestId('sibling-sample').count()).toBe(4);
    expect(await actionSamples.getByLabel('Real observation', { exact: true }).count()).toBe(1);
    expect(await actionSamples.getByRole('table', { name: 'Pairwise agreement' }).getByRole('row').count()).toBe(5);
    expect(await actionSamples.getByTestId('action-agreement').textContent()).toMatch(/^agree with each other \d+%$/);
    await actionSamples.getByTestId('consensus-observation').waitFor();
    // A diff of any two: here the real observation against a sample, in Monaco.
    await actionSamples.locator('.monaco-diff-editor').waitFor({ timeout: 30_000 });

    // The curator picks sample 2 as preferred; picking another moves the mark.
    await actionSamples.getByLabel('Sample 2', { exact: true }).getByRole('button', { name: 'Prefer' }).click();
    await expect.poll(() => actionSamples.getByLabel('Sample 2', { exact: true }).getByRole('button', { name: '★ Preferred' }).getAttribute('aria-pressed')).toBe('true');
    await actionSamples.getByLabel('Sample 3', { exact: true }).getByRole('button', { name: 'Prefer' }).click();
    await expect.poll(() => actionSamples.getByRole('button', { name: '★ Preferred' }).count()).toBe(1);
    await expect.poll(() => tree.getByRole('treeitem').filter({ hasText: 'preferred' }).count()).toBe(1);

    await page.keyboard.press('Escape');
    await expect.poll(() => view.count()).toBe(0);

    // Where is the model unsure: the list of states by agreement, filtered by a threshold.
    await page.getByRole('button', { name: 'Samples by agreement' }).click();
    const list = page.getByRole('list', { name: 'States by agreement, least first' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    expect(await list.getByRole('listitem').textContent()).toContain('cat notes.txt');
    await page.getByLabel('Show states whose samples agree at most').fill('0');
    const agreement = Number((await badge.textContent())!.replace(/\D/g, ''));
    await expect.poll(() => list.getByRole('listitem').count()).toBe(agreement === 0 ? 1 : 0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'States by agreement' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the kind of each perturbed sibling in its row', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /term-0002/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    const step = tree.getByRole('treeitem').filter({ has: page.locator('.tree-text', { hasText: /^mkdir build/ }) });
    await step.click();
    await page.getByText('Perturb this step').click();
    const kinds = page.getByRole('list', { name: 'Perturbation kinds' });
    await kinds.getByLabel(/disk full/i).check();
    await kinds.getByLabel(/permission denied/i).check();
    await page.getByRole('button', { name: 'Sweep 2 perturbations' }).click();
    const perturbed = tree.getByRole('treeitem').filter({ has: page.locator('.badge', { hasText: 'perturbed' }) });
    await expect.poll(() => perturbed.count()).toBe(2);
    await expect.poll(async () => (await perturbed.getByTestId('sibling-label').allTextContents()).map((t) => t.replace(/^#\d\/2 · /, '')).sort()).toEqual(['terminal.disk-full', 'terminal.permission-denied']);
    expect(errors).toEqual([]);
  });
});
