import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { dispatch } from './dispatch';
import { Studio } from './studio';
import { WorkspaceStore } from '../store/workspace-store';
import type { NodeRecord } from '../common/trajectory/model';
import { messagesForStep } from '../simulation/simulate-step';

const TEST_MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/qwen35/tiny-chat', import.meta.url));
// A checkpoint whose replies never end: a cancel always lands while it is still generating.
const ENDLESS_MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/qwen35/tokens-fp32', import.meta.url));
const RESOURCES = fileURLToPath(new URL('../../resources', import.meta.url));

let studio: Studio;
let leafId: string;
let rootId: string;
const events: { event: string; payload: unknown }[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wl-sim-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  studio = new Studio({ door: 'host', resourcesDir: RESOURCES });
  studio.onEvent((event, payload) => events.push({ event, payload }));
  studio.openWorkspace(join(dir, 'w.worldloom'), 'create');
  const store = studio.workspace!;
  const { nodes } = store.createTrajectory({ title: 't', domain: 'terminal', systemPrompt: '', initialState: 'agent@box:~$ ' });
  rootId = nodes[0]!.id;
  leafId = store.addNode({ parentId: rootId, action: 'ls', observation: 'notes.txt', origin: 'manual' }).id;
  await studio.models.load({ kind: 'onnx', path: TEST_MODEL });
});
afterAll(() => studio.dispose());

async function call(method: string, input: unknown) {
  const envelope = await dispatch(studio, method, input);
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value as { nodes: NodeRecord[]; cancelled: boolean; tokensPerSecond: number };
}

