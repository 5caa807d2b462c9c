import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_CHROMIUM, ROOT, useStudioInBrowser, watchPageErrors } from './support/host';
import { createWorkspace, openStartScreen } from './support/studio-page';

const fixture = join(ROOT, 'e2e', 'fixtures', 'terminal_test.jsonl');

describe.skipIf(NO_CHROMIUM !== '')(`a user in the host UI${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser();

  it('creates a workspace, imports a file, opens a trajectory, adds a step, and finds it all after a reload', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await openStartScreen(page, session.studio.url);

    const workspacePath = join(session.studio.dir, 'e2e.worldloom');
    await page.getByLabel('Workspace file').fill(workspacePath);
    await page.getByRole('button', { name: 'Create workspace' }).click();
    // The toolbar names the file; its whole path is the tooltip.
    await expect.poll(() => page.locator('.workspace-path').textContent()).toBe('e2e.worldloom');
    expect(await page.locator('.workspace-path').getAttribute('title')).toBe(workspacePath);

    await page.getByTestId('import-input').setInputFiles(fixture);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'terminal_test.jsonl: 2 imported' }).count()).toBe(1);
    // The report sits over the inspector's lower corner until dismissed.
    await page.getByRole('status').filter({ hasText: 'terminal_test.jsonl: 2 imported' }).getByRole('button', { name: 'Dismiss' }).click();

    const list = page.getByRole('list', { name: 'Trajectories' });
    await list.getByRole('button', { name: /term-0001/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await expect.poll(() => tree.getByRole('treeitem').count()).toBe(4);

    await tree.getByRole('treeitem').filter({ hasText: 'cat missing.txt' }).click();
    // A terminal state shows in a terminal; `r` shows its raw text.
    await page.keyboard.press('r');
    await expect.poll(() => page.getByTestId('node-observation').textContent()).toContain('No such file or directory');

    const form = page.getByRole('form', { name: 'Add a step by hand' });
    await form.getByLabel('Action').fill('touch missing.txt && ls');
    await form.getByLabel('Observation').fill('missing.txt  notes.txt  src');
    await form.getByRole('button', { name: 'Add step' }).click();
    await expect.poll(() => tree.getByRole('treeitem').count()).toBe(5);
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('manual');

    await page.reload();
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /term-0001/ }).click();
    const manual = page.getByRole('treeitem').filter({ hasText: 'touch missing.txt && ls' });
    await expect.poll(() => manual.count()).toBe(1);
    await manual.click();
    await page.keyboard.press('r');
    await expect.poll(() => page.getByTestId('node-observation').textContent()).toBe('missing.txt  notes.txt  src');
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('manual');
    await expect.poll(() => page.locator('.toolbar').textContent()).toContain('2 trajectories · 6 steps');
    expect(errors).toEqual([]);
  });

  it('reports a malformed line by number and still imports the good lines, from a dropped file', async () => {
    const page = await session.browser.newPage();
    await createWorkspace(page, session.studio.url, join(session.studio.dir, 'drop.worldloom'));
    const text = readFileSync(fixture, 'utf8').replace(/\n$/, '') + '\n{"task": broken}\n';
    const dataTransfer = await page.evaluateHandle((content) => {
      const dt = new DataTransfer();
      dt.items.add(new File([content], 'web_test.jsonl', { type: 'application/json' }));
      return dt;
    }, text);
    await page.locator('.app').dispatchEvent('drop', { dataTransfer });
    const notice = page.getByRole('status').filter({ hasText: 'web_test.jsonl: 2 imported' });
    await expect.poll(() => notice.count()).toBe(1);
    expect(await notice.textContent()).toMatch(/line 6: not valid JSON/);
  });

  it('opens the demo workspace of real recorded sessions from the start screen', async () => {
    const page = await session.browser.newPage();
    await openStartScreen(page, session.studio.url);
    await page.getByRole('button', { name: 'Open the demo workspace' }).click();
    const list = page.getByRole('list', { name: 'Trajectories' });
    await expect.poll(() => list.getByRole('button').count()).toBe(3);
    expect(await list.textContent()).toMatch(/MCP memory server/);
  });

  it('waits for the host before showing a start screen, and says so when the link is wrong', async () => {
    const page = await session.browser.newPage();
    let dialled = 0;
    page.on('websocket', () => dialled++);
    const wrong = new URL(session.studio.url);
    wrong.searchParams.set('token', 'not-the-token');
    await page.goto(wrong.toString());
    await page.getByText('could not reach its main process').waitFor();
    expect(await page.getByLabel('Workspace file').count()).toBe(0);
    const connecting = page.getByRole('alert').filter({ hasText: 'Connecting failed' });
    await expect.poll(() => connecting.textContent()).toMatch(/Could not connect to `worldloom serve`/);
    const before = dialled;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => connecting.count()).toBe(2);
    // Trying again dials the host again rather than repeating the first failure.
    expect(dialled).toBeGreaterThan(before);
    expect(await page.getByLabel('Workspace file').count()).toBe(0);
  });

  it('refuses a file that is not a workspace with a message saying so', async () => {
    const page = await session.browser.newPage();
    await openStartScreen(page, session.studio.url);
    await page.getByLabel('Workspace file').fill(fixture);
    await page.getByRole('button', { name: 'Open workspace' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not a Worldloom workspace/);
  });
});
