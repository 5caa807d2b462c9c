import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importedWorkspace, NO_CHROMIUM, ROOT, useStudioInBrowser, watchPageErrors } from './support/host';

describe.skipIf(NO_CHROMIUM !== '')(`files reach the user of the browser${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => ['--workspace', importedWorkspace('downloads')]);

  it('downloads an export through the browser, not into the server’s working directory', async () => {
    const page = await session.browser.newPage({ acceptDownloads: true });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('form', { name: 'Export dataset' });
    await dialog.getByLabel('Format', { exact: true }).selectOption('jsonl');
    await dialog.getByLabel(/Export to file \(name your browser saves it under\)/).fill('e2e-download-export.jsonl');
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('e2e-download-export.jsonl');
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.trim().split('\n').length).toBeGreaterThan(0);
    expect(JSON.parse(text.split('\n')[0]!)).toHaveProperty('trajectory');
    expect(existsSync(join(ROOT, 'e2e-download-export.jsonl'))).toBe(false);
    expect(errors).toEqual([]);
  });

  it('downloads the sim-vs-real report through the browser', async () => {
    const page = await session.browser.newPage({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button').first().click();
    await page.getByRole('button', { name: 'Sim vs real' }).click();
    const form = page.getByRole('form', { name: 'Export the report' });
    await form.getByLabel('Report file (.html or .json)').fill('e2e-download-report.html');
    const downloading = page.waitForEvent('download');
    await form.getByRole('button', { name: 'Export report' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('e2e-download-report.html');
    expect(readFileSync((await download.path())!, 'utf8')).toMatch(/^<!doctype html>/i);
    expect(existsSync(join(ROOT, 'e2e-download-report.html'))).toBe(false);
    expect(errors).toEqual([]);
  });
});
