import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_CHROMIUM, useStudioInBrowser, watchPageErrors } from './support/host';

const skipped =
  NO_CHROMIUM ||
  (existsSync('/usr/bin/bwrap') ? '' : ' — skipped: no bubblewrap (apt-get install bubblewrap); the terminal is never run unsandboxed');

describe.skipIf(skipped !== '')(`recording a real terminal session in the host UI${skipped}`, () => {
  const session = useStudioInBrowser(() => ['--workspace', join(mkdtempSync(join(tmpdir(), 'wl-record-e2e-')), 'r.worldloom')]);

  it('records commands in the sandbox as a real trajectory, real errors included', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.getByRole('button', { name: 'Record…' }).click();
    const form = page.getByRole('form', { name: 'Record a real session' });
    await form.getByLabel('Title').fill('from the ui');
    await form.getByLabel(/Actions/).fill('echo hello > a.txt\ncat a.txt\ncat missing.txt');
    await form.getByRole('button', { name: 'Record 3 steps' }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await expect.poll(() => tree.getByRole('treeitem').count(), { timeout: 60_000 }).toBe(4);
    await tree.getByRole('treeitem').filter({ hasText: 'cat missing.txt' }).click();
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('real');
    await page.keyboard.press('r');
    await expect.poll(() => page.getByTestId('node-observation').textContent()).toContain('No such file or directory');
    expect(errors).toEqual([]);
  });
});
