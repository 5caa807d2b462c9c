// The studio's rough edges, as a curator meets them at 1440×900 in Chromium against
// `worldloom serve`: notices that cover buttons, two Close buttons, keys that stop working,
// a toolbar on two lines, a light editor without icons, a staircase tree, raw JSON actions.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CLI, NO_CHROMIUM, ROOT, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';
import { tree } from './support/studio-page';

const VIEWPORT = { width: 1440, height: 900 };
const DEEP_STEPS = 40;

/** A terminal session of `steps` turns in the AgentWorldBench layout: a chain as deep as it is long. */
function deepSession(steps: number): string {
  const actions = Array.from({ length: steps }, (_, i) => `echo step ${i + 1} >> progress.log`);
  const prompt = actions.map((a, i) => `## Turn ${i + 1}\n\n**Action:**\n${a}`);
  const response = actions.map(() => '**Environment Observation:**\n');
  return (
    actions
      .map((_, i) =>
        JSON.stringify({
          task: 'agentworld/terminal',
          id: 'deep-session',
          prompt,
          response,
          current_prompt: prompt[i],
          system_str: 'You simulate a Linux terminal.',
          turn_idx: i + 1,
          total_turns: steps,
        }),
      )
      .join('\n') + '\n'
  );
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

/** Scrolls to a control, trying again while a re-render replaces it under the locator. */
async function scrollTo(locator: Locator): Promise<void> {
  await expect
    .poll(() =>
      locator.scrollIntoViewIfNeeded({ timeout: 2_000 }).then(
        () => true,
        () => false,
      ),
    )
    .toBe(true);
}

async function openTrajectoryNamed(page: Page, name: RegExp): Promise<void> {
  await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name }).click();
  await tree(page).waitFor();
}

function selectedRow(page: Page) {
  return tree(page).locator('[role="treeitem"][aria-selected="true"]');
}

