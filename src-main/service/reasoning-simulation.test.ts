// Simulating with a reasoning world model behind a server, through the contract as every
// door calls it: the model thinks ~3,000 tokens before it answers (Qwen-AgentWorld thinks for
// thousands), the defaults come from the model, a budget that ends inside the reasoning
// stores nothing and says so, and the cut-off sample can be continued.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiOutput } from '../common/contract/api';
import { startFakeVllm, type FakeServer } from '../testing/fake-vllm-server';
import { dispatch } from './dispatch';
import { Studio } from './studio';

const RESOURCES = fileURLToPath(new URL('../../resources', import.meta.url));
const OBSERVATION = 'build  dist  src';
const REASONING_TOKENS = 3000;

let studio: Studio;
let server: FakeServer;
let leafId: string;
const tokenEvents: { sample: number; completionTokens: number; elapsedMs: number }[] = [];

async function call<M extends string>(method: M, input: unknown) {
  const envelope = await dispatch(studio, method, input);
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value as M extends 'simulate.run' | 'perturb.run' ? ApiOutput<'simulate.run'> : M extends 'simulate.prompt' ? ApiOutput<'simulate.prompt'> : ApiOutput<'sampling.get'>;
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wl-reasoning-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  server = await startFakeVllm({
    models: [{ id: 'agentworld', max_model_len: 262_144 }],
    reasoningIn: 'reasoning',
    reply: () => ({
      reasoning: Array.from({ length: REASONING_TOKENS }, (_, i) => `r${i}`).join(' '),
      content: `<predicted_observation>\n${OBSERVATION}\n</predicted_observation>`,
    }),
  });
  studio = new Studio({ door: 'host', resourcesDir: RESOURCES });
  studio.onEvent((event, payload) => {
    if (event === 'simulate.token') tokenEvents.push(payload as (typeof tokenEvents)[number]);
  });
  studio.openWorkspace(join(dir, 'w.worldloom'), 'create');
  const store = studio.workspace!;
  const { nodes } = store.createTrajectory({ title: 't', domain: 'terminal', systemPrompt: '', initialState: 'agent@box:~$ ' });
  leafId = store.addNode({ parentId: nodes[0]!.id, action: 'mkdir build', observation: '', origin: 'manual' }).id;
  await studio.models.load({ kind: 'openai', baseUrl: server.url });
});
afterAll(async () => {
  await studio.dispose();
  await server.close();
});

