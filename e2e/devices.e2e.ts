// The device choice as a user meets it: `serve --device cpu` runs the model where it was told,
// and the model panel's Device list reloads a folder elsewhere, listing each provider tried
// and why. On a machine whose only GPU adapter is software (CI's lavapipe), Automatic says
// so and runs on the CPU.
import { describe, expect, it } from 'vitest';
import { probeGpuAdapter } from '../src-main/engine/gpu-adapter';
import { importedWorkspace, NO_CHROMIUM, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

const adapter = probeGpuAdapter();

describe.skipIf(NO_CHROMIUM !== '')(`choosing the device${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => ['--workspace', importedWorkspace('devices'), '--model', TEST_MODEL, '--device', 'cpu']);

  it('serve --device cpu runs the model on the CPU as requested, and the panel says so', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent()).toMatch(/Model: .* · cpu/);
    await page.locator('.model-button').click();
    const panel = page.getByRole('region', { name: 'World model' });
    await expect.poll(() => panel.locator('.providers').textContent()).toBe('● cpu: requested');
    expect(errors).toEqual([]);
  });

  // Where a hardware adapter exists Automatic uses it; the refusal is what a GPU-less machine shows.
  it.skipIf(adapter.verdict !== 'software' && adapter.verdict !== 'none')(`Automatic from the panel passes WebGPU over and says why (${adapter.verdict} adapter: ${adapter.detail})`, async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.locator('.model-button').click();
    const panel = page.getByRole('region', { name: 'World model' });
    await panel.getByLabel(/Model folder/).fill(TEST_MODEL);
    await panel.getByTestId('model-device').selectOption('auto');
    await panel.getByRole('button', { name: 'Load folder' }).click();
    // A successful load closes the panel; open it again to read what was tried.
    await expect.poll(() => panel.count(), { timeout: 60_000 }).toBe(0);
    await page.locator('.model-button').click();
    const lines = await panel.locator('.providers li').allTextContents();
    const webgpu = lines.find((line) => line.includes('webgpu'));
    expect(webgpu).toMatch(adapter.verdict === 'software' ? `○ webgpu: only a software adapter (${adapter.name})` : /^○ webgpu: no GPU adapter/);
    expect(lines.at(-1)).toMatch(/^● (cpu|cuda): /);
    await expect.poll(() => page.locator('.model-button').textContent()).not.toMatch(/· webgpu/);
    expect(errors).toEqual([]);
  });
});
