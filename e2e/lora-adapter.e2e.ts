// A LoRA adapter from the model panel: a GGUF adapter for worldloom-nano (written at test time
// by lora-fixture.ts, in the form llama.cpp loads) sits in LM Studio's folder. The panel lists it
// as an adapter, not as a model; "Use" puts it in the adapter field, nano's .gguf is loaded with
// it on llama.cpp, the studio names the adapter with the model, and a simulation runs on both.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NANO_GGUF, writeLoraAdapter } from '../src-main/testing/lora-fixture';
import { importedWorkspace, NO_CHROMIUM, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

const home = mkdtempSync(join(tmpdir(), 'wl-e2e-lora-home-'));
const adapterFolder = join(home, '.lmstudio', 'models', 'me', 'nano-terminal');
const ADAPTER = join(adapterFolder, 'nano-terminal-lora.gguf');
const saved = { HOME: process.env.HOME, OLLAMA_MODELS: process.env.OLLAMA_MODELS };

describe.skipIf(NO_CHROMIUM !== '')(`a LoRA adapter from the model panel${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => {
    const workspace = importedWorkspace('lora-adapter');
    mkdirSync(adapterFolder, { recursive: true });
    writeLoraAdapter(ADAPTER, { name: 'nano-terminal' });
    // The host reads these when it starts; they are put back once it has.
    process.env.HOME = home;
    process.env.OLLAMA_MODELS = join(home, 'no-ollama');
    return ['--workspace', workspace, '--model', TEST_MODEL, '--device', 'cpu'];
  });
  beforeAll(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('lists the adapter apart from models, loads nano with it, names it and simulates a step', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent(), { timeout: 60_000 }).toMatch(/Model: .* · cpu/);
    await page.locator('.model-button').click();
    const panel = page.getByRole('region', { name: 'World model' });

    // An adapter, with the architecture it adapts; not offered as a model to load on its own.
    await expect.poll(() => panel.locator('.local-gguf-adapters li').allTextContents()).toEqual([
      expect.stringMatching(/^me\/nano-terminal\/nano-terminal-lora\.gguf \(LM Studio, adapts qwen35moe, \d+ KB\) Use$/),
    ]);
    expect(await panel.locator('.local-gguf li').count()).toBe(0);
    await panel.getByRole('button', { name: 'Use the adapter me/nano-terminal/nano-terminal-lora.gguf' }).click();
    expect(await panel.getByLabel('LoRA adapter').inputValue()).toBe(ADAPTER);

    await panel.getByLabel(/Model folder/).fill(NANO_GGUF);
    await panel.getByTestId('model-device').selectOption('cpu');
    await panel.getByLabel(/CPU threads/).fill('1');
    await panel.getByRole('button', { name: 'Load folder' }).click();
    // A successful load closes the panel; the model is named with its adapter.
    await expect.poll(() => panel.count(), { timeout: 60_000 }).toBe(0);
    await expect.poll(() => page.locator('.model-button').textContent()).toBe('Model: worldloom-nano.gguf + nano-terminal-lora.gguf · cpu');
    await page.locator('.model-button').click();
    await expect.poll(() => panel.getByText(/^LoRA adapter nano-terminal \(2 weights, alpha 4\): .*nano-terminal-lora\.gguf$/).count()).toBe(1);
    await page.locator('.model-button').click();

    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /term-0002/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await tree.getByRole('treeitem').filter({ hasText: 'mkdir build' }).click();
    const form = page.getByRole('form', { name: 'Simulate an action' });
    await form.getByLabel('Action').fill('ls -la');
    await form.getByLabel('Samples').fill('1');
    await form.getByLabel('Max tokens').fill('200');
    await form.getByRole('button', { name: /^Simulate/ }).click();
    const progress = async () => ({
      samples: await tree.getByRole('treeitem').filter({ hasText: 'ls -la' }).count(),
      errors: (await page.getByRole('alert').allTextContents()).filter((text) => text.trim()),
    });
    await expect.poll(progress, { timeout: 180_000 }).toEqual({ samples: 1, errors: [] });
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('simulated');
    await expect.poll(() => page.getByTestId('simulation-speed').textContent()).toMatch(/tok\/s on cpu/);
    await page.getByRole('tab', { name: 'Raw text' }).click();
    await expect.poll(() => page.getByTestId('node-observation').textContent()).toMatch(/\S/);
    expect(errors).toEqual([]);
  }, 300_000);
});
