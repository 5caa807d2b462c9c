import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NO_CHROMIUM, ROOT, useStudioInBrowser, watchPageErrors } from './support/host';
import { createWorkspace, importFile, openTrajectory, selectStep, tree } from './support/studio-page';

const fixture = join(ROOT, 'e2e', 'fixtures', 'terminal_test.jsonl');

/** The contract methods a page calls, in order, from the moment this is called. */
function callsOf(page: Page): string[] {
  const methods: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      const method = (JSON.parse(String(payload)) as { method?: string }).method;
      if (method) methods.push(method);
    }),
  );
  return methods;
}

describe.skipIf(NO_CHROMIUM !== '')(`two tabs on one studio${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser();

  it('a step added in one tab appears in the other, and neither reads the tree again for it', async () => {
    const a = await session.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = watchPageErrors(a);
    await createWorkspace(a, session.studio.url, join(session.studio.dir, 'changes.worldloom'));
    await importFile(a, fixture, 'terminal_test.jsonl: 2 imported');
    await openTrajectory(a, /term-0001/);

    const b = await session.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const bCalls = callsOf(b);
    await b.goto(session.studio.url);
    await openTrajectory(b, /term-0001/);
    await expect.poll(() => tree(b).getByRole('treeitem').count()).toBe(4);
    const stepsShown = async () => Number(/(\d+) steps/.exec((await b.getByText(/trajectories · \d+ steps/).textContent()) ?? '')?.[1]);
    const stepsBefore = await stepsShown();

    const aCalls = callsOf(a);
    await a.reload();
    await openTrajectory(a, /term-0001/);
    await selectStep(a, 'cat missing.txt');
    const before = { a: aCalls.length, b: bCalls.length };
    const form = a.getByRole('form', { name: 'Add a step by hand' });
    await form.getByLabel('Action').fill('ls');
    await form.getByLabel('Observation').fill('notes.txt');
    await form.getByRole('button', { name: 'Add step' }).click();

    await expect.poll(() => tree(a).getByRole('treeitem').count()).toBe(5);
    await expect.poll(() => tree(b).getByRole('treeitem').count()).toBe(5);
    await expect.poll(stepsShown).toBe(stepsBefore + 1);
    // The tab that added it made the one call that adds (besides what selecting the step
    // fetches for the inspector); the tab that was told made none. Neither read the tree or the list again.
    const rereads = ['trajectory.outline', 'trajectory.get', 'trajectory.list', 'workspace.info'];
    expect(aCalls.slice(before.a)).toContain('node.addManual');
    expect(aCalls.slice(before.a).filter((m) => rereads.includes(m))).toEqual([]);
    expect(bCalls.slice(before.b)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
