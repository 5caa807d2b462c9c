import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_CHROMIUM, ROOT, useStudioInBrowser, watchPageErrors } from './support/host';
import { createWorkspace, importFile, openTrajectory, tree } from './support/studio-page';

// An ATIF run with a harness turn (mark_task_complete) and the agent's closing message.
const atif = join(ROOT, 'src-main', 'formats', 'atif', 'fixtures', 'trajectory.json');

describe.skipIf(NO_CHROMIUM !== '')(`someone importing another tool's trajectory in the host UI${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser();

  it('reads in the import report what was left out on purpose, and why, beside what came in', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = watchPageErrors(page);
    await createWorkspace(page, session.studio.url, join(session.studio.dir, 'report.worldloom'));
    await importFile(page, atif, 'trajectory.json: 1 imported, 3 parts left out on purpose (atif)');
    const report = page.getByRole('status').filter({ hasText: 'parts left out on purpose' }).first();
    await expect.poll(() => report.textContent()).toContain('Left out, step 5 (the harness call mark_task_complete and its answer: Task marked complete.)');
    await expect.poll(() => report.textContent()).toContain("step 1 (the agent's system prompt)");
    // The harness turn is not in the tree: the root and the three commands are.
    await openTrajectory(page, /terminus-2/);
    await expect.poll(() => tree(page).getByRole('treeitem').count()).toBe(4);
    expect(errors).toEqual([]);
  });
});
