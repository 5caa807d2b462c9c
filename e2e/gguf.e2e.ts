// A GGUF model in the browser: `worldloom serve --model worldloom-nano.gguf` (the embedded model
// as GGUF, committed, run by llama.cpp in process) simulates an action ×2 (nano answers pwd in a few tokens, so both samples finish), resamples one of the
// samples ×2 and replays an imported asciinema session into Sim vs real.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, NO_CHROMIUM, ROOT, useStudioInBrowser, watchPageErrors } from './support/host';

const GGUF = join(ROOT, 'resources', 'models', 'worldloom-nano', 'worldloom-nano.gguf');
const CAST = join(ROOT, 'src-main', 'formats', 'asciinema', 'fixtures', 'build-session.cast');

describe.skipIf(NO_CHROMIUM !== '')(`a GGUF model in the host UI${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => {
    const workspace = join(mkdtempSync(join(tmpdir(), 'wl-gguf-e2e-')), 'gguf.worldloom');
    execFileSync(process.execPath, [CLI, 'import', CAST, '--workspace', workspace], { stdio: 'pipe' });
    // One llama.cpp thread, as the model panel then says: the default (all cores but one, within a
    // container's CPU quota) is unit-tested in usable-cores.test.ts; here the flag is proven end to end.
    return ['--workspace', workspace, '--model', GGUF, '--device', 'cpu', '--threads', '1'];
  });

  it('simulates ×2, resamples a sample ×2 and replays a recorded session on llama.cpp', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent(), { timeout: 60_000 }).toMatch(/Model: .* · cpu/);
    await page.locator('.model-button').click();
    await expect.poll(() => page.getByText(/all \d+ layers on the CPU, 1 CPU thread$/).count()).toBe(1);
    await page.locator('.model-button').click();
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /Build the demo project|build-session/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await tree.getByRole('treeitem').first().click();

    const form = page.getByRole('form', { name: 'Simulate an action' });
    await form.getByLabel('Action').fill('pwd');
    await form.getByLabel('Samples').fill('2');
    await form.getByLabel('Max tokens').fill('200');
    await form.getByRole('button', { name: 'Simulate ×2' }).click();
    const samples = tree.getByRole('treeitem').filter({ hasText: 'pwd' });
    // The count with any error the studio shows: a failed step says why in the test's output, not
    // only that nothing arrived.
    const progress = async () => ({ samples: await samples.count(), errors: (await page.getByRole('alert').allTextContents()).filter((text) => text.trim()) });
    await expect.poll(progress, { timeout: 240_000 }).toEqual({ samples: 2, errors: [] });
    await expect.poll(() => page.getByTestId('simulation-speed').textContent()).toMatch(/tok\/s on cpu/);

    // A simulated sample: resampling its action from its parent adds two more siblings.
    await samples.first().click();
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('simulated');
    await form.getByRole('button', { name: 'Resample ×2' }).click();
    await expect.poll(progress, { timeout: 240_000 }).toEqual({ samples: 4, errors: [] });

    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const view = page.getByRole('dialog', { name: 'Sim vs real' });
    await view.waitFor({ timeout: 180_000 });
    await expect.poll(() => view.getByTestId('compare-step').textContent(), { timeout: 180_000 }).toMatch(/^Step 1 of \d+/);
    await expect.poll(() => view.getByRole('table', { name: 'Metrics of this step' }).textContent()).toMatch(/edit similarity/);
    expect(errors).toEqual([]);
  }, 600_000);

  it('loads a GGUF file from the model panel on the CPU threads asked for', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.locator('.model-button').click();
    const panel = page.getByRole('region', { name: 'World model' });
    await panel.getByLabel(/Model folder/).fill(GGUF);
    await panel.getByTestId('model-device').selectOption('cpu');
    // Not a thread count: nothing can be loaded until it is one.
    await panel.getByLabel(/CPU threads/).fill('0');
    expect(await panel.getByRole('button', { name: 'Load folder' }).isDisabled()).toBe(true);
    await panel.getByLabel(/CPU threads/).fill('2');
    await panel.getByRole('button', { name: 'Load folder' }).click();
    // A successful load closes the panel; open it again to read how the model runs.
    await expect.poll(() => panel.count(), { timeout: 60_000 }).toBe(0);
    await page.locator('.model-button').click();
    await expect.poll(() => panel.getByText(/all \d+ layers on the CPU, 2 CPU threads$/).count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
