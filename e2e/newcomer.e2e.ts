// What a new user meets first, at 1280×800 in Chromium against `worldloom serve` (issue 49):
// no failed request on load, a toolbar that fits, Model, Export and Evaluation as dialogs over
// the workspace, an export that says what it holds before it runs, an Evaluation panel that
// explains itself, settings that never change unseen, and the embedded model named a demo.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ENDLESS_MODEL, importedWorkspace, NO_CHROMIUM, ROOT, TEST_MODEL, useStudioInBrowser, watchPageErrors } from './support/host';
import { openTrajectory, selectStep, tree } from './support/studio-page';

const VIEWPORT = { width: 1280, height: 800 };

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

/** Every response of the page that failed (4xx/5xx), as "status url". */
function watchFailedRequests(page: Page): string[] {
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url().replace(/token=[^&]+/, 'token=…')}`);
  });
  return failed;
}

describe.skipIf(NO_CHROMIUM !== '')(`a new user's first steps in the host UI${NO_CHROMIUM}`, () => {
  const workspace = importedWorkspace('newcomer');
  const session = useStudioInBrowser(() => ['--workspace', workspace, '--model', TEST_MODEL]);

  async function studioPage(): Promise<{ page: Page; errors: string[]; failed: string[] }> {
    const page = await session.browser.newPage({ viewport: VIEWPORT });
    const errors = watchPageErrors(page);
    const failed = watchFailedRequests(page);
    await page.goto(session.studio.url);
    await page.locator('.toolbar').waitFor();
    await expect.poll(() => page.locator('.model-button').textContent(), { timeout: 60_000 }).toMatch(/Model: .* · cpu/);
    return { page, errors, failed };
  }

  it('loads without a failed request, and keeps the whole toolbar on one line at 1280 px with a step selected', async () => {
    const { page, errors, failed } = await studioPage();
    await openTrajectory(page, /term-0001/);
    await selectStep(page, 'cat notes.txt');
    await page.getByRole('button', { name: 'Run real…' }).waitFor();
    // The page asks for its icon by name; nothing it loads answers 404 (the favicon did).
    expect(failed).toEqual([]);

    const items = page.locator('.toolbar > *:visible');
    const boxes = await Promise.all((await items.all()).map((item) => box(item)));
    const middles = boxes.map((b) => b.y + b.height / 2);
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);
    expect(Math.max(...boxes.map((b) => b.x + b.width))).toBeLessThanOrEqual(VIEWPORT.width);
    // The workspace reads as its file name (the full path on hover), and the last control, ?, is on screen.
    expect(await page.getByTestId('workspace-path').textContent()).toBe('newcomer.worldloom');
    expect(await page.getByTestId('workspace-path').getAttribute('title')).toBe(workspace);
    const help = await box(page.getByRole('button', { name: 'Keyboard shortcuts' }));
    expect(help.x + help.width).toBeLessThanOrEqual(VIEWPORT.width);
    // The model's name is whole, not cut by an ellipsis.
    const model = page.locator('.model-button');
    expect(await model.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('opens Model, Export and Evaluation as dialogs over the workspace, which keeps its place; × and Esc close them', async () => {
    const { page, errors } = await studioPage();
    await openTrajectory(page, /term-0001/);
    const panesTop = (await box(page.locator('.panes'))).y;
    for (const [button, title] of [
      [page.locator('.model-button'), 'World model'],
      [page.getByRole('button', { name: 'Export…' }), 'Export dataset'],
      [page.getByRole('button', { name: 'Evaluation' }), 'Evaluation'],
    ] as const) {
      await button.click();
      const dialog = page.getByRole('dialog', { name: title });
      await dialog.getByRole('heading', { name: title }).waitFor();
      // Not a band above the panes: the tree and the inspector stay where they were.
      expect((await box(page.locator('.panes'))).y).toBe(panesTop);
      await dialog.getByRole('button', { name: `Close the ${title} dialog` }).click();
      await expect.poll(() => dialog.count()).toBe(0);
    }
    await page.locator('.model-button').click();
    await page.getByRole('dialog', { name: 'World model' }).waitFor();
    await tree(page).press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'World model' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('names the export by a file name, not a path on the server, and says what it holds before exporting', async () => {
    const { page, errors } = await studioPage();
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('form', { name: 'Export dataset' });
    const name = dialog.getByLabel(/Export as \(name of the \.zip your browser saves\)/);
    await expect.poll(() => name.inputValue()).toBe('newcomer-dataset');
    await expect.poll(() => dialog.getByTestId('dataset-count').textContent()).toBe('5 examples from 2 trajectories: 5 real');
    // A simulated step nobody reviewed is counted as such before anything is written.
    await page.getByRole('dialog', { name: 'Export dataset' }).getByRole('button', { name: 'Close the Export dataset dialog' }).click();
    await openTrajectory(page, /term-0001/);
    await selectStep(page, 'cat notes.txt');
    const form = page.getByRole('form', { name: 'Simulate an action' });
    // The model's own budget: a sample cut short by a tiny one would be left out of exports.
    await form.getByLabel('Action').fill('whoami');
    await form.getByRole('button', { name: 'Simulate', exact: true }).click();
    await expect.poll(() => tree(page).getByRole('treeitem').filter({ hasText: 'whoami' }).count(), { timeout: 60_000 }).toBe(1);
    await page.getByRole('button', { name: 'Export…' }).click();
    await expect.poll(() => dialog.getByTestId('dataset-count').textContent()).toBe('6 examples from 2 trajectories: 5 real, 1 simulated not reviewed');
    expect(await dialog.getByTestId('dataset-unreviewed').textContent()).toContain('`not simulated or reviewed` leaves them out');
    expect(errors).toEqual([]);
  });

  it('explains the Evaluation panel, says why Start waits, names the model as everywhere else, and runs on the demo benchmark', async () => {
    const { page, errors } = await studioPage();
    await page.getByRole('button', { name: 'Evaluation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Evaluation' });
    await dialog.getByRole('heading', { name: 'Evaluation' }).waitFor();
    expect(await dialog.locator('.eval-about').textContent()).toMatch(/Scores the loaded world model on AgentWorldBench/);
    const form = page.getByRole('form', { name: 'Run an evaluation' });
    // The model as the toolbar names it (its folder), not its architecture.
    await expect.poll(() => form.getByTestId('eval-model').textContent()).toBe('Model: tiny-chat');
    const start = form.getByRole('button', { name: 'Start evaluation' });
    expect(await start.isDisabled()).toBe(true);
    expect(await form.getByTestId('eval-start-why').textContent()).toBe('Give the data folder (or use the demo benchmark).');
    // In a browser the file picker sends the chosen <domain>_test.jsonl files to the machine running Worldloom.
    await form.getByTestId('benchmark-files').setInputFiles(join(ROOT, 'resources', 'demo', 'agentworldbench', 'terminal_test.jsonl'));
    await expect.poll(() => form.getByLabel('Data folder').inputValue()).toMatch(/worldloom-benchmark-[^\\/]+$/);
    await form.getByRole('button', { name: 'Use the demo benchmark' }).click();
    expect(await form.getByLabel('Data folder').inputValue()).toMatch(/resources[\\/]demo[\\/]agentworldbench$/);
    await form.getByLabel('Output folder').fill(join(mkdtempSync(join(tmpdir(), 'wl-newcomer-eval-')), 'run'));
    await form.getByLabel('Cases').fill('2');
    await form.getByLabel('Max new tokens').fill('6');
    expect(await form.getByTestId('eval-start-why').count()).toBe(0);
    await start.click();
    await expect.poll(() => form.getByTestId('eval-run-end').textContent(), { timeout: 120_000 }).toContain('Done: 2 predicted');
    await page.getByRole('table', { name: 'Scores' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('says where Samples and Seed come from when the user did not set them: a reload keeps them, a resample picks a new seed', async () => {
    const { page, errors } = await studioPage();
    await openTrajectory(page, /term-0002/);
    await selectStep(page, 'mkdir build');
    const form = page.getByRole('form', { name: 'Simulate an action' });
    await form.getByLabel('Action').fill('ls');
    await form.getByLabel('Samples').fill('2');
    await form.getByLabel('Max tokens').fill('8');
    expect(await form.getByTestId('draft-set-by').count()).toBe(0);
    await form.getByRole('button', { name: 'Simulate ×2' }).click();
    const samples = tree(page).getByRole('treeitem').filter({ has: page.getByTestId('sibling-label') });
    await expect.poll(() => samples.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);

    // After a reload the panel opens as it was last run, and says so beside the fields.
    await page.reload();
    await openTrajectory(page, /term-0002/);
    await selectStep(page, 'mkdir build');
    await expect.poll(() => form.getByTestId('draft-set-by').textContent()).toMatch(/^Samples 2 and seed \d+: as this workspace last ran them$/);
    // Typing a value takes the note away: the fields now hold what the user chose.
    await form.getByLabel('Samples').fill('1');
    expect(await form.getByTestId('draft-set-by').count()).toBe(0);

    // A resample draws a fresh seed: the field changes, and says why.
    const seedBefore = await form.getByLabel('Seed').inputValue();
    await samples.first().click();
    await form.getByLabel('Max tokens').fill('8');
    await form.getByRole('button', { name: /^Resample ×1$/ }).click();
    await expect.poll(() => form.getByLabel('Seed').inputValue(), { timeout: 60_000 }).not.toBe(seedBefore);
    expect(await form.getByTestId('draft-set-by').textContent()).toMatch(new RegExp(`^Seed \\d+: the fresh seed the last resample used \\(it was ${seedBefore}\\)$`));
    expect(errors).toEqual([]);
  });

  it('reads a replayed trajectory at a glance: labelled timeline axes, each prediction just before the step it predicts, in step order, marks never cut off', async () => {
    const { page, errors } = await studioPage();
    await openTrajectory(page, /term-0001/);
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const view = page.getByRole('dialog', { name: 'Sim vs real' });
    await view.waitFor({ timeout: 90_000 });
    // The timeline says what its axes are.
    const chart = view.getByRole('figure', { name: 'Similarity to the real observation by step' });
    expect(await chart.textContent()).toMatch(/1\s*similarity to real\s*0.*step 1.*step of the trajectory.*diverged.*step 3/s);
    await page.keyboard.press('Escape');
    await expect.poll(() => view.count()).toBe(0);

    // Rows: each simulated prediction sits right before the recorded step of the same action, in step order.
    const rows = tree(page).getByRole('treeitem');
    await expect.poll(() => rows.filter({ hasText: 'simulated' }).count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    const shown = await rows.evaluateAll((els) => els.map((el) => ({ origin: el.querySelector('.badge')!.textContent, text: el.querySelector('.tree-text')!.textContent })));
    const predicted = shown.flatMap((row, i) => (row.origin === 'simulated' && shown[i + 1]?.origin === 'imported' && shown[i + 1]!.text === row.text ? [row.text] : []));
    expect(predicted).toEqual(['ls', 'cat notes.txt', 'cat missing.txt']);

    // A long action gives way in its row; its star stays whole inside the tree.
    await selectStep(page, 'cat missing.txt');
    const form = page.getByRole('form', { name: 'Simulate an action' });
    const long = `echo ${'a-long-argument '.repeat(30)}`;
    await form.getByLabel('Action').fill(long);
    await form.getByRole('button', { name: 'Simulate', exact: true }).click();
    const row = rows.filter({ hasText: 'a-long-argument' });
    await expect.poll(() => row.count(), { timeout: 60_000 }).toBe(1);
    await row.click();
    await tree(page).press('s');
    const star = row.getByLabel('starred');
    await star.waitFor();
    const pane = await box(tree(page));
    const starBox = await box(star);
    expect(starBox.x + starBox.width).toBeLessThanOrEqual(pane.x + pane.width);
    expect(starBox.width).toBeGreaterThan(4);
    expect(errors).toEqual([]);
  });
});

describe.skipIf(NO_CHROMIUM !== '')(`the embedded model, introduced as a demo${NO_CHROMIUM}`, () => {
  // No --model: `worldloom serve` loads the embedded worldloom-nano, as `npm start` does.
  const session = useStudioInBrowser(() => ['--workspace', importedWorkspace('demo-model')]);

  it('says where predictions are made that worldloom-nano is a small demo, and what to load for real ones', async () => {
    const page = await session.browser.newPage({ viewport: VIEWPORT });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent(), { timeout: 120_000 }).toMatch(/Model: worldloom-nano/);
    await openTrajectory(page, /term-0001/);
    await selectStep(page, 'cat notes.txt');
    const note = page.getByRole('form', { name: 'Simulate an action' }).getByTestId('demo-model-note');
    await expect.poll(() => note.textContent()).toMatch(/worldloom-nano is a small demo model.*often wrong.*Qwen-AgentWorld-35B-A3B.*GGUF file.*vLLM/);
    // The model dialog says it too.
    await page.locator('.model-button').click();
    await page.getByRole('dialog', { name: 'World model' }).getByTestId('demo-model-note').waitFor();
    expect(errors).toEqual([]);
  });
});

describe.skipIf(NO_CHROMIUM !== '')(`the toolbar while a replay runs${NO_CHROMIUM}`, () => {
  // A model that never ends its reply: the replay keeps running until Stop, so its state can be looked at.
  const session = useStudioInBrowser(() => ['--workspace', importedWorkspace('replaying'), '--model', ENDLESS_MODEL]);

  it('keeps every control on one line at 1280 px, the model name whole and ? on screen, while the replay shows its progress', async () => {
    const page = await session.browser.newPage({ viewport: VIEWPORT });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent(), { timeout: 60_000 }).toMatch(/Model: .* · cpu/);
    await openTrajectory(page, /term-0001/);
    await selectStep(page, 'cat notes.txt');
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const job = page.getByTestId('reality-job');
    await job.waitFor();
    const boxes = await Promise.all((await page.locator('.toolbar > *:visible').all()).map((item) => box(item)));
    const middles = boxes.map((b) => b.y + b.height / 2);
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);
    expect(Math.max(...boxes.map((b) => b.x + b.width))).toBeLessThanOrEqual(VIEWPORT.width);
    expect(await page.locator('.model-button').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const help = await box(page.getByRole('button', { name: 'Keyboard shortcuts' }));
    expect(help.x + help.width).toBeLessThanOrEqual(VIEWPORT.width);
    // The file name keeps a readable part: not shrunk to "/…".
    expect((await box(page.getByTestId('workspace-path'))).width).toBeGreaterThan(40);
    await job.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => job.count(), { timeout: 60_000 }).toBe(0);
    expect(errors).toEqual([]);
  });
});
