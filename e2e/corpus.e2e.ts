// A user replays every recorded session of a workspace at once, reads the scores by domain and
// by step, then loads a second world model, replays the same steps again and sees which model
// is closer to reality, side by side.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, NO_CHROMIUM, ROOT, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

const CAST = join(ROOT, 'src-main', 'formats', 'asciinema', 'fixtures', 'build-session.cast');
const MCP_LOG = join(ROOT, 'src-main', 'formats', 'mcp-jsonrpc-log', 'fixtures', 'notes-server.mcp.jsonl');
const NANO = join(ROOT, 'resources', 'models', 'worldloom-nano');

describe.skipIf(NO_CHROMIUM !== '')(`sim vs real over recorded sessions in the host UI${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-corpus-e2e-'));
    const workspace = join(dir, 'corpus.worldloom');
    execFileSync(process.execPath, [CLI, 'import', CAST, MCP_LOG, '--workspace', workspace], { stdio: 'pipe' });
    return ['--workspace', workspace, '--model', TEST_MODEL];
  });

  it('replays every recorded session at once, then compares a second model on the same steps', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent()).toMatch(/Model: .* · cpu/);
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /Build the demo project/ }).click();

    // From the one-trajectory view, the whole corpus.
    await page.getByRole('button', { name: 'Sim vs real' }).click();
    await page.getByRole('dialog', { name: 'Sim vs real' }).getByRole('button', { name: 'All recorded sessions…' }).click();
    const view = page.getByRole('dialog', { name: 'Sim vs real over recorded sessions' });
    await view.getByRole('button', { name: 'Replay with the loaded model' }).click();
    await expect.poll(() => view.getByTestId('corpus-summary').textContent(), { timeout: 120_000 }).toMatch(/^2 trajectories · \d+ steps compared/);
    const domains = view.getByRole('table', { name: 'Scores by domain' });
    await expect.poll(() => domains.textContent()).toMatch(/terminal.*mcp|mcp.*terminal/);
    await view.getByRole('img', { name: 'Mean similarity to the real observation by step' }).waitFor();
    await expect.poll(() => view.getByRole('img', { name: 'Mean similarity to the real observation by step' }).textContent()).toMatch(/step of the trajectory.*similarity to real/);
    await expect.poll(() => view.getByTestId('corpus-ab-hint').textContent()).toMatch(/^Replayed with tiny-chat\. To see which world model is closer to reality, load another one/);

    // A second model: the embedded worldloom-nano, loaded from the model panel.
    await page.keyboard.press('Escape');
    await page.locator('.model-button').click();
    const panel = page.getByRole('region', { name: 'World model' });
    await panel.getByLabel(/Model folder/).fill(NANO);
    await panel.getByRole('button', { name: 'Load folder' }).click();
    await expect.poll(() => page.locator('.model-button').textContent(), { timeout: 60_000 }).toMatch(/Model: worldloom-nano/);

    await page.getByRole('button', { name: 'Sim vs real' }).click();
    await page.getByRole('dialog', { name: 'Sim vs real' }).getByRole('button', { name: 'All recorded sessions…' }).click();
    await view.getByRole('button', { name: 'Replay with the loaded model' }).click();
    await view.getByRole('button', { name: 'Compare models' }).click({ timeout: 120_000 });
    const ab = view.getByTestId('corpus-ab');
    await expect.poll(() => ab.locator('h4').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/tiny-chat/), expect.stringMatching(/worldloom-nano|qwen3_5_moe/)]));
    await expect.poll(() => ab.getByRole('table', { name: 'Scores by domain' }).count()).toBe(2);
    expect(errors).toEqual([]);
  });
});
