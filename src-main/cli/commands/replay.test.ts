// `worldloom replay` over several recorded trajectories, and with two `--model`s: the same
// steps through each model with the same seeds, compared in the printed JSON and the report.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../store/workspace-store';
import { startFakeVllm, type FakeServer } from '../../testing/fake-vllm-server';
import { CLI_BIN } from '../../testing/cli-bin';

const bin = CLI_BIN;

/** Runs the CLI without blocking this process, where the stand-in servers answer. */
function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, WORLDLOOM_CONFIG_DIR: join(tmpdir(), 'wl-cli-replay-config') } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('worldloom replay over several trajectories and two models', () => {
  let dir: string;
  let ws: string;
  let near: FakeServer;
  let far: FakeServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wl-cli-replay-'));
    ws = join(dir, 'w.worldloom');
    const store = WorkspaceStore.create(ws);
    for (const [title, actions] of [['first', ['ls', 'pwd']], ['second', ['whoami']]] as const) {
      const bundle = store.createTrajectory({ title, domain: 'terminal', systemPrompt: '', initialState: '$' });
      let parentId = bundle.nodes[0]!.id;
      for (const action of actions) parentId = store.addNode({ parentId, action, observation: `real ${action}`, origin: 'real' }).id;
    }
    store.close();
    // One model writes the real screens back, the other something else: the A/B must tell them apart.
    near = await startFakeVllm({ models: [{ id: 'near-model', max_model_len: 8192 }], reply: (messages) => ({ reasoning: 'r', content: `real ${messages.at(-1)!.content.split('**Action:**\n').pop()!.trim()}` }) });
    far = await startFakeVllm({ models: [{ id: 'far-model', max_model_len: 8192 }], reply: () => ({ reasoning: 'r', content: 'something else entirely' }) });
  });
  afterAll(async () => {
    await near?.close();
    await far?.close();
  });

  it('replays every trajectory a filter selects into one report, with progress on stderr', async () => {
    const result = await run(['replay', '--workspace', ws, '--filter', 'domain = terminal', '--model', near.url, '--concurrency', '4', '--max-tokens', '64']);
    expect(result.status, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as { trajectories: { title: string; steps: number }[]; byDomain: Record<string, { steps: number }>; byStep: { depth: number }[]; failures: unknown[] };
    expect(printed.trajectories.map((t) => [t.title, t.steps])).toEqual([['first', 2], ['second', 1]]);
    expect(printed.byDomain.terminal!.steps).toBe(3);
    expect(printed.byStep.map((s) => s.depth)).toEqual([1, 2]);
    expect(result.stderr).toMatch(/\[3\/3\] Replay: 3 of 3 steps done · 0 in flight · [\d.]+\/s/);
  }, 120_000);

  it('says which of two models is closer to reality, and writes the A/B report', async () => {
    const report = join(dir, 'ab.html');
    const result = await run(['replay', '--workspace', ws, '--filter', 'domain = terminal', '--model', far.url, '--model', near.url, '--max-tokens', '64', '--report', report]);
    expect(result.status, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as { models: { label: string; overall: Record<string, number> }[]; mostDifferent: { action: string; scores: number[] }[] };
    expect(printed.models.map((m) => m.label)).toEqual(['far-model', 'near-model']);
    expect(printed.models[1]!.overall.exactMatch).toBe(1);
    expect(printed.models[0]!.overall.exactMatch).toBe(0);
    expect(printed.mostDifferent.map((d) => d.scores[1])).toEqual([1, 1, 1]);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('Which world model is closer to reality');
    expect(html).toContain('near-model');
    expect(html).toContain('aria-label="Mean similarity to the real observation by step"');
  }, 120_000);

  it('asks for one way of naming what to replay', async () => {
    const result = await run(['replay', '--workspace', ws, '--model', near.url]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('--trajectory ID (repeat for more) or --filter EXPR');
  }, 60_000);
});
