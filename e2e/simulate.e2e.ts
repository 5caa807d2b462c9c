import { describe, expect, it } from 'vitest';
import { ENDLESS_MODEL, importedWorkspace, NO_CHROMIUM, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

describe.skipIf(NO_CHROMIUM !== '')(`simulating in the host UI${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => ['--workspace', importedWorkspace('simulate'), '--model', TEST_MODEL]);

  it('simulates an action ×2 at a node and gets two simulated siblings with tokens/s shown', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent()).toMatch(/Model: .* · cpu/);

    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /term-0002/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await tree.getByRole('treeitem').filter({ hasText: 'mkdir build' }).click();

    const form = page.getByRole('form', { name: 'Simulate an action' });
    await form.getByLabel('Action').fill('ls -la');
    await form.getByLabel('Samples').fill('2');
    await form.getByLabel('Max tokens').fill('16');
    await form.getByRole('button', { name: 'Simulate ×2' }).click();

    await expect.poll(() => tree.getByRole('treeitem').filter({ hasText: 'ls -la' }).count(), { timeout: 60_000 }).toBe(2);
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('simulated');
    await expect.poll(() => page.getByTestId('simulation-speed').textContent()).toMatch(/tok\/s on cpu/);
    expect(errors).toEqual([]);
  });
});

describe.skipIf(NO_CHROMIUM !== '')(`cancelling in the host UI${NO_CHROMIUM}`, () => {
  // tiny-chat's reply to this step ends within a few tokens, before Cancel could be pressed.
  const session = useStudioInBrowser(() => ['--workspace', importedWorkspace('simulate-cancel'), '--model', ENDLESS_MODEL]);

  it('cancels a long simulation and keeps nothing from it', async () => {
    const page = await session.browser.newPage();
    await page.goto(session.studio.url);
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /term-0001/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await tree.getByRole('treeitem').filter({ hasText: 'cat notes.txt' }).click();
    const before = await tree.getByRole('treeitem').count();
    const form = page.getByRole('form', { name: 'Simulate an action' });
    await form.getByLabel('Action').fill('yes');
    await form.getByLabel('Temperature').fill('0');
    await form.getByLabel('Max tokens').fill('4000');
    await form.getByRole('button', { name: 'Simulate' }).click();
    await page.getByTestId('simulation-stream').first().waitFor();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('simulation-speed').textContent()).toMatch(/cancelled/);
    expect(await tree.getByRole('treeitem').count()).toBe(before);
  });
});
