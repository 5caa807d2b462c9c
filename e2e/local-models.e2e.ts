// Models the user already has, as the model panel shows them: an LM Studio file in the folder
// LM Studio's settings name is listed with a Load button, and an OLLAMA_MODELS that cannot be
// read (here a file, not a folder) is named with the reason, instead of an empty list.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importedWorkspace, NO_CHROMIUM, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

const home = mkdtempSync(join(tmpdir(), 'wl-e2e-home-'));
const downloads = join(home, 'models-elsewhere');
const notAFolder = join(home, 'ollama-models');
const saved = { HOME: process.env.HOME, OLLAMA_MODELS: process.env.OLLAMA_MODELS };

describe.skipIf(NO_CHROMIUM !== '')(`models on this machine in the model panel${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => {
    const workspace = importedWorkspace('local-models');
    mkdirSync(join(downloads, 'unsloth', 'Qwen-GGUF'), { recursive: true });
    writeFileSync(join(downloads, 'unsloth', 'Qwen-GGUF', 'qwen-Q4_K_M.gguf'), 'GGUF');
    mkdirSync(join(home, '.lmstudio'), { recursive: true });
    writeFileSync(join(home, '.lmstudio', 'settings.json'), JSON.stringify({ downloadsFolder: downloads }));
    writeFileSync(notAFolder, 'not a folder');
    // The host reads these when it starts; they are put back once it has.
    process.env.HOME = home;
    process.env.OLLAMA_MODELS = notAFolder;
    return ['--workspace', workspace, '--model', TEST_MODEL, '--device', 'cpu'];
  });
  beforeAll(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('lists the LM Studio file and names the Ollama folder it cannot read', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent(), { timeout: 60_000 }).toMatch(/Model: /);
    await page.locator('.model-button').click();
    const panel = page.getByRole('region', { name: 'World model' });
    await expect.poll(() => panel.locator('.local-gguf li').allTextContents()).toEqual([expect.stringMatching(/^unsloth\/Qwen-GGUF\/qwen-Q4_K_M\.gguf \(LM Studio, .*\) Load$/)]);
    await expect.poll(() => panel.getByRole('note').textContent()).toContain(`${notAFolder} (Ollama: OLLAMA_MODELS): it is a file, not a folder`);
    expect(errors).toEqual([]);
  });
});
