// A reasoning world model through a server, as a user meets it: the model thinks for about
// 3,000 tokens before it answers (Qwen-AgentWorld thinks for thousands), streamed live.
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeVllm, type FakeServer } from '../src-main/testing/fake-vllm-server';
import { importedWorkspace, NO_CHROMIUM, useStudioInBrowser, watchPageErrors } from './support/host';
import { openTrajectory, selectStep, tree } from './support/studio-page';

/** About 3,000 stream pieces (one per word, as the test server counts tokens), numbered so a cut is visible. */
const REASONING_WORDS = 3000;
function reasoning(): string {
  const words = Array.from({ length: REASONING_WORDS }, (_, i) => `w${i}`);
  const lines: string[] = [];
  for (let i = 0; i < words.length; i += 20) lines.push(words.slice(i, i + 20).join(' '));
  return lines.join('\n');
}
const OBSERVATION = 'predicted-listing.txt';

/** The reasoning the inspector shows with a stored node. */
function keptReasoning(page: Page) {
  return page.locator('.inspector-body > details').filter({ has: page.locator('summary', { hasText: /^Reasoning$/ }) });
}

describe.skipIf(NO_CHROMIUM !== '')(`a reasoning world model in the host UI${NO_CHROMIUM}`, () => {
  let server: FakeServer | undefined;
  const session = useStudioInBrowser(async () => {
    server = await startFakeVllm({
      models: [{ id: 'agentworld-test', max_model_len: 65_536 }],
      chunkDelayMs: 2,
      reply: () => ({ reasoning: reasoning(), content: `<predicted_observation>\n${OBSERVATION}\n</predicted_observation>` }),
    });
    return ['--workspace', importedWorkspace('reasoning'), '--model', server.url];
  });
  afterAll(async () => server?.close());

  it('simulates with the model’s defaults, shows the reasoning apart while it streams, and stores the observation', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await expect.poll(() => page.locator('.model-button').textContent()).toMatch(/agentworld-test/);
    await openTrajectory(page, /term-0002/);
    await selectStep(page, 'mkdir build');
    const before = await tree(page).getByRole('treeitem').count();

    const form = page.getByRole('form', { name: 'Simulate an action' });
    // No small baked-in budget: a reasoning model gets the reasoning-model default.
    await expect.poll(() => form.getByLabel('Max tokens').inputValue()).toBe('32768');
    await form.getByLabel('Action').fill('ls');
    await form.getByRole('button', { name: 'Simulate', exact: true }).click();

    // While it streams, the reasoning shows apart, collapsed, and the observation waits for it.
    const stream = page.getByTestId('simulation-stream').first();
    await stream.getByTestId('sample-reasoning').waitFor();
    await expect.poll(() => stream.getByTestId('sample-reasoning').locator('summary').textContent()).toMatch(/Reasoning \(thinking…\)/);
    await expect.poll(() => stream.getByTestId('sample-observation').textContent()).toBe('(the observation follows the reasoning)');
    await expect.poll(async () => Number(((await stream.getByTestId('sample-tokens').textContent()) ?? '').replace(/[^\d].*$/, '').replace(/,/g, ''))).toBeGreaterThan(0);
    // `x` opens the reasoning: it is the model's thinking, as text.
    await page.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('x');
    await expect.poll(() => stream.getByTestId('sample-reasoning-text').textContent()).toMatch(/^w0 w1 w2/);
    expect(await stream.getByTestId('sample-observation').textContent()).not.toContain('w1');

    await expect.poll(() => tree(page).getByRole('treeitem').count(), { timeout: 60_000 }).toBe(before + 1);
    await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('simulated');
    await page.getByRole('tab', { name: 'Raw text' }).click();
    await expect.poll(() => page.getByTestId('node-observation').textContent()).toBe(OBSERVATION);
    // The reasoning is kept with the node, apart from its observation.
    const kept = keptReasoning(page);
    await kept.locator('summary').click();
    await expect.poll(() => kept.locator('pre').textContent()).toMatch(/^w0 w1/);

    // The exact prompt it was simulated from, as text.
    await page.getByText('Show the exact prompt').click();
    await expect.poll(() => page.getByTestId('prompt-message').last().textContent()).toContain('ls');
    expect(await page.getByTestId('exact-prompt').textContent()).toContain('**Action:**');
    // Copyable: the messages as a chat `messages` array.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy the messages' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { role: string; content: string }[];
    expect(copied.at(-1)).toMatchObject({ role: 'user' });
    expect(copied.at(-1)!.content).toMatch(/\*\*Action:\*\*\nls$/);
    expect(errors).toEqual([]);
  });

  it('says samples ran out of tokens while reasoning, stores nothing, then Continue and a larger budget complete them', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await openTrajectory(page, /term-0001/);
    await selectStep(page, 'cat notes.txt');
    const before = await tree(page).getByRole('treeitem').count();

    const form = page.getByRole('form', { name: 'Simulate an action' });
    await form.getByLabel('Max tokens').fill('2000');
    await form.getByLabel('Samples').fill('2');
    await form.getByLabel('Action').fill('ls -a');
    await form.getByRole('button', { name: 'Simulate ×2' }).click();
    // Both samples stream side by side.
    await expect.poll(() => page.getByTestId('simulation-stream').count()).toBe(2);

    const notices = page.getByTestId('incomplete-sample');
    await expect.poll(() => notices.count(), { timeout: 60_000 }).toBe(2);
    expect(await notices.first().textContent()).toMatch(/Sample 1 ran out of tokens while reasoning \(2,?000 used\)/);
    expect(await tree(page).getByRole('treeitem').count()).toBe(before);
    // The partial reasoning stays viewable, and it stops where the budget did.
    await notices.first().getByText('Partial reasoning').click();
    const partial = (await notices.first().getByTestId('sample-reasoning-text').textContent()) ?? '';
    expect(partial).toContain('w1990');
    expect(partial).not.toContain('w2500');
    // The budget is remembered for the workspace: a run does not reset it.
    expect(await form.getByLabel('Max tokens').inputValue()).toBe('2000');
    expect(await form.getByLabel('Samples').inputValue()).toBe('2');

    // Continue resumes sample 1 where it stopped; sample 2 still waits, so the view stays here.
    await notices.first().getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => tree(page).getByRole('treeitem').count(), { timeout: 60_000 }).toBe(before + 1);
    await expect.poll(() => notices.count()).toBe(1);
    // A retry starts over with twice the budget, enough this time.
    await notices.first().getByRole('button', { name: 'Retry with a larger budget (4,000)' }).click();
    await expect.poll(() => tree(page).getByRole('treeitem').count(), { timeout: 60_000 }).toBe(before + 2);
    await expect.poll(() => notices.count()).toBe(0);

    // Both are whole states: the observation, and all of the reasoning, the part before the cut too.
    const stored = tree(page).getByRole('treeitem').filter({ hasText: 'ls -a' });
    expect(await stored.count()).toBe(2);
    for (const row of await stored.all()) {
      await row.click();
      await expect.poll(() => page.getByTestId('node-origin').textContent()).toBe('simulated');
      await page.getByRole('tab', { name: 'Raw text' }).click();
      await expect.poll(() => page.getByTestId('node-observation').textContent()).toBe(OBSERVATION);
      const kept = keptReasoning(page);
      await kept.locator('summary').click();
      await expect.poll(() => kept.locator('pre').textContent()).toMatch(/^w0 w1[\s\S]*w1999\s+w2000[\s\S]*w2999$/);
    }

    await page.reload();
    await openTrajectory(page, /term-0001/);
    await selectStep(page, 'cat notes.txt');
    await expect.poll(() => form.getByLabel('Max tokens').inputValue()).toBe('2000');
    expect(errors).toEqual([]);
  });

  it('switches thinking off for the workspace: the model answers at once, without reasoning', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.locator('.model-button').click();
    await expect.poll(() => page.getByTestId('model-recommends').textContent()).toContain('can reason before it answers');
    await page.locator('.model-button').click();
    await openTrajectory(page, /term-0002/);
    await selectStep(page, 'pwd');
    const before = await tree(page).getByRole('treeitem').count();

    const form = page.getByRole('form', { name: 'Simulate an action' });
    await form.getByLabel('Thinking').uncheck();
    await form.getByLabel('Samples').fill('1');
    await form.getByLabel('Action').fill('whoami');
    await form.getByRole('button', { name: 'Simulate', exact: true }).click();
    await expect.poll(() => tree(page).getByRole('treeitem').count(), { timeout: 60_000 }).toBe(before + 1);
    await page.getByRole('tab', { name: 'Raw text' }).click();
    await expect.poll(() => page.getByTestId('node-observation').textContent()).toBe(OBSERVATION);
    expect(await keptReasoning(page).count()).toBe(0);
    await page.getByText('Show the exact prompt').click();
    await expect.poll(() => page.getByTestId('exact-prompt').textContent()).toContain('"enable_thinking":false');
    expect(errors).toEqual([]);
  });
});
