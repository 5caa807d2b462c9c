// Expansion and replay through the contract, as the UI and the CLI run them, against a stand-in
// OpenAI server whose answers come back out of order (each request waits its own time) and on
// the in-process GGUF fixture: at concurrency 16 many requests are in flight, at 1 one, and both
// make the same nodes in the same order (ids aside). A step that keeps failing is named and the
// others keep their predictions; corpus replay reports per domain and per step; two models
// replayed over the same steps are compared.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobProgress } from '../common/contract/jobs';
import type { ModelSpec } from '../common/contract/simulation';
import type { NodeRecord } from '../common/trajectory/model';
import { startFakeVllm, type FakeServer } from '../testing/fake-vllm-server';
import { ggufFixtureUnavailable, tinyGguf } from '../testing/gguf-fixtures';
import type { Studio } from './studio';
import { studioWithModel } from '../testing/contract-studio';

/** Each request waits a time of its own (from its text), so later requests often finish first. */
const scrambled = (body: { messages: { content: string }[]; seed?: number }) => {
  const text = body.messages.at(-1)!.content + String(body.seed);
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return 5 + (h % 60);
};

let server: FakeServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wl-fanout-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  server = await startFakeVllm({ firstChunkDelayMs: scrambled });
});
afterAll(() => server.close());

async function openStudio(name: string, spec: ModelSpec) {
  const opened = await studioWithModel(dir, name, spec);
  const progress: JobProgress[] = [];
  opened.studio.onEvent((event, payload) => {
    if (event === 'job.progress') progress.push(payload as JobProgress);
  });
  return { ...opened, progress };
}

/** A recorded terminal session: real steps under a root, as a recorder or an importer leaves them. */
function recordSession(store: ReturnType<Studio['requireStore']>, title: string, actions: string[]): string {
  const bundle = store.createTrajectory({ title, domain: 'terminal', systemPrompt: '', initialState: 'agent@sandbox:~$' });
  let parentId = bundle.nodes[0]!.id;
  for (const action of actions) parentId = store.addNode({ parentId, action, observation: `real output of ${action}\nagent@sandbox:~$`, origin: 'real' }).id;
  return bundle.trajectory.id;
}

/** A trajectory's nodes in stored order, each named by its path of actions instead of its id. */
function shape(nodes: readonly NodeRecord[]): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const pathOf = (n: NodeRecord): string => (n.parentId ? `${pathOf(byId.get(n.parentId)!)} > ${n.action}` : 'root');
  return nodes.map((n) => `${pathOf(n)} | ${n.origin} | seed ${String(n.provenance.seed ?? '-')} | ${n.observation}`);
}

const SCRIPT = ['ls', 'pwd', 'whoami', 'date'];

async function expandAndReplay(concurrency: number, name: string) {
  const before = server.stats.maxActive;
  server.stats.maxActive = 0;
  const { studio, call, progress, store } = await openStudio(name, { kind: 'openai', baseUrl: server.url, concurrency });
  const root = store.createTrajectory({ title: 'explore', domain: 'terminal', systemPrompt: '', initialState: 'agent@sandbox:~$' });
  const expanded = await call('agents.expand', {
    jobId: 'x',
    nodeId: root.nodes[0]!.id,
    policy: { kind: 'script', name: 'plan.txt', text: SCRIPT.join('\n') },
    actions: 3,
    samples: 1,
    depth: 2,
    sampling: { maxTokens: 64 },
  });
  const expandActive = server.stats.maxActive;
  server.stats.maxActive = 0;
  const recorded = recordSession(store, 'session', ['cd /tmp', 'touch a', 'ls', 'cat a', 'echo hi', 'ls -la', 'pwd', 'exit']);
  const replay = await call('reality.replay', { jobId: 'r', trajectoryId: recorded, sampling: { maxTokens: 64 } });
  const replayActive = server.stats.maxActive;
  const result = { expanded, replay, expandActive, replayActive, tree: shape(store.getNodes(root.trajectory.id)), session: shape(store.getNodes(recorded)), progress };
  await studio.dispose();
  server.stats.maxActive = Math.max(before, replayActive);
  return result;
}

