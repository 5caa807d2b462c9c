// What a user does on the studio page again and again, in their words, for the e2e stories.
import type { Page } from 'playwright-core';

/**
 * The host keeps one workspace open for all its tabs; a story starts from the start screen,
 * closing whatever an earlier story left open. The page shows neither until the host has answered.
 */
export async function openStartScreen(page: Page, url: string): Promise<void> {
  await page.goto(url);
  const start = page.getByLabel('Workspace file');
  const menu = page.getByRole('button', { name: 'Workspace ▾' });
  await Promise.race([start.waitFor(), menu.waitFor()]);
  if (await menu.isVisible()) await closeWorkspace(page);
  await start.waitFor();
}

/** Workspace ▾ › Close workspace…, then the confirmation. */
export async function closeWorkspace(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Workspace ▾' }).click();
  await page.getByRole('menuitem', { name: 'Close workspace…' }).click();
  await page.getByRole('alertdialog', { name: 'Close the workspace?' }).getByRole('button', { name: 'Close workspace', exact: true }).click();
}

export async function createWorkspace(page: Page, url: string, path: string): Promise<void> {
  await openStartScreen(page, url);
  await page.getByLabel('Workspace file').fill(path);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.locator('.toolbar').waitFor();
}

export async function importFile(page: Page, file: string, expectSummary: string): Promise<void> {
  await page.getByTestId('import-input').setInputFiles(file);
  await page.getByRole('status').filter({ hasText: expectSummary }).first().waitFor();
}

export function tree(page: Page) {
  return page.getByRole('tree', { name: 'Trajectory tree' });
}

export async function openTrajectory(page: Page, title: RegExp): Promise<void> {
  await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: title }).click();
  await tree(page).waitFor();
}

export async function selectStep(page: Page, text: string): Promise<void> {
  await tree(page).getByRole('treeitem').filter({ hasText: text }).first().click();
}

/** Replaces the whole text of a Monaco editor the way a user would: select all, type. */
export async function typeIntoEditor(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).locator('.monaco-editor').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}
