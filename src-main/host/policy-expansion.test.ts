// Policy expansion through the contract, as the CLI and the dialog call it: a script policy
// and an OpenAI-compatible policy (Worldloom's own `serve --openai`) expand a node three
// levels deep; budgets and Cancel stop it; every node names the policy that chose its action.
// It sits with the doors, not with agents/, because one policy is served by a door (openai-api).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES_DIR } from '../testing/paths';
import type { ExpandResult } from '../common/contract/agents';
import type { JobProgress } from '../common/contract/jobs';
import type { NodeRecord } from '../common/trajectory/model';
import { fileHead, fileSource } from '../parsing/sources';
import { dispatch } from '../service/dispatch';
import { importTrajectories } from '../formats/import-trajectories';
import { Studio } from '../service/studio';
import { previewDataset } from '../dataset/export-dataset';
import { plannedSimulations } from '../agents/expand';
import { startOpenAiApi } from './openai-api';
import { parseActionScript } from '../agents/policy';

const DEMO = join(RESOURCES_DIR, 'demo', 'demo-trajectories.jsonl');

describe('policy expansion', () => {
  let dir: string;
  let studio: Studio;
  let rootId: string;
  const progress: JobProgress[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wl-expand-'));
    studio = new Studio({ door: 'cli', resourcesDir: RESOURCES_DIR });
    studio.openWorkspace(join(dir, 'w.worldloom'), 'create');
    const store = studio.requireStore();
    importTrajectories(store, fileSource(DEMO), { head: fileHead(DEMO) });
    const terminal = store.listTrajectories().find((t) => t.domain === 'terminal')!;
    rootId = store.getNodes(terminal.id).find((n) => n.parentId === null)!.id;
    await studio.loadModel();
    studio.onEvent((event, payload) => {
      if (event === 'job.progress') progress.push(payload as JobProgress);
    });
  }, 120_000);

  afterAll(async () => {
    await studio?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const expand = async (input: Record<string, unknown>): Promise<ExpandResult> => {
    const envelope = await dispatch(studio, 'agents.expand', { jobId: `expand-${Math.random()}`, nodeId: rootId, ...input });
    if (!envelope.ok) throw new Error(envelope.error.message);
    return envelope.value as ExpandResult;
  };
  const depthBelowRoot = (n: NodeRecord) => n.depth;

  it('expands a node three levels deep with a script policy, breadth-first, every node naming the policy', async () => {
    const script = JSON.stringify(['ls', 'mkdir work', 'cd work', 'touch notes.txt']);
    const result = await expand({ policy: { kind: 'script', text: script, name: 'plan.json' }, actions: 2, samples: 1, depth: 3 });
    expect(result.stoppedBy).toBe('done');
    expect(result.levels).toBe(3);
    // 2 actions at the root, 2 at each of those, 2 at each of those: 2 + 4 + 8.
    expect(result.nodes).toHaveLength(plannedSimulations(2, 1, 3));
    expect(result.nodes.map(depthBelowRoot)).toEqual([1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3]);
    const store = studio.requireStore();
    for (const node of result.nodes) {
      expect(node.origin).toBe('agent');
      expect(node.provenance.agent).toMatchObject({ kind: 'policy', name: 'script plan.json' });
      expect(node.provenance.agent?.promptHash).toMatch(/^sha256:/);
      // A flat script never proposes an action already taken on the path.
      const actions = store.paths.pathTo(node.id).slice(1).map((n) => n.action);
      expect(new Set(actions).size).toBe(actions.length);
    }
    const finished = progress.filter((p) => p.kind === 'expand' && p.finished);
    expect(finished.length).toBeGreaterThan(0);
    // The agent-SFT export takes the policy's paths: one example per path, the actions as the agent's turns.
    const deepest = result.nodes.at(-1)!;
    const preview = previewDataset(store, { filter: 'origin = agent', scope: { kind: 'path', nodeId: deepest.id } }, { builder: 'agent', per: 'path' }, 1);
    expect(preview.examples).toBe(1);
    const assistantTurns = preview.first[0]!.messages.filter((m) => m.role === 'assistant').map((m) => m.content).join('\n');
    for (const n of store.paths.pathTo(deepest.id).slice(1)) expect(assistantTurns).toContain(n.action);
  }, 180_000);

  it('simulates M samples of each action and follows per-level scripts', async () => {
    const script = JSON.stringify([['echo one'], ['echo two']]);
    const result = await expand({ policy: { kind: 'script', text: script }, actions: 3, samples: 2, depth: 2, sampling: { temperature: 1 } });
    expect(result.nodes.filter((n) => n.depth === 1).map((n) => n.action)).toEqual(['echo one', 'echo one']);
    expect(result.nodes.filter((n) => n.depth === 2).map((n) => n.action)).toEqual(['echo two', 'echo two', 'echo two', 'echo two']);
  }, 180_000);

  it('stops when the token budget is spent, and when cancelled', async () => {
    const script = 'ls\npwd\nwhoami\n';
    const budgeted = await expand({ policy: { kind: 'script', text: script }, actions: 3, depth: 3, tokenBudget: 1 });
    expect(budgeted.stoppedBy).toBe('tokens');
    expect(budgeted.nodes).toHaveLength(1);

    const jobId = 'expand-to-cancel';
    const stop = studio.onEvent((event, payload) => {
      if (event === 'nodes.added' && (payload as { reason: string }).reason === 'agent') void dispatch(studio, 'job.cancel', { jobId });
    });
    const envelope = await dispatch(studio, 'agents.expand', { jobId, nodeId: rootId, policy: { kind: 'script', text: script }, actions: 3, depth: 3 });
    stop();
    expect(envelope.ok).toBe(true);
    const cancelled = (envelope as { value: ExpandResult }).value;
    expect(cancelled.stoppedBy).toBe('cancelled');
    expect(cancelled.nodes.length).toBeLessThan(plannedSimulations(3, 1, 3));
  }, 180_000);

  it('expands three levels with an OpenAI-compatible policy: Worldloom serving its own model', async () => {
    const api = await startOpenAiApi({ studio, key: 'policy-key' });
    try {
      const result = await expand({ policy: { kind: 'openai', baseUrl: api.baseUrl, apiKey: 'policy-key', maxTokens: 48, temperature: 1, seed: 5 }, actions: 2, samples: 1, depth: 3 });
      expect(result.levels).toBe(3);
      expect(result.nodes.some((n) => n.depth === 3)).toBe(true);
      const modelId = studio.models.current!.describe().modelId;
      for (const node of result.nodes) {
        expect(node.origin).toBe('agent');
        expect(node.action.trim()).not.toBe('');
        expect(node.provenance.agent).toMatchObject({ kind: 'policy', name: 'openai-compatible', model: modelId, sampling: { temperature: 1, maxTokens: 48 } });
        expect(node.provenance.agent?.promptHash).toMatch(/^sha256:/);
      }
      expect(result.tokens).toBeGreaterThan(0);
    } finally {
      await api.close();
    }
  }, 300_000);

  it('reads scripts as text and says what is wrong with a bad one', () => {
    expect(parseActionScript('# plan\nls -la\n\n  cat a.txt  \n')).toEqual({ flat: ['ls -la', 'cat a.txt'], levels: null });
    expect(parseActionScript('{"actions": ["a", "b"]}').flat).toEqual(['a', 'b']);
    expect(() => parseActionScript('[1, 2]')).toThrow(/must be a string/);
    expect(() => parseActionScript('{"actions": [')).toThrow(/does not parse/);
    expect(() => parseActionScript('# only a comment\n')).toThrow(/no actions/);
  });
});
