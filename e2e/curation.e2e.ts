import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_CHROMIUM, ROOT, useStudioInBrowser, watchPageErrors } from './support/host';
import { createWorkspace, importFile, openTrajectory, selectStep, tree, typeIntoEditor } from './support/studio-page';

const fixture = join(ROOT, 'e2e', 'fixtures', 'terminal_test.jsonl');

describe.skipIf(NO_CHROMIUM !== '')(`a curator in the host UI${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser();

  it('edits a state, sees it against the original, undoes and redoes the edit', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = watchPageErrors(page);
    await createWorkspace(page, session.studio.url, join(session.studio.dir, 'edit.worldloom'));
    await importFile(page, fixture, 'terminal_test.jsonl: 2 imported');
    await openTrajectory(page, /term-0001/);
    await expect.poll(() => tree(page).getByRole('treeitem').count()).toBe(4);

    await selectStep(page, 'cat missing.txt');
    await page.getByRole('button', { name: 'Edit…' }).click();
    await typeIntoEditor(page, 'edit-observation', 'cat: missing.txt: Permission denied');
    await page.getByRole('button', { name: 'Save as edited state' }).click();

    await expect.poll(() => tree(page).getByRole('treeitem').count()).toBe(5);
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('edited');
    const diff = page.getByTestId('state-diff');
    await diff.locator('.monaco-diff-editor').first().waitFor();
    // Monaco draws spaces as no-break spaces.
    const shown = async (side: string) => ((await diff.locator(`.${side} .view-lines`).last().textContent()) ?? '').replace(/\u00a0/g, ' ');
    await expect.poll(() => shown('modified')).toContain('Permission denied');
    await expect.poll(() => shown('original')).toContain('No such file or directory');
    await expect.poll(() => diff.locator('.char-insert, .line-insert').count()).toBeGreaterThan(0);
    // The original stays in the tree, unchanged, beside the edit.
    expect(await tree(page).getByRole('treeitem').filter({ hasText: 'cat missing.txt' }).count()).toBe(2);

    await tree(page).focus();
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(() => tree(page).getByRole('treeitem').count()).toBe(4);
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('imported');
    await page.keyboard.press('r');
    await expect.poll(() => page.getByTestId('node-observation').textContent()).toContain('No such file or directory');

    await page.keyboard.press('ControlOrMeta+Shift+Z');
    await expect.poll(() => tree(page).getByRole('treeitem').count()).toBe(5);
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('edited');
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => tree(page).getByRole('treeitem').count()).toBe(4);
    expect(errors).toEqual([]);
  });

  it('stars and tags a node, then finds it again by search and filters from another trajectory', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = watchPageErrors(page);
    await createWorkspace(page, session.studio.url, join(session.studio.dir, 'marks.worldloom'));
    await importFile(page, fixture, 'terminal_test.jsonl: 2 imported');
    await openTrajectory(page, /term-0001/);

    await selectStep(page, 'cat notes.txt');
    await page.keyboard.press('s');
    await expect.poll(() => page.getByRole('button', { name: /Starred/ }).getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('t');
    await page.keyboard.type('shopping');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.tag-chip').textContent()).toContain('shopping');
    await page.getByRole('radio', { name: 'Rate 4 of 5' }).click();
    const row = tree(page).getByRole('treeitem').filter({ hasText: 'cat notes.txt' });
    await expect.poll(() => row.textContent()).toMatch(/4\/5.*shopping.*★/);

    // Tagging at once after moving down: the typed tag goes to the tag field, never to the tree's keys (s, h).
    await tree(page).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('t');
    await page.keyboard.type('ssh');
    await page.keyboard.press('Enter');
    const next = tree(page).getByRole('treeitem').filter({ hasText: 'cat missing.txt' });
    await expect.poll(() => next.textContent()).toContain('ssh');
    expect(await next.textContent()).not.toContain('★');
    await expect.poll(() => row.textContent()).toMatch(/4\/5.*shopping.*★/);

    // A tag half typed belongs to its node: moving on shows the next node's marks and an empty tag field.
    await page.getByLabel('Add a tag').fill('half');
    await tree(page).focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.getByRole('button', { name: /Starred/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByLabel('Add a tag').inputValue()).toBe('');

    await openTrajectory(page, /term-0002/);
    await page.getByLabel('Search the workspace').fill('milk');
    const results = page.getByRole('list', { name: 'Search results' });
    await expect.poll(() => results.getByRole('button').count()).toBeGreaterThan(0);
    await page.getByRole('checkbox', { name: 'starred' }).check();
    await page.getByLabel('Tag', { exact: true }).selectOption('shopping');
    await page.getByLabel('Minimum rating').selectOption('4');
    await expect.poll(() => results.getByRole('button').count()).toBe(1);
    await expect.poll(() => results.textContent()).toContain('term-0001');
    await results.getByRole('button').first().click();

    await expect.poll(() => page.getByTestId('node-action').textContent()).toBe('cat notes.txt');
    await expect.poll(() => tree(page).locator('[aria-selected="true"]').textContent()).toContain('cat notes.txt');

    await page.getByLabel('Origin').selectOption('simulated');
    await expect.poll(() => page.getByRole('status').filter({ hasText: /0 nodes found/ }).count()).toBe(1);

    await page.keyboard.press('Escape');
    await tree(page).focus();
    await page.keyboard.press('?');
    await expect.poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).textContent()).toContain('undo the last change');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
