// `worldloom simulate` against a reasoning model behind a server: a budget that ends inside
// the reasoning stores nothing, exits non-zero and says which --max-tokens to ask for.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeVllm, type FakeServer } from '../../testing/fake-vllm-server';
import { WorkspaceStore } from '../../store/workspace-store';
import { CLI_BIN } from '../../testing/cli-bin';

const bin = CLI_BIN;
/** Runs the CLI without blocking this process, which serves the model. */
function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let server: FakeServer;
let ws: string;
let leafId: string;
beforeAll(async () => {
  server = await startFakeVllm({
    models: [{ id: 'agentworld', max_model_len: 262_144 }],
    reasoningIn: 'reasoning',
    reply: () => ({ reasoning: Array.from({ length: 3000 }, (_, i) => `r${i}`).join(' '), content: '<predicted_observation>\nok\n</predicted_observation>' }),
  });
  ws = join(mkdtempSync(join(tmpdir(), 'wl-cli-sim-')), 'w.worldloom');
  const store = WorkspaceStore.create(ws);
  const { nodes } = store.createTrajectory({ title: 't', domain: 'terminal', systemPrompt: 'A shell.', initialState: '$ ' });
  leafId = nodes[0]!.id;
  store.close();
});
afterAll(() => server.close());

describe('worldloom simulate with a reasoning model', () => {
  it('stores the observation with the default budget, and exits 1 with the message and --max-tokens when cut off', async () => {
    const ok = await run(['simulate', '--workspace', ws, '--node', leafId, '--action', 'ls', '--model', server.url]);
    expect(ok.status).toBe(0);
    const printed = JSON.parse(ok.stdout) as { nodes: string[]; samples: { id: string; observation: string; parentId: string; seed: number }[] };
    expect(printed).toMatchObject({ nodes: [expect.any(String)], incomplete: [], reused: [] });
    expect(printed.samples).toEqual([{ id: printed.nodes[0], trajectoryId: expect.any(String), parentId: leafId, seed: 0, action: 'ls', observation: 'ok' }]);
    // The same seed again: the sample is reused, not stored twice.
    const again = await run(['simulate', '--workspace', ws, '--node', leafId, '--action', 'ls', '--model', server.url]);
    expect(JSON.parse(again.stdout)).toMatchObject({ nodes: printed.nodes, reused: printed.nodes });
    expect(server.stats.bodies.at(-1)).toMatchObject({ max_tokens: 32_768 });

    const cut = await run(['simulate', '--workspace', ws, '--node', leafId, '--action', 'ls', '--model', server.url, '--max-tokens', '1000', '--seed', '3', '--thinking', 'on']);
    expect(cut.status).toBe(1);
    expect(JSON.parse(cut.stdout)).toMatchObject({ nodes: [], incomplete: [{ sample: 0, seed: 3, reason: 'reasoning', completionTokens: 1000 }] });
    expect(cut.stderr).toContain('sample 0 (seed 3): ran out of tokens while reasoning (1000 used); not stored. To finish it, run again with --max-tokens 2000.');
    const store = WorkspaceStore.open(ws);
    expect(store.getNodes(store.getNode(leafId)!.trajectoryId)).toHaveLength(2);
    store.close();
  });
});
