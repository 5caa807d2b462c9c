import { existsSync, readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorkspace, importFile } from './support/studio-page';
import { NO_CHROMIUM, ROOT, useStudioInBrowser, watchPageErrors } from './support/host';

const fixture = join(ROOT, 'e2e', 'fixtures', 'terminal_test.jsonl');

describe.skipIf(NO_CHROMIUM !== '')(`a user exporting a dataset${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser();

  it('filters a workspace, sees the live count and a preview, and exports train/validation with a card', async () => {
    const page = await session.browser.newPage({ acceptDownloads: true });
    const errors = watchPageErrors(page);
    await createWorkspace(page, session.studio.url, join(session.studio.dir, 'dataset.worldloom'));
    await importFile(page, fixture, 'terminal_test.jsonl: 2 imported');

    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('form', { name: 'Export dataset' });
    const count = dialog.getByTestId('dataset-count');
    await expect.poll(() => count.textContent()).toBe('5 examples from 2 trajectories: 5 real');

    // A typo in the filter is reported where it is, and nothing can be exported.
    const expression = dialog.getByLabel('Filter expression');
    await expression.fill('deph >= 2');
    await expect.poll(() => dialog.getByRole('alert').textContent()).toMatch(/Unknown field "deph"; did you mean "depth"\?/);
    await expect.poll(() => dialog.getByRole('button', { name: 'Export', exact: true }).isDisabled()).toBe(true);

    await expression.fill('depth >= 2');
    await expect.poll(() => count.textContent()).toBe('3 examples from 2 trajectories: 3 real');
    const preview = dialog.getByRole('region', { name: 'Example preview' });
    await preview.locator('summary').first().click();
    await expect.poll(() => preview.locator('.dataset-message').first().textContent()).toContain('system');

    await dialog.getByLabel('Format', { exact: true }).selectOption('sharegpt');
    // In a browser the dataset reaches the user as one .zip download, never a folder on the server.
    await dialog.getByLabel(/Export as \(name of the \.zip your browser saves\)/).fill('llama-factory');
    await dialog.getByLabel('Train fraction').fill('0.5');
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('llama-factory.zip');

    const result = dialog.getByRole('status').filter({ hasText: 'Wrote' });
    await expect.poll(() => result.textContent()).toMatch(/Wrote \d train and \d validation examples \(1 \+ 1 trajectories\)/);
    // The same first line as the CLI prints, with the dialog's defaults (duplicates kept).
    await expect.poll(() => dialog.locator('.dataset-summary').first().textContent()).toMatch(/^3 examples: 3 real; train \d, validation \d \(50\/50 by trajectory\); duplicates kept\.$/);
    const files = unzipSync(readFileSync((await download.path())!));
    const read = (name: string) => strFromU8(files[`llama-factory/${name}`]!);
    const info = JSON.parse(read('dataset_info.json')) as Record<string, { file_name: string }>;
    expect(Object.values(info).map((e) => e.file_name).sort()).toEqual(['train.jsonl', 'validation.jsonl']);
    const card = read('README.md');
    expect(card).toMatch(/configs:\n- config_name: "default"/);
    expect(card).toContain('filter `depth >= 2`');
    const rows = ['train', 'validation'].flatMap((s) => read(`${s}.jsonl`).trim().split('\n'));
    expect(rows).toHaveLength(3);
    expect(existsSync(join(ROOT, 'llama-factory'))).toBe(false);
    expect(errors).toEqual([]);
  });
});