describe('a reasoning model behind a server', () => {
  it('simulates with default settings: 32,768 tokens, thinking on, and stores the predicted observation', async () => {
    tokenEvents.length = 0;
    const result = await call('simulate.run', { jobId: 'd', nodeId: leafId, action: 'ls' });
    expect(result.incomplete).toEqual([]);
    expect(result.nodes).toHaveLength(1);
    const node = result.nodes[0]!;
    expect(node.observation).toBe(OBSERVATION);
    expect(node.reasoning!.split(' ')).toHaveLength(REASONING_TOKENS);
    expect(node.provenance).toMatchObject({ finishReason: 'eos', sampling: { maxTokens: 32_768, thinking: true, temperature: 0.6 } });
    expect(server.stats.bodies.at(-1)).toMatchObject({ max_tokens: 32_768, temperature: 0.6, top_p: 0.95, top_k: 20 });
    expect(server.stats.bodies.at(-1)).not.toHaveProperty('chat_template_kwargs');
    // Tokens used and the time so far come with every streamed piece.
    expect(tokenEvents.at(-1)!.completionTokens).toBe(REASONING_TOKENS + 5);
    expect(tokenEvents.map((e) => e.completionTokens)).toEqual(tokenEvents.map((_, i) => i + 1));
    expect(tokenEvents.every((e, i) => i === 0 || e.elapsedMs >= tokenEvents[i - 1]!.elapsedMs)).toBe(true);
  });

  it('stores no node when the budget ends inside the reasoning, says so, and continues it to a node', async () => {
    const before = studio.workspace!.getNodes(studio.workspace!.getNode(leafId)!.trajectoryId).length;
    const cut = await call('simulate.run', { jobId: 'cut', nodeId: leafId, action: 'ls', sampling: { maxTokens: 1000, seed: 9 } });
    expect(cut.nodes).toEqual([]);
    expect(cut.incomplete).toHaveLength(1);
    const sample = cut.incomplete[0]!;
    expect(sample).toMatchObject({ sample: 0, seed: 9, reason: 'reasoning', completionTokens: 1000, maxTokens: 1000 });
    expect(sample.message).toBe('ran out of tokens while reasoning (1000 used)');
    expect(sample.reasoning.split(' ')).toHaveLength(1000);
    expect(studio.workspace!.getNodes(studio.workspace!.getNode(leafId)!.trajectoryId)).toHaveLength(before);

    const resumed = await call('simulate.run', {
      jobId: 'go-on',
      nodeId: leafId,
      action: 'ls',
      sampling: { maxTokens: 4000, seed: sample.seed },
      continuation: { text: sample.text, completionTokens: sample.completionTokens },
    });
    expect(server.stats.bodies.at(-1)).toMatchObject({ continue_final_message: true, seed: 9 });
    expect(resumed.incomplete).toEqual([]);
    const node = resumed.nodes[0]!;
    expect(node.observation).toBe(OBSERVATION);
    expect(node.reasoning!.split(/\s+/)).toHaveLength(REASONING_TOKENS);
    expect(node.provenance).toMatchObject({ continued: true, seed: 9, tokens: { completion: REASONING_TOKENS + 5 } });
  });

  it('remembers workspace overrides, sends thinking off to the server, and shows the exact prompt', async () => {
    const settings = await call('sampling.setWorkspace', { overrides: { thinking: false, maxTokens: 2048 } });
    expect(settings).toMatchObject({ workspace: { thinking: false, maxTokens: 2048 }, effective: { thinking: false, maxTokens: 2048, temperature: 0.6 } });
    expect(settings.sources).toMatchObject({ thinking: 'workspace', maxTokens: 'workspace', temperature: 'fallback' });
    const result = await call('simulate.run', { jobId: 'off', nodeId: leafId, action: 'pwd' });
    expect(server.stats.bodies.at(-1)).toMatchObject({ max_tokens: 2048, chat_template_kwargs: { enable_thinking: false } });
    expect(result.nodes[0]).toMatchObject({ observation: OBSERVATION, reasoning: null });

    const prompt = await call('simulate.prompt', { nodeId: result.nodes[0]!.id });
    expect(prompt.messages.at(-1)).toEqual({ role: 'user', content: '### Turn 2\n**Action:**\npwd' });
    expect(prompt.templateKwargs).toEqual({ enable_thinking: false });
    expect(prompt.promptHash).toBe(result.nodes[0]!.provenance.promptHash);
    expect(prompt).toMatchObject({ rendered: null, source: 'tree' });
    expect(prompt.renderNote).toMatch(/applies its chat template itself/);

    // The settings travel with the workspace file.
    const path = studio.workspace!.path;
    studio.openWorkspace(path, 'open');
    expect((await call('sampling.get', {})).workspace).toEqual({ thinking: false, maxTokens: 2048 });
    await call('sampling.setWorkspace', { overrides: {} });
    expect((await call('sampling.get', {})).effective).toMatchObject({ thinking: true, maxTokens: 32_768 });
  });

  it('perturbs in instruction mode with the same settings: a cut-off sample is reported, a finished one keeps its instruction', async () => {
    const cut = await call('perturb.run', { jobId: 'pc', nodeId: leafId, mode: 'instruction', kinds: [{ kindId: 'terminal.disk-full' }], seed: 2, sampling: { maxTokens: 100 } });
    expect(cut).toMatchObject({ nodes: [], incomplete: [{ reason: 'reasoning', completionTokens: 100, message: 'terminal.disk-full: ran out of tokens while reasoning (100 used)' }] });
    const done = await call('perturb.run', { jobId: 'pd', nodeId: leafId, mode: 'instruction', kinds: [{ kindId: 'terminal.disk-full' }], seed: 2 });
    expect(server.stats.bodies.at(-1)).toMatchObject({ max_tokens: 32_768 });
    const node = done.nodes[0]!;
    expect(node).toMatchObject({ origin: 'perturbed', observation: OBSERVATION });
    expect(node.provenance.controlInstruction).toMatch(/disk/i);
    // The exact prompt of a perturbed node carries the instruction it was simulated under.
    const prompt = await call('simulate.prompt', { nodeId: node.id });
    expect(prompt.messages[0]!.content).toContain(node.provenance.controlInstruction as string);
    expect(prompt.promptHash).toBe(node.provenance.promptHash);
  });

  it('replays a recorded trajectory with the settings in force: cut-off steps are reported, not stored', async () => {
    const store = studio.workspace!;
    const { trajectory, nodes } = store.createTrajectory({ title: 'real', domain: 'terminal', systemPrompt: '', initialState: 'agent@box:~$ ' });
    const first = store.addNode({ parentId: nodes[0]!.id, action: 'mkdir build', observation: '', origin: 'real' });
    store.addNode({ parentId: first.id, action: 'ls', observation: OBSERVATION, origin: 'real' });
    type Replay = ApiOutput<'reality.replay'>;
    const replay = async (sampling: object) => {
      const envelope = await dispatch(studio, 'reality.replay', { jobId: `rp-${JSON.stringify(sampling)}`, trajectoryId: trajectory.id, sampling });
      if (!envelope.ok) throw new Error(envelope.error.message);
      return envelope.value as Replay;
    };

    const cut = await replay({ maxTokens: 500 });
    expect(cut.nodes).toEqual([]);
    expect(cut.incomplete.map((s) => [s.step, s.message])).toEqual([
      [1, 'ran out of tokens while reasoning (500 used)'],
      [2, 'ran out of tokens while reasoning (500 used)'],
    ]);
    expect(store.getNodes(trajectory.id)).toHaveLength(3);

    const done = await replay({ seed: 4 });
    expect(done.incomplete).toEqual([]);
    expect(server.stats.bodies.at(-1)).toMatchObject({ max_tokens: 32_768, temperature: 0.6, seed: 4 });
    expect(done.nodes.map((n) => n.observation)).toEqual([OBSERVATION, OBSERVATION]);
    const last = done.nodes[1]!;
    expect(last).toMatchObject({ origin: 'simulated', metrics: { exactMatch: 1 }, provenance: { sampling: { maxTokens: 32_768, thinking: true } } });
    expect(last.provenance.replayOf).toBe(store.getNodes(trajectory.id).find((n) => n.origin === 'real' && n.action === 'ls')!.id);
  });

  it('brings its defaults within a small model’s context and refuses a larger budget with what to ask for', async () => {
    const small = await startFakeVllm({ models: [{ id: 'small', max_model_len: 8192 }] });
    try {
      await call('model.load', { spec: { kind: 'openai', baseUrl: small.url } });
      expect(await call('sampling.get', {})).toMatchObject({ maxTokensLimit: 8192, effective: { maxTokens: 8192 }, sources: { maxTokens: 'model' } });
      const envelope = await dispatch(studio, 'simulate.run', { jobId: 'big', nodeId: leafId, action: 'ls', sampling: { maxTokens: 20_000 } });
      expect(envelope).toMatchObject({ ok: false, error: { code: 'invalid' } });
      expect(!envelope.ok && envelope.error.message).toMatch(/20000 new tokens is more than the loaded model's context of 8192 tokens\. Ask for at most 8192/);
    } finally {
      await call('model.load', { spec: { kind: 'openai', baseUrl: server.url } });
      await small.close();
    }
  });
});
