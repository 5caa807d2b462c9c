// Recording, running real and replaying through the contract, as the UI and the CLI do.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiMethod, ApiOutput } from '../common/contract/api';
import { dispatch } from './dispatch';
import { Studio } from './studio';

const TEST_MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/qwen35/tiny-chat', import.meta.url));
const RESOURCES = fileURLToPath(new URL('../../resources', import.meta.url));
const MEMORY_SERVER = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url));
const MCP_LOG = fileURLToPath(new URL('../formats/mcp-jsonrpc-log/fixtures/notes-server.mcp.jsonl', import.meta.url));
const noBwrap = existsSync('/usr/bin/bwrap') ? '' : ' — skipped: bubblewrap is not installed';

let studio: Studio;
let dir: string;
const progress: unknown[] = [];

async function call<M extends ApiMethod>(method: M, input: unknown): Promise<ApiOutput<M>> {
  const envelope = await dispatch(studio, method, input);
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value as ApiOutput<M>;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wl-real-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  studio = new Studio({ door: 'host', resourcesDir: RESOURCES });
  studio.onEvent((event, payload) => {
    if (event === 'job.progress') progress.push(payload);
  });
  studio.openWorkspace(join(dir, 'w.worldloom'), 'create');
  await studio.models.load({ kind: 'onnx', path: TEST_MODEL });
});
afterAll(() => studio.dispose());

describe.skipIf(noBwrap !== '')(`a real terminal session${noBwrap}`, () => {
  let trajectoryId = '';

  it('is recorded as a trajectory of real nodes', async () => {
    const recorded = await call('reality.record', { jobId: 'rec', domain: 'terminal', actions: ['mkdir w && cd w', 'echo hi > f', 'ls'] });
    trajectoryId = recorded.trajectoryId;
    expect(recorded).toMatchObject({ steps: 3, sandbox: expect.stringMatching(/^bubblewrap/) });
    const { nodes } = await call('trajectory.get', { id: trajectoryId });
    expect(nodes.map((n) => n.origin)).toEqual(['real', 'real', 'real', 'real']);
    expect(nodes.at(-1)!.observation).toBe('f\nagent@sandbox:~/w$');
    expect(progress).toContainEqual(expect.objectContaining({ jobId: 'rec', finished: true }));
  });

  it('replays through the model: a simulated sibling with metrics at every step, and a report', async () => {
    const replay = await call('reality.replay', { jobId: 'rp', trajectoryId, sampling: { maxTokens: 8 } });
    expect(replay.nodes).toHaveLength(3);
    for (const node of replay.nodes) {
      expect(node.origin).toBe('simulated');
      expect(node.metrics).toHaveProperty('editSimilarity');
      expect(node.metrics).toHaveProperty('promptConsistency');
    }
    const { steps, aggregate } = replay.comparison;
    expect(steps.map((s) => [s.action, s.simulatedNodeId])).toEqual(replay.nodes.map((n) => [n.action, n.id]));
    expect(steps[2]!.real).toBe('f\nagent@sandbox:~/w$');
    expect(aggregate.editSimilarity).toBeGreaterThanOrEqual(0);

    const report = await call('reality.report', {});
    expect(report.byDomain.terminal).toMatchObject({ trajectories: 1, steps: 3 });
    const html = await call('reality.exportReport', { path: join(dir, 'report.html'), format: 'html' });
    expect(html.trajectories).toBe(1);
    const page = readFileSync(html.path, 'utf8');
    expect(page).toContain('Divergence timeline');
    expect(page).not.toMatch(/<script/i);
  });

  it('runs a simulated path for real, adding real siblings with metrics', async () => {
    const traj = await call('trajectory.create', { title: 'sim', domain: 'terminal', systemPrompt: '', initialState: 'agent@sandbox:~$' });
    const root = traj.nodes[0]!;
    const first = await call('node.addManual', { parentId: root.id, action: 'mkdir x && cd x', observation: 'agent@sandbox:~/x$' });
    const sim = await call('simulate.run', { jobId: 's1', nodeId: first.id, action: 'pwd', sampling: { maxTokens: 8 } });
    const leaf = sim.nodes[0]!;
    const ran = await call('reality.runReal', { jobId: 'rr', nodeId: leaf.id, confirmedActions: ['mkdir x && cd x', 'pwd'] });
    expect(ran.nodes.map((n) => [n.parentId, n.action, n.origin])).toEqual([
      [root.id, 'mkdir x && cd x', 'real'],
      [first.id, 'pwd', 'real'],
    ]);
    expect(ran.nodes[1]!.observation).toBe('/home/agent/x\nagent@sandbox:~/x$');
    expect(ran.nodes[0]!.metrics).toMatchObject({ exactMatch: 1, cwdConsistency: 1 });
    expect(ran.comparison.steps.map((s) => s.realNodeId)).toEqual(ran.nodes.map((n) => n.id));
    expect(ran.comparison.steps[0]!.diverged).toBe(false);
  });
});

