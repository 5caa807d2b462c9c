import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { awbLines } from '../../testing/awb-fixtures';
import { CLI_BIN } from '../../testing/cli-bin';

const bin = CLI_BIN;
const run = (...args: string[]) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const fails = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

interface ListedNode {
  id: string;
  parentId: string | null;
  depth: number;
  origin: string;
  action: string;
  curation: { starred: boolean; rating: number | null; tags: string[]; note: string };
}

// Every call starts the CLI afresh (a few seconds each on a busy machine).
describe('worldloom ls, curate and --version', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'wl-cli-ls-'));
  const file = join(dir, 'terminal_test.jsonl');
  writeFileSync(
    file,
    [...awbLines({ id: 'a', turns: [['ls -la\necho more', 'x'], ['pwd', '/home']] }), ...awbLines({ id: 'b', domain: 'search', turns: [['query: cats', '1. Cats']] })].join('\n') + '\n',
  );
  const ws = join(dir, 'w.worldloom');
  run('import', file, '--workspace', ws);
  let listed: { first: { id: string }; nodes: ListedNode[] } | null = null;
  /** The first trajectory and its nodes as the first test listed them. */
  const listing = () => listed!;

  it('lists trajectories as a table and as JSON, then one trajectory\'s nodes with ids, depth, origin and action', () => {
    const trajectories = JSON.parse(run('ls', '--workspace', ws, '--json')) as { id: string; title: string; domain: string; steps: number; maxDepth: number }[];
    expect(trajectories.map((t) => [t.domain, t.steps, t.maxDepth])).toEqual([
      ['terminal', 2, 2],
      ['search', 1, 1],
    ]);
    const table = run('ls', '-w', ws).split('\n');
    expect(table[0]).toMatch(/^ID\s+DOMAIN\s+STEPS\s+DEPTH\s+TITLE$/);
    expect(table[1]).toMatch(new RegExp(`^${trajectories[0]!.id}\\s+terminal\\s+2\\s+2\\s+${trajectories[0]!.title}$`));

    const { nodes } = JSON.parse(run('ls', '-w', ws, '--trajectory', trajectories[0]!.id, '--json')) as { nodes: ListedNode[] };
    expect(nodes.map((n) => [n.depth, n.origin, n.action])).toEqual([
      [0, 'imported', ''],
      [1, 'imported', 'ls -la\necho more'],
      [2, 'imported', 'pwd'],
    ]);
    expect(nodes[2]!.parentId).toBe(nodes[1]!.id);
    listed = { first: trajectories[0]!, nodes };
    const rows = run('ls', '-w', ws, '-t', trajectories[0]!.id).split('\n');
    expect(rows[1]).toMatch(/^ID\s+PARENT\s+DEPTH\s+ORIGIN\s+MARKS\s+ACTION$/);
    // A multi-line action shows its first line and says there is more.
    expect(rows[3]).toMatch(new RegExp(`^${nodes[1]!.id}\\s+${nodes[0]!.id}\\s+1\\s+imported\\s+ls -la …$`));

    const unknown = fails('ls', '-w', ws, '-t', 'no-such-trajectory');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/no-such-trajectory/);
  });

  it('stars, rates, tags and notes a node through the same calls as the inspector, and says when nothing was asked', () => {
    const { first, nodes } = listing();
    const step = nodes[1]!;
    const marked = JSON.parse(run('curate', '-w', ws, '--node', step.id, '--star', '--rate', '4', '--tag', 'keep', '--tag', 'odd', '--note', 'looks right'));
    expect(marked).toEqual({ id: step.id, curation: { starred: true, rating: 4, tags: ['keep', 'odd'], note: 'looks right' } });
    const unmarked = JSON.parse(run('curate', '-w', ws, '--node', step.id, '--no-star', '--rate', '0', '--untag', 'odd'));
    expect(unmarked.curation).toEqual({ starred: false, rating: null, tags: ['keep'], note: 'looks right' });
    // What ls shows is what was stored.
    const again = (JSON.parse(run('ls', '-w', ws, '-t', first.id, '--json')) as { nodes: ListedNode[] }).nodes[1]!;
    expect(again.curation).toEqual(unmarked.curation);

    const nothing = fails('curate', '-w', ws, '--node', step.id);
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).toMatch(/Nothing to change: give --star/);
    const badRating = fails('curate', '-w', ws, '--node', step.id, '--rate', '6');
    expect(badRating.stderr).toMatch(/expected a whole number from 0 to 5/);
    const recorded = fails('curate', '-w', ws, '--node', step.id, '--prefer');
    expect(recorded.status).toBe(1);
    expect(recorded.stderr).toMatch(/the recorded step is the ground truth/);
  });

  it('prefers one simulated sample of an action; its sibling loses the mark', () => {
    const { first, nodes: before } = listing();
    const root = before[0]!;
    const model = fileURLToPath(new URL('../../engine/onnx/fixtures/qwen35/tiny-chat', import.meta.url));
    const simulated = JSON.parse(run('simulate', '-w', ws, '--node', root.id, '--action', 'whoami', '--samples', '2', '--model', model, '--max-tokens', '4', '--seed', '1'));
    const [a, b] = simulated.nodes as string[];
    expect(JSON.parse(run('curate', '-w', ws, '--node', a!, '--prefer')).curation.tags).toEqual(['preferred']);
    expect(JSON.parse(run('curate', '-w', ws, '--node', b!, '--prefer', '--tag', 'checked')).curation.tags).toEqual(['preferred', 'checked']);
    const nodes = (JSON.parse(run('ls', '-w', ws, '-t', first.id, '--json')) as { nodes: ListedNode[] }).nodes;
    expect(nodes.find((n) => n.id === a)!.curation.tags).toEqual([]);
    // Siblings sit under their parent, in the order they were made.
    expect(nodes.filter((n) => n.parentId === root.id).map((n) => n.origin)).toEqual(['imported', 'simulated', 'simulated']);
  });

  it('prints its version, and for a missing workspace says what makes one and where the demo is', () => {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as { version: string };
    expect(run('--version').trim()).toBe(pkg.version);
    const config = mkdtempSync(join(tmpdir(), 'wl-cli-config-'));
    const missing = join(dir, 'missing.worldloom');
    const r = spawnSync(process.execPath, [bin, 'ls', '-w', missing], { encoding: 'utf8', env: { ...process.env, WORLDLOOM_CONFIG_DIR: config } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`No workspace at ${missing}.`);
    expect(r.stderr).toContain(`worldloom import FILE… --workspace ${missing}`);
    expect(r.stderr).toContain(`The demo workspace will be ${join(config, 'demo.worldloom')}`);
    expect(r.stderr).not.toMatch(/--create|File ▸/);
  });
});
