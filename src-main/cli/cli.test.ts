import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../store/workspace-store';
import { awbLines } from '../testing/awb-fixtures';
import { CLI_BIN } from '../testing/cli-bin';

const bin = CLI_BIN;
const run = (...args: string[]) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

describe('worldloom CLI', () => {
  it('imports, reports info and exports in a round trip', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-cli-'));
    const file = join(dir, 'terminal_test.jsonl');
    const lines = [
      ...awbLines({ id: 'a', turns: [['ls', 'x'], ['pwd', '/home']] }),
      ...awbLines({ id: 'b', domain: 'search', turns: [['query: cats', '1. Cats - Wikipedia']] }),
    ];
    writeFileSync(file, lines.join('\n') + '\n');
    const ws = join(dir, 'w.worldloom');
    const imported = JSON.parse(run('import', file, '--workspace', ws));
    expect(imported).toMatchObject({ format: 'agentworldbench', imported: 2, problems: 0 });

    const info = JSON.parse(run('info', '--workspace', ws));
    expect(info).toEqual({ trajectories: 2, steps: 3, byDomain: { search: 1, terminal: 1 }, byOrigin: { imported: 3 } });

    const out = join(dir, 'out.jsonl');
    run('export', '--workspace', ws, '--format', 'jsonl', '--out', out);
    const ws2 = join(dir, 'w2.worldloom');
    run('import', out, '--workspace', ws2, '--format', 'jsonl');
    expect(JSON.parse(run('info', '--workspace', ws2))).toEqual(info);

    const awb = join(dir, 'back_test.jsonl');
    run('export', '--workspace', ws, '--format', 'agentworldbench', '--out', awb);
    expect(readFileSync(awb, 'utf8')).toBe(lines.join('\n') + '\n');
  });

  it('imports a chat dataset the way --chat-as says, and says on stderr what it left out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-cli-chat-'));
    const file = join(dir, 'train.jsonl');
    const row = { messages: [{ role: 'system', content: 'Be helpful.' }, { role: 'user', content: 'ls' }, { role: 'assistant', content: 'a.txt' }] };
    writeFileSync(file, JSON.stringify(row) + '\n');
    const asAgent = spawnSync(process.execPath, [bin, 'import', file, '--workspace', join(dir, 'a.worldloom')], { encoding: 'utf8' });
    // Guessed, the row is a plain chat (no tool call, no agent prompt): no trajectory, and the CLI says why and what to do.
    expect(JSON.parse(asAgent.stdout)).toMatchObject({ format: 'messages', imported: 0, skipped: 1 });
    expect(asAgent.stderr).toMatch(/train\.jsonl:1: skipped line 1: a plain chat \(2 turns, no tool call\): .*--chat-as world-model/);
    const asWorld = JSON.parse(run('import', file, '--workspace', join(dir, 'w.worldloom'), '--chat-as', 'world-model'));
    expect(asWorld).toMatchObject({ format: 'messages', imported: 1, problems: 0 });
  });

  it('fails with a clear message for a file that is not a workspace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-cli-'));
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'hello');
    const r = spawnSync(process.execPath, [bin, 'info', '--workspace', notes], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is not a Worldloom workspace/);
  });

  it('simulates K samples at a node with a given model and prints the new node ids', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-cli-'));
    const file = join(dir, 'terminal_test.jsonl');
    writeFileSync(file, awbLines({ id: 'a', turns: [['ls', 'x']] }).join('\n'));
    const ws = join(dir, 'w.worldloom');
    run('import', file, '--workspace', ws);
    const store = WorkspaceStore.open(ws);
    const leaf = store.getNodes(store.listTrajectories()[0]!.id)[1]!;
    store.close();
    const model = fileURLToPath(new URL('../engine/onnx/fixtures/qwen35/tiny-chat', import.meta.url));
    const out = JSON.parse(run('simulate', '--workspace', ws, '--node', leaf.id, '--action', 'pwd', '--samples', '2', '--model', model, '--max-tokens', '8', '--seed', '3'));
    expect(out.cancelled).toBe(false);
    expect(out.nodes).toHaveLength(2);
    const after = WorkspaceStore.open(ws);
    const nodes = out.nodes.map((id: string) => after.getNode(id)!);
    after.close();
    expect(nodes.map((n: { parentId: string; origin: string; provenance: { seed: number } }) => [n.parentId, n.origin, n.provenance.seed])).toEqual([
      [leaf.id, 'simulated', 3],
      [leaf.id, 'simulated', 4],
    ]);
    const bad = spawnSync(process.execPath, [bin, 'simulate', '--workspace', ws, '--node', leaf.id, '--action', 'ls', '--model', join(dir, 'nope')], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/nope/);
  });
});