describe('simulating a step', () => {
  it('builds the prompt from the path: domain template, initial state, history, then the action', async () => {
    const messages = await messagesForStep(studio.workspace!, { builtinDir: join(RESOURCES, 'prompts') }, leafId, 'cat notes.txt');
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[0]!.content).toContain('You stand in for a Linux terminal');
    expect(messages[0]!.content).toContain('agent@box:~$');
    expect(messages[0]!.content).not.toContain('{{');
    expect(messages[1]!.content).toBe('### Turn 1\n**Action:**\nls');
    expect(messages[2]!.content).toBe('**Environment Observation:**\nnotes.txt');
    expect(messages[3]!.content).toBe('### Turn 2\n**Action:**\ncat notes.txt');
  });

  it('makes K simulated siblings in one batch, with provenance, streaming tokens as events', async () => {
    events.length = 0;
    const result = await call('simulate.run', { jobId: 'j1', nodeId: leafId, action: 'cat notes.txt', samples: 3, sampling: { maxTokens: 12, seed: 5 } });
    expect(result.cancelled).toBe(false);
    expect(result.nodes).toHaveLength(3);
    for (const [i, n] of result.nodes.entries()) {
      expect(n).toMatchObject({ parentId: leafId, action: 'cat notes.txt', origin: 'simulated', depth: 2 });
      expect(n.provenance).toMatchObject({ engine: 'onnx', seed: 5 + i, sampling: { maxTokens: 12, seed: 5 + i } });
      expect(n.provenance.promptHash).toMatch(/^sha256:/);
      expect(n.provenance.tokens?.completion).toBeGreaterThan(0);
    }
    const samples = new Set(events.filter((e) => e.event === 'simulate.token').map((e) => (e.payload as { sample: number }).sample));
    expect(samples).toEqual(new Set([0, 1, 2]));
    expect(studio.workspace!.getNodes(result.nodes[0]!.trajectoryId)).toHaveLength(5);
  });

  it('reuses the stored sample for the same seed instead of generating it again', async () => {
    const input = { nodeId: leafId, action: 'pwd', samples: 1, sampling: { maxTokens: 10, seed: 42, temperature: 0.9 } };
    const store = studio.workspace!;
    const first = await call('simulate.run', { ...input, jobId: 'a' });
    const stored = store.childrenOf(leafId).length;
    events.length = 0;
    const again = await call('simulate.run', { ...input, jobId: 'b' });
    expect(again.nodes.map((n) => n.id)).toEqual([first.nodes[0]!.id]);
    expect(store.childrenOf(leafId)).toHaveLength(stored);
    // No token streamed: the model did not run.
    expect(events.filter((e) => e.event === 'simulate.token')).toEqual([]);
  });

  it('generates the same text for the same seed when it runs again', async () => {
    const input = { nodeId: leafId, action: 'whoami', samples: 1, sampling: { maxTokens: 10, seed: 42, temperature: 0.9 } };
    const store = studio.workspace!;
    const first = await call('simulate.run', { ...input, jobId: 'fresh-1' });
    // With the first sample deleted there is nothing to reuse: the model runs again.
    store.deleteNodes([first.nodes[0]!.id], 'test');
    events.length = 0;
    const second = await call('simulate.run', { ...input, jobId: 'fresh-2' });
    expect(events.some((e) => e.event === 'simulate.token')).toBe(true);
    expect(second.nodes[0]!.id).not.toBe(first.nodes[0]!.id);
    expect(second.nodes[0]!.provenance.rawOutput).toBe(first.nodes[0]!.provenance.rawOutput);
    expect(second.nodes[0]!.observation).toBe(first.nodes[0]!.observation);
  });

  it('writes nothing when cancelled', async () => {
    await studio.models.load({ kind: 'onnx', path: ENDLESS_MODEL });
    onTestFinished(() => studio.models.load({ kind: 'onnx', path: TEST_MODEL }).then(() => undefined));
    const before = studio.workspace!.getNodes(studio.workspace!.getNode(leafId)!.trajectoryId).length;
    const run = call('simulate.run', { jobId: 'c', nodeId: leafId, action: 'yes', samples: 2, sampling: { maxTokens: 4000, temperature: 0 } });
    // Cancel while the model is generating: once its first token has streamed.
    await vi.waitFor(() => expect(events.some((e) => e.event === 'simulate.token' && (e.payload as { jobId: string }).jobId === 'c')).toBe(true), { timeout: 60_000, interval: 10 });
    // A second job under the same id is refused with the one busy code, whatever its kind.
    const again = await dispatch(studio, 'perturb.run', { jobId: 'c', nodeId: leafId, mode: 'transform', kinds: [{ kindId: 'terminal.disk-full' }] });
    expect(again).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(await call('job.cancel', { jobId: 'c' })).toEqual({ cancelled: true });
    const result = await run;
    const progress = events.filter((e) => e.event === 'job.progress' && (e.payload as { jobId: string }).jobId === 'c').map((e) => e.payload);
    expect(progress[0]).toMatchObject({ kind: 'simulate', finished: false });
    expect(progress.at(-1)).toMatchObject({ kind: 'simulate', finished: true });
    expect(result.cancelled).toBe(true);
    expect(result.nodes).toEqual([]);
    expect(studio.workspace!.getNodes(studio.workspace!.getNode(leafId)!.trajectoryId)).toHaveLength(before);
  });

  it('says what to do when no model is loaded', async () => {
    await studio.models.unload();
    const envelope = await dispatch(studio, 'simulate.run', { jobId: 'x', nodeId: leafId, action: 'ls' });
    expect(envelope).toMatchObject({ ok: false, error: { code: 'no-model' } });
    expect(!envelope.ok && envelope.error.message).toMatch(/pick a model folder or an endpoint/);
    const missing = await dispatch(studio, 'model.load', { spec: { kind: 'onnx', path: '/nonexistent/model' } });
    expect(missing).toMatchObject({ ok: false, error: { code: 'model-missing' } });
    await studio.models.load({ kind: 'onnx', path: TEST_MODEL });
  });
});

describe('workspace store used by simulation', () => {
  it('keeps simulated nodes across reopen', () => {
    const path = studio.workspace!.path;
    const trajectoryId = studio.workspace!.getNode(leafId)!.trajectoryId;
    const count = studio.workspace!.getNodes(trajectoryId).filter((n) => n.origin === 'simulated').length;
    const reopened = WorkspaceStore.open(path);
    expect(reopened.getNodes(trajectoryId).filter((n) => n.origin === 'simulated')).toHaveLength(count);
    reopened.close();
  });
});