describe.skipIf(NO_CHROMIUM !== '')(`rough edges of the studio in the host UI${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser(() => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-rough-e2e-'));
    const workspace = join(dir, 'rough.worldloom');
    const deep = join(dir, 'deep_test.jsonl');
    writeFileSync(deep, deepSession(DEEP_STEPS));
    for (const file of [join(ROOT, 'e2e', 'fixtures', 'terminal_test.jsonl'), join(ROOT, 'src-main', 'formats', 'mcp-jsonrpc-log', 'fixtures', 'notes-server.mcp.jsonl'), deep]) {
      execFileSync(process.execPath, [CLI, 'import', file, '--workspace', workspace], { stdio: 'pipe' });
    }
    return ['--workspace', workspace, '--model', TEST_MODEL];
  });

  async function studioPage(): Promise<{ page: Page; errors: string[] }> {
    const page = await session.browser.newPage({ viewport: VIEWPORT });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.locator('.toolbar').waitFor();
    return { page, errors };
  }

  it('keeps the toolbar on one line at 1440 px, with the model loaded and a step selected', async () => {
    const { page, errors } = await studioPage();
    await expect.poll(() => page.locator('.model-button').textContent(), { timeout: 60_000 }).toMatch(/Model: .* · cpu/);
    await openTrajectoryNamed(page, /term-0001/);
    await tree(page).getByRole('treeitem').filter({ hasText: 'cat notes.txt' }).click();
    await page.getByRole('button', { name: 'Run real…' }).waitFor();

    const toolbar = await box(page.locator('.toolbar'));
    const items = page.locator('.toolbar > *:visible');
    const boxes = await Promise.all((await items.all()).map((item) => box(item)));
    expect(boxes.length).toBeGreaterThan(10);
    // One row: every item's middle on one line, no label broken over two lines, nothing past the edge.
    const middles = boxes.map((b) => b.y + b.height / 2);
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);
    expect(Math.max(...boxes.map((b) => b.height))).toBeLessThan(36);
    expect(Math.max(...boxes.map((b) => b.x + b.width))).toBeLessThanOrEqual(VIEWPORT.width);
    expect(toolbar.height).toBeLessThan(52);
    expect(errors).toEqual([]);
  });

  it('dismisses information by itself, keeps errors until closed, and covers no button', async () => {
    const { page, errors } = await studioPage();
    await openTrajectoryNamed(page, /term-0001/);
    await tree(page).getByRole('treeitem').filter({ hasText: 'cat notes.txt' }).click();
    const simulate = page.getByRole('button', { name: 'Simulate', exact: true });
    // Opening the step re-renders the panel, so the button may be replaced while it is scrolled to.
    await scrollTo(simulate);

    // A file that holds no trajectory: an error, which must stay.
    await page.getByTestId('import-input').setInputFiles({ name: 'broken_test.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from('{"not": "a trajectory"}\n') });
    const error = page.locator('.notice-error[role="alert"]').filter({ hasText: 'broken_test.jsonl' });
    await error.waitFor();
    // A file already in the workspace: information, which goes away by itself.
    await page.getByTestId('import-input').setInputFiles(join(ROOT, 'e2e', 'fixtures', 'terminal_test.jsonl'));
    const info = page.locator('.notice-info[role="status"]').filter({ hasText: 'terminal_test.jsonl' });
    await info.waitFor();

    // Neither covers the Simulate button or any toolbar button; each has a close button.
    // (The import re-renders the panel too.)
    await scrollTo(simulate);
    for (const notice of [error, info]) {
      await notice.getByRole('button', { name: /^Dismiss/ }).waitFor();
      const noticeBox = await box(notice);
      expect(overlaps(noticeBox, await box(simulate))).toBe(false);
      for (const button of await page.locator('.toolbar button:visible').all()) expect(overlaps(noticeBox, await box(button))).toBe(false);
    }
    // The Simulate button is what receives a click at its middle, not a notice.
    const s = await box(simulate);
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.textContent, [s.x + s.width / 2, s.y + s.height / 2])).toBe('Simulate');

    await info.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await error.isVisible()).toBe(true);
    await error.getByRole('button', { name: /^Dismiss/ }).click();
    await error.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('says a trajectory is not replayed, makes the page inert under Sim vs real, and closes it with Esc from anywhere in it', async () => {
    const { page, errors } = await studioPage();
    await expect.poll(() => page.locator('.model-button').textContent(), { timeout: 60_000 }).toMatch(/Model: .* · cpu/);
    await openTrajectoryNamed(page, /term-0002/);
    // The workspace's Close is no toolbar button beside the dialog's: it sits in the Workspace menu and asks first.
    expect(await page.locator('.toolbar').getByRole('button', { name: 'Close', exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Sim vs real' }).click();
    const view = page.getByRole('dialog', { name: 'Sim vs real' });
    await view.waitFor();
    await expect.poll(() => view.getByTestId('compare-summary').textContent()).toMatch(/^2 steps, none compared yet: not replayed/);
    expect(await view.textContent()).not.toMatch(/0 of 2 steps diverged/);

    // Under the dialog the toolbar and panes are inert: a click on Workspace ▾ opens nothing, Tab never lands there.
    expect(await page.locator('.toolbar').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
    expect(await page.locator('.panes').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
    const menuButton = await box(page.getByRole('button', { name: 'Workspace ▾', includeHidden: true }));
    await page.mouse.click(menuButton.x + menuButton.width / 2, menuButton.y + menuButton.height / 2);
    expect(await page.getByRole('menu', { name: 'Workspace' }).count()).toBe(0);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('.toolbar, .panes')))).toBe(false);
    }
    // The studio's own keys sleep under it: `s` stars nothing.
    await page.keyboard.press('s');
    expect(await page.locator('.tree-row .star').count()).toBe(0);

    // Esc from the report's file field closes it.
    await view.getByLabel('Report file (.html or .json)').click();
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    expect(await page.locator('.toolbar').evaluate((el) => (el as HTMLElement).inert)).toBe(false);

    // Replayed, the summary counts what was compared, and Esc from inside the Monaco diff closes the view.
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await view.waitFor({ timeout: 90_000 });
    await expect.poll(() => view.getByTestId('compare-summary').textContent(), { timeout: 90_000 }).toMatch(/^\d of 2 compared steps diverged$/);
    await view.locator('.monaco-diff-editor .monaco-editor').last().click();
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('.monaco-diff-editor')))).toBe(true);
    // n and p work from inside the read-only diff too.
    await page.keyboard.press('n');
    await expect.poll(() => view.getByTestId('compare-step').textContent()).toMatch(/^Step 2 of 2/);
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('asks before closing the workspace, and Esc keeps it open', async () => {
    const { page, errors } = await studioPage();
    await page.getByRole('button', { name: 'Workspace ▾' }).click();
    // The menu also says where the workspace is and what it holds, which a narrow toolbar leaves out.
    await expect.poll(() => page.getByRole('menu', { name: 'Workspace' }).textContent()).toMatch(/rough\.worldloom.*4 trajectories · \d+ steps/);
    // By keyboard: the open menu has the focus on its first item; ↓ then Enter asks to close.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('New trajectory…');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Close the workspace?' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('rough.worldloom');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await page.locator('.workspace-path').waitFor();
    expect(await page.getByLabel('Workspace file').count()).toBe(0);
    // The desktop menu's Close Workspace (an event the Electron menu command raises) asks the same question.
    const asked = await page.evaluate(() => !document.dispatchEvent(new CustomEvent('worldloom:close-workspace', { cancelable: true })));
    expect(asked).toBe(true);
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });

    // Esc closes an open panel too, but not from a field, where it would lose what was typed.
    await page.getByRole('button', { name: 'Workspace ▾' }).click();
    await page.getByRole('menuitem', { name: 'New trajectory…' }).click();
    const form = page.getByRole('form', { name: 'New trajectory' });
    await form.getByLabel('Title').fill('half typed');
    await page.keyboard.press('Escape');
    expect(await form.getByLabel('Title').inputValue()).toBe('half typed');
    await form.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('lists every shortcut in the help, n and Ctrl+Enter included, and Esc closes it', async () => {
    const { page, errors } = await studioPage();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    const keys = await help.locator('kbd').allTextContents();
    for (const key of ['n', 'Ctrl+Enter', 'Esc', '?', 's', 'e', '/', 'Ctrl+Z', 'Ctrl+S']) expect(keys).toContain(key);
    expect(keys.some((k) => k.includes('j k'))).toBe(true);
    expect(await help.locator('th', { hasText: 'Sim vs real' }).count()).toBe(1);
    expect(await page.locator('.toolbar').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('opens a dark editor with its icon font, and after Esc j/k move in the tree again', async () => {
    const { page, errors } = await studioPage();
    const cspViolations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    // Every Monaco editor's background, read in the first frame it is on the page.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { editorBackgrounds: string[] }).editorBackgrounds = seen;
      new MutationObserver((changes) => {
        for (const change of changes)
          for (const node of change.addedNodes)
            if (node instanceof HTMLElement)
              for (const editor of [node, ...node.querySelectorAll<HTMLElement>('.monaco-editor')])
                if (editor.classList.contains('monaco-editor'))
                  requestAnimationFrame(() => seen.push(getComputedStyle(editor.querySelector('.monaco-editor-background') ?? editor).backgroundColor));
      }).observe(document.body, { childList: true, subtree: true });
    });
    await openTrajectoryNamed(page, /term-0001/);
    await tree(page).getByRole('treeitem').filter({ hasText: /ls$/ }).click();
    await expect.poll(() => selectedRow(page).textContent()).toMatch(/ls$/);
    await tree(page).focus();
    await page.keyboard.press('e');
    await page.getByTestId('edit-observation').locator('.monaco-editor').waitFor();

    // Dark from the first frame: no editor was ever drawn on a light background.
    await expect.poll(() => page.evaluate(() => (window as unknown as { editorBackgrounds: string[] }).editorBackgrounds.length)).toBeGreaterThanOrEqual(2);
    const backgrounds = await page.evaluate(() => (window as unknown as { editorBackgrounds: string[] }).editorBackgrounds);
    for (const bg of backgrounds) {
      const [r, g, b] = (bg.match(/\d+/g) ?? ['255', '255', '255']).map(Number);
      expect(r! + g! + b!, `editor background ${bg}`).toBeLessThan(3 * 80);
    }
    // The codicon font is declared, fetched under the page's CSP, and loaded.
    const fonts = await page.evaluate(async () => {
      await document.fonts.ready;
      const codicon = [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'codicon');
      await Promise.all(codicon.map((f) => f.load().catch(() => f)));
      return codicon.map((f) => f.status);
    });
    expect(fonts).toContain('loaded');
    expect(cspViolations).toEqual([]);

    // Esc leaves the editor; the focus is back on the tree, so j moves down and k up at once.
    await page.keyboard.press('Escape');
    await page.getByTestId('edit-observation').waitFor({ state: 'detached' });
    await page.keyboard.press('j');
    await expect.poll(() => selectedRow(page).textContent()).toMatch(/cat notes\.txt/);
    await page.keyboard.press('k');
    await expect.poll(() => selectedRow(page).textContent()).toMatch(/ls$/);

    // With the focus nowhere (a click on plain text), the tree's keys still reach the tree.
    await page.locator('.brand').click();
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => selectedRow(page).textContent()).toMatch(/cat notes\.txt/);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tree');
    expect(errors).toEqual([]);
  });

  it('keeps the action text of a deep step in view, its depth shown as a number', async () => {
    const { page, errors } = await studioPage();
    await openTrajectoryNamed(page, /deep-session/);
    await tree(page).focus();
    await page.keyboard.press('End');
    const last = selectedRow(page);
    await expect.poll(() => last.getAttribute('aria-level')).toBe(String(DEEP_STEPS + 1));
    const text = last.locator('.tree-text');
    expect(await text.textContent()).toBe(`echo step ${DEEP_STEPS} >> progress.log`);
    const pane = await box(tree(page));
    const shown = await box(text);
    // The action starts in the left half of the pane and is whole, inside it.
    expect(shown.x - pane.x).toBeLessThan(pane.width / 2);
    expect(shown.width).toBeGreaterThan(100);
    expect(shown.x + shown.width).toBeLessThanOrEqual(pane.x + pane.width);
    expect((await last.locator('.depth-mark').textContent())?.trim()).toBe(String(DEEP_STEPS));

    // A notice below the panes shortens the tree; the selected row stays in view.
    await page.getByTestId('import-input').setInputFiles(join(ROOT, 'e2e', 'fixtures', 'terminal_test.jsonl'));
    await page.locator('.notice').filter({ hasText: 'terminal_test.jsonl' }).waitFor();
    await expect.poll(async () => (await box(tree(page))).height).toBeLessThan(pane.height);
    const after = await box(tree(page));
    const row = await box(last);
    expect(row.y).toBeGreaterThanOrEqual(after.y);
    expect(row.y + row.height).toBeLessThanOrEqual(after.y + after.height + 1);
    expect(errors).toEqual([]);
  });

  it('shows MCP tool calls as name(arg: value), the exact JSON one click away, as text', async () => {
    const { page, errors } = await studioPage();
    await openTrajectoryNamed(page, /notes-server/);
    const rows = await tree(page).locator('.tree-row:not([aria-level="1"]) .tree-text').allTextContents();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.trim()).toMatch(/^[\w.-]+\(.*\)$/);
      expect(row).not.toMatch(/"arguments"/);
    }
    await tree(page).locator('.tree-row:not([aria-level="1"])').first().click();
    const action = page.getByTestId('node-action');
    await expect.poll(() => action.textContent()).toMatch(/^[\w.-]+\(.*\)$/);
    await page.getByText('Exact JSON').click();
    const json = JSON.parse((await page.getByTestId('node-action-json').textContent())!) as { name: string; arguments: unknown };
    expect((await action.textContent())!.startsWith(`${json.name}(`)).toBe(true);
    expect(await page.getByTestId('node-action').locator('*').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('says it is searching while a search runs, never "0 nodes found" before the result', async () => {
    const { page, errors } = await studioPage();
    // Every text the search status shows, in order.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { searchStatuses: string[] }).searchStatuses = seen;
      new MutationObserver(() => {
        const status = document.querySelector('.search-results [role="status"]')?.textContent ?? '';
        if (status && seen.at(-1) !== status) seen.push(status);
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await page.getByLabel('Search the workspace').pressSequentially('notes', { delay: 30 });
    await expect.poll(() => page.locator('.search-results [role="status"]').textContent()).toMatch(/^[1-9]\d* nodes? found/);
    const statuses = await page.evaluate(() => (window as unknown as { searchStatuses: string[] }).searchStatuses);
    expect(statuses[0]).toBe('Searching…');
    expect(statuses.filter((s) => /^0 nodes found/.test(s))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
