// `worldloom expand` with a script of candidate actions and the embedded model: prints the new
// node ids and why it stopped; a script file is read as text, and one policy must be named.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../store/workspace-store';
import { CLI_BIN } from '../../testing/cli-bin';

const bin = CLI_BIN;
const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000 });

describe('worldloom expand', () => {
  let dir: string;
  let ws: string;
  let rootId: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wl-cli-expand-'));
    ws = join(dir, 'w.worldloom');
    const store = WorkspaceStore.create(ws);
    rootId = store.createTrajectory({ title: 't', domain: 'terminal', systemPrompt: '', initialState: 'agent@sandbox:~$' }).nodes[0]!.id;
    store.close();
  });

  it('expands a node with a script policy and prints what it added', () => {
    // A script that names a command to run proves nothing runs: the actions only become prompts.
    const script = join(dir, 'plan.txt');
    writeFileSync(script, `# candidates\ntouch ${join(dir, 'ran')}\nls\n`);
    const result = run(['expand', '--workspace', ws, '--node', rootId, '--script', script, '-k', '2', '-d', '2']);
    expect(result.status, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as { nodes: string[]; levels: number; stoppedBy: string };
    expect(printed).toMatchObject({ levels: 2, stoppedBy: 'done' });
    const store = WorkspaceStore.open(ws);
    const nodes = printed.nodes.map((id) => store.getNode(id)!);
    store.close();
    expect(nodes.map((n) => n.depth)).toEqual([1, 1, 2, 2]);
    expect(nodes.every((n) => n.origin === 'agent' && n.provenance.agent?.name === 'script plan.txt')).toBe(true);
    expect(spawnSync('test', ['-e', join(dir, 'ran')]).status).not.toBe(0);
    expect(result.stderr).toContain('Level 2 of 2');
  }, 180_000);

  it('asks for exactly one policy', () => {
    const neither = run(['expand', '--workspace', ws, '--node', rootId]);
    expect(neither.status).toBe(1);
    expect(neither.stderr).toContain('--policy URL[#model]');
    const both = run(['expand', '--workspace', ws, '--node', rootId, '--script', 'x', '--policy', 'http://127.0.0.1:9/v1']);
    expect(both.status).toBe(1);
    expect(both.stderr).toContain('Give one policy');
  }, 60_000);
});