describe('many simulations at once against a serving endpoint', () => {
  it('keeps many requests in flight at 16 and one at 1, and both make the same nodes in the same order', async () => {
    const one = await expandAndReplay(1, 'one');
    const many = await expandAndReplay(16, 'many');
    expect(one.expandActive).toBe(1);
    expect(one.replayActive).toBe(1);
    // Level 2 holds 3 × 3 simulations; the replay 8 steps.
    expect(many.expandActive).toBeGreaterThanOrEqual(9);
    expect(many.replayActive).toBe(8);

    expect(one.expanded).toMatchObject({ levels: 2, stoppedBy: 'done', failures: [] });
    expect(many.expanded.nodes).toHaveLength(3 + 9);
    expect(many.tree).toEqual(one.tree);
    expect(many.session).toEqual(one.session);
    expect(many.replay.report.byStep.map((s) => s.depth)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

    // The job said how many were in flight while they ran (a few times a second, and at the end).
    const steps = many.progress.filter((p) => p.steps);
    expect(steps[0]!.steps).toMatchObject({ done: 0, inFlight: 1 });
    expect(steps.at(-1)!.steps).toMatchObject({ done: 8, inFlight: 0, failed: 0 });
    expect(steps.at(-1)!.label).toMatch(/8 of 8 steps done · 0 in flight · [\d.]+\/s/);
  }, 120_000);
});

describe('a step that keeps failing', () => {
  let failing: FakeServer;
  beforeAll(async () => {
    // Every request for one action answers 503; the engine retries it, then gives up on that step alone.
    failing = await startFakeVllm({ failWhen: (messages) => messages.at(-1)!.content.includes('broken-step') });
  });
  afterAll(() => failing.close());

  it('is named in the result while every other step keeps its prediction', async () => {
    const { studio, call, store } = await openStudio('failing', { kind: 'openai', baseUrl: failing.url, concurrency: 4 });
    const recorded = recordSession(store, 'with a bad step', ['ls', 'broken-step', 'pwd']);
    // Retries are quick here: the engine's backoff starts at 500 ms and doubles, four tries in all.
    const replay = await call('reality.replay', { jobId: 'f', trajectoryId: recorded, sampling: { maxTokens: 16 } });
    expect(replay.nodes).toHaveLength(2);
    expect(replay.failures).toHaveLength(1);
    expect(replay.failures[0]!.step).toContain('step 2 of 3: broken-step');
    expect(replay.comparison.steps.map((s) => s.simulatedNodeId !== null)).toEqual([true, false, true]);
    await studio.dispose();
  }, 60_000);
});

describe('corpus replay and two models side by side', () => {
  it('replays the trajectories a filter selects into one report, then compares a second model on the same steps', async () => {
    const { studio, call, store } = await openStudio('corpus', { kind: 'openai', baseUrl: server.url });
    recordSession(store, 'first', ['ls', 'pwd']);
    recordSession(store, 'second', ['whoami', 'date', 'uname']);
    const web = store.createTrajectory({ title: 'a page', domain: 'web', systemPrompt: '', initialState: '<html/>' });
    store.addNode({ parentId: web.nodes[0]!.id, action: 'click #go', observation: 'clicked', origin: 'real' });

    const corpus = await call('reality.replay', { jobId: 'c', filter: 'domain = terminal', sampling: { maxTokens: 64 } });
    expect(corpus.trajectoryIds).toHaveLength(2);
    expect(corpus.report.byDomain.terminal).toMatchObject({ trajectories: 2, steps: 5 });
    expect(corpus.report.byDomain.web).toBeUndefined();
    expect(corpus.report.byStep).toEqual([
      expect.objectContaining({ depth: 1, steps: 2 }),
      expect.objectContaining({ depth: 2, steps: 2 }),
      expect.objectContaining({ depth: 3, steps: 1 }),
    ]);
    await expect(call('reality.replay', { jobId: 'c2', filter: 'domain = swe', sampling: {} })).rejects.toThrow(/No recorded trajectory here has a step that "domain = swe" selects/);
    await expect(call('reality.replay', { jobId: 'c3', filter: 'domian = swe', sampling: {} })).rejects.toThrow(/does not parse/);

    // The same steps through a second model (another served model), with the same seeds.
    const other = await startFakeVllm({ models: [{ id: 'other-world', max_model_len: 4096 }], reply: () => ({ reasoning: 'r', content: 'real output of ls\nagent@sandbox:~$' }) });
    try {
      await studio.loadModel({ kind: 'openai', baseUrl: other.url });
      await call('reality.replay', { jobId: 'c4', trajectoryIds: corpus.trajectoryIds, sampling: { maxTokens: 64 } });
      const models = await call('reality.replayedModels', { trajectoryIds: corpus.trajectoryIds });
      expect(models.map((m) => m.key).sort()).toEqual(['other-world', 'tiny-world']);
      const ab = await call('reality.compareModels', { trajectoryIds: corpus.trajectoryIds, models: ['tiny-world', 'other-world'] });
      expect(ab.models.map((m) => m.report.byDomain.terminal?.steps)).toEqual([5, 5]);
      // The second model copies the real screen of `ls` exactly: that step is where they differ most.
      expect(ab.differences[0]).toMatchObject({ action: 'ls', depth: 1 });
      expect(ab.differences[0]!.predictions[1]!.score).toBe(1);
      expect(ab.differences[0]!.gap).toBeLessThan(0);
      const html = await call('reality.exportReport', { path: join(dir, 'ab.html'), format: 'html', trajectoryIds: corpus.trajectoryIds, models: ['tiny-world', 'other-world'] });
      expect(html.trajectories).toBe(2);
    } finally {
      await other.close();
      await studio.dispose();
    }
  }, 120_000);
});

describe.skipIf(ggufFixtureUnavailable() !== null)(`steps at once on the GGUF fixture${ggufFixtureUnavailable() ? ` — skipped: ${ggufFixtureUnavailable()}` : ''}`, () => {
  it('decodes concurrent steps as parallel sequences and stores the same nodes as one at a time', async () => {
    const path = tinyGguf('f32');
    const run = async (concurrency: number) => {
      const { studio, call, store } = await openStudio(`gguf-${concurrency}`, { kind: 'gguf', path, concurrency, threads: 1 });
      expect(studio.simulator.stepsAtOnce(1)).toBe(concurrency);
      const recorded = recordSession(store, 'session', ['ls', 'pwd', 'echo hi', 'cat a']);
      const replay = await call('reality.replay', { jobId: 'g', trajectoryId: recorded, sampling: { maxTokens: 12, temperature: 0, thinking: false } });
      expect(replay.failures).toEqual([]);
      const nodes = shape(store.getNodes(recorded));
      await studio.dispose();
      return nodes;
    };
    const one = await run(1);
    const four = await run(4);
    expect(four).toEqual(one);
    expect(one.filter((n) => n.includes('| simulated |'))).toHaveLength(4);
  }, 300_000);
});

describe('resampling several steps and the limit a workspace keeps', () => {
  it('resamples every step given at once, each from its own parent, stored in the order given', async () => {
    server.stats.maxActive = 0;
    const { studio, call, store } = await openStudio('resample', { kind: 'openai', baseUrl: server.url, concurrency: 8 });
    try {
      const root = store.createTrajectory({ title: 'path', domain: 'terminal', systemPrompt: '', initialState: 'agent@sandbox:~$' });
      let parentId = root.nodes[0]!.id;
      const path: string[] = [];
      for (const action of ['ls', 'pwd', 'whoami']) {
        const node = store.addNode({ parentId, action, observation: `sim ${action}`, origin: 'simulated' });
        path.push(node.id);
        parentId = node.id;
      }
      const result = await call('simulate.resample', { jobId: 'rs', nodeIds: path, sampling: { seed: 5, maxTokens: 64 } });
      expect(server.stats.maxActive).toBe(3);
      expect(result.seed).toBe(5);
      expect(result.nodes.map((n) => [n.action, n.parentId, n.observation])).toEqual([
        ['ls', root.nodes[0]!.id, 'output of ls (seed 5)'],
        ['pwd', path[0], 'output of pwd (seed 5)'],
        ['whoami', path[1], 'output of whoami (seed 5)'],
      ]);
      await expect(call('simulate.resample', { jobId: 'rs2', nodeIds: [root.nodes[0]!.id] })).rejects.toThrow(/initial state/);
    } finally {
      await studio.dispose();
    }
  }, 60_000);

  it('remembers the requests at once chosen for a server with the workspace, and says it in the model panel', async () => {
    const first = await openStudio('kept', { kind: 'openai', baseUrl: server.url, concurrency: 3 });
    expect(first.studio.models.state().loaded?.concurrency).toEqual({ requests: 3, how: expect.stringMatching(/^up to 3 requests in flight at once/) });
    await first.studio.loadModel({ kind: 'openai', baseUrl: server.url });
    expect(first.studio.models.current?.describe().concurrency?.requests).toBe(3);
    await first.studio.dispose();
    const fresh = await openStudio('fresh', { kind: 'openai', baseUrl: server.url });
    expect(fresh.studio.models.current?.describe().concurrency?.requests).toBe(16);
    await fresh.studio.dispose();
  }, 60_000);
});

describe('cancelling a replay with many steps in flight', () => {
  it('stops every request in flight and keeps the steps that finished', async () => {
    // The first two steps answer at once; the rest would take a minute.
    const slow = await startFakeVllm({ firstChunkDelayMs: (body) => (/step-[01]\b/.test(body.messages.at(-1)!.content) ? 5 : 60_000) });
    const { studio, call, store } = await openStudio('cancel', { kind: 'openai', baseUrl: slow.url, concurrency: 8 });
    try {
      const recorded = recordSession(store, 'long', ['echo step-0', 'echo step-1', 'echo step-2', 'echo step-3', 'echo step-4']);
      let predicted = 0;
      studio.onEvent((event, payload) => {
        if (event === 'nodes.added' && (payload as { reason: string }).reason === 'replayed' && ++predicted === 2) void call('job.cancel', { jobId: 'cx' });
      });
      const started = performance.now();
      const replay = await call('reality.replay', { jobId: 'cx', trajectoryId: recorded, sampling: { maxTokens: 64 } });
      expect(performance.now() - started).toBeLessThan(30_000);
      expect(replay.cancelled).toBe(true);
      expect(replay.nodes.map((n) => n.action)).toEqual(['echo step-0', 'echo step-1']);
      expect(replay.failures).toEqual([]);
      // The three requests still waiting were hung up on, not left to run.
      await expect.poll(() => slow.stats.hangUps).toBe(3);
    } finally {
      await studio.dispose();
      await slow.close();
    }
  }, 60_000);
});