describe('a real MCP session', () => {
  it('is recorded with the server tools in its description, keeping no environment variables', async () => {
    const recorded = await call('reality.record', {
      jobId: 'mcp',
      domain: 'mcp',
      actions: [JSON.stringify({ name: 'create_entities', arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: [] }] } }), JSON.stringify({ name: 'read_graph', arguments: {} })],
      environment: { mcp: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: process.platform === 'linux' ? '/tmp/memory.jsonl' : join(dir, 'memory.jsonl') } } },
    });
    const bundle = await call('trajectory.get', { id: recorded.trajectoryId });
    expect(bundle.trajectory.systemPrompt).toMatch(/read_graph/);
    expect(bundle.nodes.at(-1)!.observation).toContain('Ada');
    // Environment variables may hold secrets: they are not kept in the workspace.
    expect(JSON.stringify(bundle.nodes[0]!.provenance)).not.toContain('MEMORY_FILE_PATH');
  });

  it('imported from a JSON-RPC log, replays step by step', async () => {
    const text = readFileSync(MCP_LOG, 'utf8');
    await call('import.text', { name: 'notes-server.mcp.jsonl', text, format: 'auto' });
    const imported = (await call('trajectory.list', {})).find((t) => t.domain === 'mcp' && t.title.includes('notes-server'))!;
    const replay = await call('reality.replay', { jobId: 'mcp-rp', trajectoryId: imported.id, sampling: { maxTokens: 8 } });
    expect(replay.nodes.length).toBe(imported.steps);
    expect(replay.nodes[0]!.metrics).toHaveProperty('exactMatch');
    expect(replay.comparison.steps.every((s) => s.metrics !== null)).toBe(true);
    expect(replay.reused).toEqual([]);

    // Replayed again with the same model, settings and seed: the same predictions, reused, nothing added.
    const before = (await call('trajectory.get', { id: imported.id })).nodes.length;
    const again = await call('reality.replay', { jobId: 'mcp-rp2', trajectoryId: imported.id, sampling: { maxTokens: 8 } });
    expect(again.nodes.map((n) => n.id)).toEqual(replay.nodes.map((n) => n.id));
    expect(again.reused).toEqual(replay.nodes.map((n) => n.id));
    expect((await call('trajectory.get', { id: imported.id })).nodes.length).toBe(before);
    // Another seed is another prediction: a new set of siblings.
    const reseeded = await call('reality.replay', { jobId: 'mcp-rp3', trajectoryId: imported.id, sampling: { maxTokens: 8, seed: 99 } });
    expect(reseeded.reused).toEqual([]);
    expect((await call('trajectory.get', { id: imported.id })).nodes.length).toBe(before + imported.steps);
  });

  it('refuses run real without a server command and says how to give one', async () => {
    const traj = await call('trajectory.create', { title: 'm', domain: 'mcp', systemPrompt: '', initialState: '' });
    const step = await call('node.addManual', { parentId: traj.nodes[0]!.id, action: '{"name":"read_graph","arguments":{}}', observation: '{}' });
    await expect(call('reality.runReal', { jobId: 'm1', nodeId: step.id, confirmedActions: [step.action] })).rejects.toThrow(/command that starts the MCP server/);
  });
});

it('says which sandboxes are in force', async () => {
  const states = await call('reality.sandboxes', {});
  expect(states.map((s) => s.domain)).toEqual(['terminal', 'mcp', 'web']);
  if (!noBwrap) expect(states[0]).toMatchObject({ available: true, problem: null });
});
