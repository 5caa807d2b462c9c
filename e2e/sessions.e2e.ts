// A user finds the sessions their coding agents left on this machine, sees which folders were
// looked in, imports two of them with secrets scrubbed, and replays them through the loaded
// world model into the sim-vs-real report. The host's home folder is a temporary one holding
// fixture sessions where Claude Code, Codex and Gemini CLI keep theirs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SESSION_SECRETS, writeSessionHome, writeSessionWithSecrets } from '../src-main/testing/session-home';
import { NO_CHROMIUM, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

const AGENT_VARIABLES = ['HOME', 'USERPROFILE', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME'] as const;

describe.skipIf(NO_CHROMIUM !== '')(`the agent sessions on this machine, in the host UI${NO_CHROMIUM}`, () => {
  const before = Object.fromEntries(AGENT_VARIABLES.map((v) => [v, process.env[v]]));
  const home = writeSessionHome();
  writeSessionWithSecrets(home);
  const session = useStudioInBrowser(() => {
    // The host inherits this environment: its agents' folders are the fixture home's.
    process.env.HOME = home;
    process.env.USERPROFILE = home;
    for (const v of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME'] as const) delete process.env[v];
    const workspace = join(mkdtempSync(join(tmpdir(), 'wl-sessions-e2e-')), 'sessions.worldloom');
    return ['--workspace', workspace, '--model', TEST_MODEL];
  });
  afterAll(() => {
    for (const v of AGENT_VARIABLES) {
      if (before[v] === undefined) delete process.env[v];
      else process.env[v] = before[v];
    }
  });

  it('lists the sessions newest first, imports two scrubbed, and replays them into the sim-vs-real report', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1500, height: 1000 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent()).toMatch(/Model: .* · cpu/);

    await page.getByRole('button', { name: 'Sessions…' }).click();
    const panel = page.getByRole('region', { name: 'Sessions on this machine' });
    // Nothing is read until asked.
    expect(await panel.getByRole('table', { name: 'Sessions found' }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Find sessions on this machine' }).click();
    const table = panel.getByRole('table', { name: 'Sessions found' });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(5);
    // Newest first: agent, project, tool calls of each.
    const cells = async (i: number) => (await rows.nth(i).locator('td').allTextContents()).slice(2, 5);
    expect(await cells(0)).toEqual(['Claude Code', '/work/keys', '1']);
    expect(await cells(1)).toEqual(['Codex', '/repo', '3']);
    expect(await cells(2)).toEqual(['Claude Code', '/work/calc', '5']);
    const folders = panel.getByTestId('sessions-folders');
    await folders.locator('summary').click();
    await expect.poll(() => folders.textContent()).toContain(`Codex: ${join(home, '.codex/sessions')}`);
    await expect.poll(() => folders.textContent()).toMatch(/\.config\/claude\/projects.*not there/);

    // Two sessions, scrubbed (the default).
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(1).getByRole('checkbox').check();
    await panel.getByRole('button', { name: 'Import 2 sessions' }).click();
    await expect.poll(() => page.getByText(/secret-session\.jsonl: 1 imported.*scrubbed: 1 API keys, 1 e-mail addresses/).count(), { timeout: 60_000 }).toBe(1);
    const list = page.getByRole('list', { name: 'Trajectories' });
    await expect.poll(() => list.getByRole('button').count()).toBeGreaterThanOrEqual(2);
    await expect.poll(async () => (await page.content()).includes(SESSION_SECRETS.apiKey)).toBe(false);

    // One action replays what came in and opens the report.
    await panel.getByRole('button', { name: 'Replay 2 imported sessions with the loaded model' }).click();
    const report = page.getByRole('dialog', { name: 'Sim vs real over recorded sessions' });
    await expect.poll(() => report.getByTestId('corpus-summary').textContent(), { timeout: 120_000 }).toMatch(/^2 trajectories · \d+ steps compared/);
    expect(errors).toEqual([]);
  });
});
