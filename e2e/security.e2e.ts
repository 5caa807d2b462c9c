// Security stories, as a user meets them: a shared trajectory that names a program, a host
// that strangers poke at, a dropped file with bad bytes. Bounded and loopback only.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_CHROMIUM, ROOT, useStudioInBrowser, watchPageErrors } from './support/host';
import { createWorkspace, importFile, openTrajectory, selectStep } from './support/studio-page';

const sandboxed = existsSync('/usr/bin/bwrap');

/** A Worldloom JSONL trajectory as someone might share it: its root names an MCP server that leaves `mark` if it ever runs. */
function sharedMcpTrajectory(dir: string, mark: string): string {
  const at = '2024-01-01T00:00:00Z';
  const curation = { starred: false, rating: null, tags: [], note: '' };
  const hostile = { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(mark)}, 'ran')`] };
  const node = (id: string, parentId: string | null, depth: number, action: string, observation: string, origin: string, provenance: object) => ({
    id, trajectoryId: 'shared-t', parentId, editedFromId: null, depth, action, observation, reasoning: null, origin, provenance, curation, metrics: null, createdAt: at,
  });
  const line = {
    format: 'worldloom.trajectory',
    version: 1,
    trajectory: { id: 'shared-t', title: 'shared mcp session', domain: 'mcp', systemPrompt: 'An MCP server.', worldSpec: null, sourceKey: null, createdAt: at },
    nodes: [
      node('shared-root', null, 0, '', '', 'real', { environment: { domain: 'mcp', sandbox: 'none', settings: { mcp: hostile } } }),
      node('shared-step', 'shared-root', 1, JSON.stringify({ name: 'sh', arguments: { line: 'id -un' } }), 'agent', 'simulated', {}),
    ],
  };
  const file = join(dir, 'shared.jsonl');
  writeFileSync(file, JSON.stringify(line) + '\n');
  return file;
}

function rawGet(url: string, path: string): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port), path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(NO_CHROMIUM !== '')(`security in the host UI${NO_CHROMIUM}`, () => {
  const session = useStudioInBrowser();

  it('shows the server a shared trajectory names and runs only what the user confirms, in the sandbox it names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-security-e2e-'));
    const mark = join(dir, 'the-shared-command-ran');
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await createWorkspace(page, session.studio.url, join(dir, 's.worldloom'));
    await importFile(page, sharedMcpTrajectory(dir, mark), 'shared.jsonl: 1 imported');
    await openTrajectory(page, /shared mcp session/);
    await selectStep(page, 'id -un');
    await page.getByRole('button', { name: 'Run real…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run real' });
    await dialog.getByRole('alert').filter({ hasText: "came with the trajectory's data, not from you" }).waitFor();
    await expect.poll(() => dialog.getByLabel('MCP server command').inputValue()).toBe(process.execPath);
    await expect.poll(() => dialog.getByTestId('run-real-sandbox').textContent()).toMatch(sandboxed ? /^Sandbox: bubblewrap: no network/ : /^Sandbox: none/);
    // The steps are shown in full, and nothing runs until the user says they read them.
    await expect.poll(() => dialog.getByTestId('run-real-steps').textContent()).toContain('id -un');
    expect(await dialog.getByRole('button', { name: 'Run 1 step for real' }).isDisabled()).toBe(true);
    expect(existsSync(mark)).toBe(false);
    if (!sandboxed) return;
    // The user replaces the named command with their own server and confirms.
    await dialog.getByLabel('MCP server command').fill(process.execPath);
    await dialog.getByLabel(/^Arguments/).fill(join('src-main', 'reality', 'fixtures', 'shell-mcp-server.mjs'));
    await dialog.getByLabel(/^Working directory/).fill(ROOT);
    await dialog.getByRole('checkbox', { name: /I have read these steps/ }).check();
    await dialog.getByRole('button', { name: 'Run 1 step for real' }).click();
    await page.getByRole('status').filter({ hasText: 'Ran 1 step for real' }).first().waitFor({ timeout: 60_000 });
    expect(existsSync(mark)).toBe(false);
    expect(errors).toEqual([]);
  });

  it('stays up after malformed requests, answers as localhost, and reports bad bytes in a dropped file by line', async () => {
    expect(await rawGet(session.studio.url, '/%c0')).toBe(400);
    expect(await rawGet(session.studio.url, '/%E0%A4%A')).toBe(400);
    const dir = mkdtempSync(join(tmpdir(), 'wl-security-e2e-'));
    const page = await session.browser.newPage();
    const errors = watchPageErrors(page);
    await createWorkspace(page, session.studio.url.replace('127.0.0.1', 'localhost'), join(dir, 'l.worldloom'));
    const file = join(dir, 'bad-bytes.jsonl');
    const good = readFileSync(sharedMcpTrajectory(dir, join(dir, 'unused')));
    // A byte order mark, a good line, then bytes that are not UTF-8: sent in chunks, read as the CLI reads them.
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), good, Buffer.from([0x7b, 0xc0, 0xaf, 0x7d, 0x0a])]));
    await importFile(page, file, 'bad-bytes.jsonl: 1 imported');
    await page.getByText('line 2: invalid UTF-8 bytes').first().waitFor();
    expect(errors).toEqual([]);
  });
});
