import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, importedWorkspace, NO_CHROMIUM, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';
import { openTrajectory, selectStep, tree } from './support/studio-page';

const run = promisify(execFile);

describe.skipIf(NO_CHROMIUM !== '')(`cleaning up a workspace${NO_CHROMIUM}`, () => {
  let workspace = '';
  const session = useStudioInBrowser(() => {
    workspace = importedWorkspace('cleanup');
    return ['--workspace', workspace, '--model', TEST_MODEL];
  });

  it('undoes a simulation, reuses a repeated seed, deletes a sample and takes the deletion back after a reload, with the panel as it was left', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent()).toMatch(/Model: .* · cpu/);
    await openTrajectory(page, /term-0002/);
    await selectStep(page, 'mkdir build');
    const samples = () => tree(page).getByRole('treeitem').filter({ hasText: 'ls -la' }).count();

    const form = page.getByRole('form', { name: 'Simulate an action' });
    await form.getByLabel('Action').fill('ls -la');
    await form.getByLabel('Samples').fill('2');
    await form.getByLabel('Seed').fill('42');
    await form.getByLabel('Max tokens').fill('16');
    await form.getByLabel('Temperature').fill('0.9');
    await form.getByRole('button', { name: 'Simulate ×2' }).click();
    await expect.poll(samples, { timeout: 60_000 }).toBe(2);
    // The panel keeps what it ran with, and shows the seed it used.
    await expect.poll(() => form.getByLabel('Samples').inputValue()).toBe('2');
    expect(await form.getByLabel('Seed').inputValue()).toBe('42');
    expect(await form.getByLabel('Temperature', { exact: true }).inputValue()).toBe('0.9');

    // The same seed again, from the same state: the samples already made are reused, none is stored twice.
    await selectStep(page, 'mkdir build');
    await form.getByRole('button', { name: 'Simulate ×2' }).click();
    await page.getByRole('status').filter({ hasText: 'already in the workspace with this seed' }).first().waitFor();
    expect(await samples()).toBe(2);

    // Undo takes the simulation back; redo brings the same samples back.
    await tree(page).getByRole('treeitem').filter({ hasText: 'mkdir build' }).first().click();
    await page.keyboard.press('Control+z');
    await expect.poll(samples).toBe(0);
    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(samples).toBe(2);

    // Delete one sample from the node panel: its id is shown there, as the CLI takes it.
    await selectStep(page, 'ls -la');
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('simulated');
    const deletedId = await page.getByTestId('node-id').textContent();
    expect(deletedId).toMatch(/^\S{8,}$/);
    await page.locator('.node-actions').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(samples).toBe(1);

    // After a reload the deletion is still kept in the workspace: Ctrl+Z brings the same node back.
    await page.reload();
    await openTrajectory(page, /term-0002/);
    await selectStep(page, 'mkdir build');
    await expect.poll(() => page.getByRole('form', { name: 'Simulate an action' }).getByLabel('Samples').inputValue()).toBe('2');
    expect(await page.getByRole('form', { name: 'Simulate an action' }).getByLabel('Seed').inputValue()).toBe('42');
    expect(await page.getByRole('form', { name: 'Simulate an action' }).getByLabel('Temperature', { exact: true }).inputValue()).toBe('0.9');
    await page.keyboard.press('Control+z');
    await expect.poll(samples).toBe(2);
    // The very node that was deleted, id and all.
    const file = new Database(workspace, { readonly: true });
    expect(file.prepare('SELECT action FROM nodes WHERE id = ?').pluck().get(deletedId)).toBe('ls -la');
    file.close();
    expect(errors).toEqual([]);
  });

  it('renames a trajectory, edits its description as a new version, deletes it and takes each back', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    const list = page.getByRole('list', { name: 'Trajectories' });
    await openTrajectory(page, /term-0001/);

    await list.getByRole('button', { name: 'Rename' }).click();
    await list.getByLabel('Trajectory title').fill('Cleaned up');
    await list.getByLabel('Trajectory title').press('Enter');
    await list.getByRole('button', { name: /Cleaned up/ }).waitFor();
    await expect.poll(() => list.getByTestId('trajectory-id').textContent()).toMatch(/\S+/);

    // The initial state holds the environment description: a save keeps the old one as a version.
    await tree(page).getByRole('treeitem').first().click();
    await page.getByRole('button', { name: 'Edit description' }).click();
    const editor = page.getByRole('form', { name: 'Edit the environment description' });
    await editor.getByLabel('Environment description').fill('A Debian shell with a full disk.');
    await editor.getByRole('button', { name: 'Save as a new version' }).click();
    await page.getByText('Earlier versions').click();
    const versions = page.getByRole('list', { name: 'Earlier versions' });
    await expect.poll(() => versions.getByRole('listitem').count()).toBe(2);
    await page.getByText('Environment description', { exact: true }).click();
    await page.getByText('A Debian shell with a full disk.').first().waitFor();

    // Undo goes back through the description change and then the rename.
    await tree(page).getByRole('treeitem').first().click();
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.getByText('A Debian shell with a full disk.').count()).toBe(0);
    await page.keyboard.press('Control+z');
    await list.getByRole('button', { name: /term-0001/ }).waitFor();

    // Deleting the whole trajectory asks first, naming it and how much goes; Cancel keeps it.
    await list.getByRole('button', { name: 'Delete…', exact: true }).click();
    const ask = page.getByRole('alertdialog', { name: 'Delete this trajectory?' });
    await expect.poll(() => ask.textContent()).toMatch(/term-0001.*with every step in it: \d+ nodes in all/);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => ask.count()).toBe(0);
    expect(await list.getByRole('button', { name: /term-0001/ }).count()).toBe(1);
    await list.getByRole('button', { name: 'Delete…', exact: true }).click();
    await ask.getByRole('button', { name: 'Delete the trajectory' }).click();
    await expect.poll(() => list.getByRole('button', { name: /term-0001/ }).count()).toBe(0);
    await expect.poll(() => tree(page).count()).toBe(0);
    await page.locator('body').press('Control+z');
    await list.getByRole('button', { name: /term-0001/ }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows what `worldloom simulate` adds from another process at once, and the CLI prints the prediction with the ids the UI shows', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await openTrajectory(page, /term-0002/);
    await selectStep(page, 'mkdir build');
    // The inspector follows the selection once it rests: wait for the step, not the initial state.
    await expect.poll(() => page.locator('.inspector-head').textContent()).toMatch(/step \d/);
    const nodeId = (await page.getByTestId('node-id').textContent())!;

    const { stdout } = await run(process.execPath, [CLI, 'simulate', '--workspace', workspace, '--node', nodeId, '--action', 'whoami', '--model', TEST_MODEL, '--max-tokens', '8', '--seed', '3']);
    const printed = JSON.parse(stdout) as { samples: { id: string; parentId: string; seed: number; action: string; observation: string }[] };
    expect(printed.samples).toHaveLength(1);
    expect(printed.samples[0]).toMatchObject({ parentId: nodeId, seed: 3, action: 'whoami', observation: expect.any(String) });

    // No reload: the studio learns of the CLI's write and puts the node into the open tree.
    const added = tree(page).getByRole('treeitem').filter({ hasText: 'whoami' });
    await expect.poll(() => added.count(), { timeout: 15_000 }).toBe(1);
    await added.click();
    await expect.poll(() => page.getByTestId('node-id').textContent()).toBe(printed.samples[0]!.id);

    // The tree's own menu: copy the id, delete the node, and Ctrl+Z brings it back.
    await added.click({ button: 'right' });
    await page.getByRole('menu', { name: 'Node actions' }).getByRole('menuitem', { name: 'Copy node id' }).click();
    await page.getByRole('status').filter({ hasText: printed.samples[0]!.id }).first().waitFor();
    await added.click({ button: 'right' });
    await page.getByRole('menu', { name: 'Node actions' }).getByRole('menuitem', { name: /Delete with what follows/ }).click();
    await expect.poll(() => added.count()).toBe(0);
    await tree(page).focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => added.count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
