// "Run real" starts only what the user chose. An imported trajectory may name an MCP server
// in its root's provenance; that command is shown to the user, never run by itself.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../store/workspace-store';
import { chainBundle } from '../common/trajectory/build';
import { newId } from '../common/trajectory/ids';
import { runReal } from './run-real';

const noBwrap = process.platform === 'linux' && !existsSync(process.env.WORLDLOOM_BWRAP ?? '/usr/bin/bwrap') ? ' — skipped: bubblewrap is not installed' : '';

let dir: string;
let store: WorkspaceStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wl-run-real-'));
  store = WorkspaceStore.create(join(dir, 'w.worldloom'));
});
afterEach(() => store.close());

/** A shared trajectory whose file names a server that would leave a mark if it ever ran. */
function importedTrajectory(mark: string) {
  const hostile = { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(mark)}, 'ran')`] };
  const bundle = chainBundle(
    {
      title: 'shared with me',
      domain: 'mcp',
      systemPrompt: '',
      initialState: '',
      rootProvenance: { environment: { domain: 'mcp', sandbox: 'none', settings: { mcp: hostile } } },
      steps: [{ action: JSON.stringify({ name: 'sh', arguments: { line: 'id -un' } }), observation: 'agent', origin: 'simulated' }],
    },
    newId,
    new Date().toISOString(),
  );
  store.transaction(() => store.insertBundle(bundle));
  return bundle.nodes[1]!.id;
}

describe('run real', () => {
  it('never starts the server an imported trajectory names, and says which one it names', async () => {
    const mark = join(dir, 'ran');
    const step = importedTrajectory(mark);
    await expect(runReal(store, { nodeId: step, confirmedActions: [store.getNode(step)!.action] })).rejects.toThrow(/names `.*writeFileSync.*`, but a command in a trajectory's data never runs by itself/);
    expect(existsSync(mark)).toBe(false);
  });

  it.skipIf(noBwrap !== '')(`runs the server the user confirmed, in the sandbox it reports${noBwrap}`, async () => {
    const mark = join(dir, 'ran');
    const step = importedTrajectory(mark);
    const server = { command: process.execPath, args: [join('src-main', 'reality', 'fixtures', 'shell-mcp-server.mjs')], cwd: process.cwd() };
    const result = await runReal(store, { nodeId: step, settings: { mcp: server }, confirmedActions: [store.getNode(step)!.action] });
    expect(existsSync(mark)).toBe(false);
    expect(result.sandbox).toMatch(process.platform === 'linux' ? /^bubblewrap: no network/ : /^none/);
    expect(result.nodes).toHaveLength(1);
    expect(result.nodes[0]!.observation).toContain('agent');
    expect(result.nodes[0]!.provenance).toMatchObject({ environment: { settings: { mcp: { command: process.execPath } } } });
  }, 30_000);

  it('runs only the steps the user confirmed: a shared web trajectory that reads host files is refused unconfirmed', async () => {
    const bundle = chainBundle(
      {
        title: 'shared web session',
        domain: 'web',
        systemPrompt: '',
        initialState: '',
        steps: [
          { action: 'goto file:///etc/shadow', observation: 'URL: about:blank', origin: 'simulated' },
          { action: 'goto http://127.0.0.1:9/', observation: 'URL: about:blank', origin: 'simulated' },
        ],
      },
      newId,
      new Date().toISOString(),
    );
    store.transaction(() => store.insertBundle(bundle));
    const leaf = bundle.nodes[2]!.id;
    const refusal = /Run real runs only the steps you confirm: the 2 actions of this path were not the ones confirmed/;
    await expect(runReal(store, { nodeId: leaf, confirmedActions: [] })).rejects.toThrow(refusal);
    await expect(runReal(store, { nodeId: leaf, confirmedActions: ['goto https://example.org/', 'goto http://127.0.0.1:9/'] })).rejects.toThrow(refusal);
    expect(store.getNodes(bundle.trajectory.id)).toHaveLength(3);
  });
});
