import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, NO_CHROMIUM, ROOT, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';

const CAST = join(ROOT, 'src-main', 'formats', 'asciinema', 'fixtures', 'build-session.cast');
const sandboxed = existsSync('/usr/bin/bwrap');

describe.skipIf(NO_CHROMIUM !== '')(`sim vs real in the host UI${NO_CHROMIUM}`, () => {
  let title = '';
  const session = useStudioInBrowser(() => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-compare-e2e-'));
    const workspace = join(dir, 'compare.worldloom');
    if (sandboxed) {
      // A user records a real terminal session from a script…
      const script = join(dir, 'session.sh');
      writeFileSync(script, 'mkdir project && cd project\necho "hello" > notes.txt\nls\ncat notes.txt\n');
      title = 'e2e session';
      execFileSync(process.execPath, [CLI, 'record', 'terminal', '--workspace', workspace, '--script', script, '--title', title], { stdio: 'pipe' });
    } else {
      // …or, without bubblewrap, imports a recorded asciinema cast.
      execFileSync(process.execPath, [CLI, 'import', CAST, '--workspace', workspace], { stdio: 'pipe' });
      title = 'build-session';
    }
    return ['--workspace', workspace, '--model', TEST_MODEL];
  });

  it('replays a recorded terminal session and walks its divergences side by side', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent()).toMatch(/Model: .* · cpu/);
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: new RegExp(title) }).click();

    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const view = page.getByRole('dialog', { name: 'Sim vs real' });
    await view.waitFor({ timeout: 90_000 });
    await expect.poll(() => view.getByTestId('compare-step').textContent()).toMatch(/^Step 1 of \d+ · diverged/);

    // The timeline, the Monaco diff of simulated against real, and two terminal panes.
    await view.getByRole('img', { name: 'Divergence timeline' }).waitFor();
    await view.locator('.monaco-diff-editor').waitFor();
    await view.getByTestId('terminal-real').locator('.xterm').waitFor();
    await expect.poll(() => view.getByTestId('compare-sandbox').textContent()).toMatch(sandboxed ? /bubblewrap/ : /Real terminal/);
    await expect.poll(() => view.getByRole('table', { name: 'Metrics of this step' }).textContent()).toMatch(/edit similarity/);

    // The tiny test model diverges everywhere: "n" moves to the next step, "p" back.
    await page.keyboard.press('n');
    await expect.poll(() => view.getByTestId('compare-step').textContent()).toMatch(/^Step 2 of/);
    await page.keyboard.press('p');
    await expect.poll(() => view.getByTestId('compare-step').textContent()).toMatch(/^Step 1 of/);

    await page.keyboard.press('Escape');
    await expect.poll(() => view.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
