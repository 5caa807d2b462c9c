// Agents in the simulated world, as a user sees them in the studio: a policy expands a node
// three levels deep from the Expand… dialog; an MCP agent's session through
// `worldloom mcp-serve` appears as a path with its injected perturbation marked; a request
// to `serve --openai` is recorded and shows up in the open studio at once.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../src-main/store/workspace-store';
import { CLI, importedWorkspace, NO_CHROMIUM, ROOT, useStudioInBrowser, watchPageErrors } from './support/host';

describe.skipIf(NO_CHROMIUM !== '')(`agents in the host UI${NO_CHROMIUM}`, () => {
  let workspace = '';
  const session = useStudioInBrowser(() => {
    workspace = importedWorkspace('agents');
    return ['--workspace', workspace, '--openai', '--openai-key', 'e2e-key', '--record-to', workspace];
  });

  it('expands a node three levels deep with a script policy from the Expand… dialog', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /term-0001/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await tree.getByRole('treeitem').filter({ hasText: 'cat notes.txt' }).click();

    await page.getByRole('button', { name: 'Expand…' }).click();
    const dialog = page.getByRole('form', { name: 'Expand with a policy' });
    await dialog.getByRole('textbox', { name: 'Candidate actions' }).fill('pwd\nwhoami\nuname');
    await dialog.getByLabel('Actions per node').fill('2');
    await dialog.getByLabel('Depth').fill('3');
    await dialog.getByRole('button', { name: 'Expand', exact: true }).click();

    // 2 actions, then the 2 not yet taken on each path, then the last one: 2 + 4 + 4.
    await expect.poll(() => page.getByTestId('expand-result').textContent(), { timeout: 120_000 }).toMatch(/Added 10 nodes over 3 levels \(every level expanded/);
    await expect.poll(() => tree.locator('.origin-agent').count()).toBeGreaterThanOrEqual(2);
    await tree.getByRole('treeitem').filter({ hasText: 'whoami' }).first().click();
    await expect.poll(() => page.getByTestId('agent-line').textContent()).toContain('Acted by policy script expand dialog');
    expect(errors).toEqual([]);
  });

  it('expands with an OpenAI-compatible policy: the studio serving its own model over --openai', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /term-0002/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await tree.getByRole('treeitem').filter({ hasText: 'mkdir build' }).click();
    // g opens the dialog from the keyboard.
    await page.keyboard.press('g');
    const dialog = page.getByRole('form', { name: 'Expand with a policy' });
    await dialog.getByLabel('OpenAI-compatible chat model').check();
    await dialog.getByLabel('Policy base URL').fill(/OpenAI-compatible API at (\S+) /.exec(session.studio.output())![1]!);
    await dialog.getByLabel('Policy API key').fill('e2e-key');
    await dialog.getByLabel('Depth').fill('3');
    await dialog.getByRole('button', { name: 'Expand', exact: true }).click();
    await expect.poll(() => page.getByTestId('expand-result').textContent(), { timeout: 120_000 }).toMatch(/over 3 levels/);
    await expect.poll(() => tree.locator('.origin-agent').count()).toBeGreaterThanOrEqual(1);
    await tree.locator('[role=treeitem]:has(.origin-agent)').first().click();
    await expect.poll(() => page.getByTestId('agent-line').textContent()).toMatch(/Acted by policy openai-compatible \(.+\)/);
    expect(errors).toEqual([]);
  });

  it("shows an MCP agent's session as a path, the injected perturbation marked", async () => {
    const store = WorkspaceStore.open(workspace);
    const trajectoryId = store.listTrajectories().find((t) => t.title.includes('term-0001') || t.sourceKey?.includes('term-0001'))?.id ?? store.listTrajectories()[0]!.id;
    store.close();
    // Seed 7 injects command-not-found at the first step only (rate 0.5).
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp-serve', '--workspace', workspace, '--trajectory', trajectoryId, '--perturb', 'terminal.command-not-found:0.5', '--seed', '7'],
      cwd: ROOT,
      stderr: 'ignore',
    });
    const agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await agent.connect(transport);
    for (const command of ['mkdir drafts', 'touch drafts/plan.md', 'ls drafts']) await agent.callTool({ name: 'execute_command', arguments: { command } });
    await agent.close();

    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    await page.getByRole('list', { name: 'Trajectories' }).getByRole('button', { name: /term-0001/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await tree.getByRole('treeitem').filter({ hasText: 'mkdir drafts' }).click();
    await expect.poll(() => page.getByTestId('agent-line').textContent()).toContain('Acted by MCP client e2e-agent');
    await expect.poll(() => page.getByTestId('injected-perturbation').textContent()).toBe('perturbed: terminal.command-not-found');
    // The tree marks the injected step as perturbed and the others as simulated.
    await expect.poll(() => tree.getByRole('treeitem').filter({ hasText: 'mkdir drafts' }).locator('.origin-perturbed').count()).toBe(1);
    await expect.poll(() => tree.getByRole('treeitem').filter({ hasText: 'ls drafts' }).locator('.origin-simulated').count()).toBe(1);
    // A step the schedule left alone: the inspector shows it with no perturbation mark.
    await tree.getByRole('treeitem').filter({ hasText: 'ls drafts' }).click();
    await expect.poll(() => page.getByRole('treeitem', { selected: true }).textContent()).toContain('ls drafts');
    await expect.poll(() => page.getByTestId('injected-perturbation').count()).toBe(0);
    await expect.poll(() => page.getByTestId('agent-line').textContent()).toContain('e2e-agent');
    expect(errors).toEqual([]);
  });

  it('records a request to the OpenAI-compatible API and the open studio shows it at once', async () => {
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(session.studio.url);
    const list = page.getByRole('list', { name: 'Trajectories' });
    await expect.poll(() => list.getByRole('button').count()).toBeGreaterThan(0);

    const baseUrl = /OpenAI-compatible API at (\S+) /.exec(session.studio.output())![1]!;
    const res = await fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer e2e-key', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'worldloom',
        messages: [
          { role: 'system', content: 'Terminal environment: bash in a sandbox. Each observation is the screen after the command.' },
          { role: 'user', content: '### Turn 1\n**Action:**\ndf -h' },
        ],
        max_tokens: 64,
      }),
    });
    expect(res.status).toBe(200);
    await list.getByRole('button', { name: /API: df -h/ }).click();
    const tree = page.getByRole('tree', { name: 'Trajectory tree' });
    await tree.getByRole('treeitem').filter({ hasText: 'df -h' }).click();
    await expect.poll(() => page.getByTestId('agent-line').textContent()).toContain('Acted by API client');
    expect(errors).toEqual([]);
  });
});
