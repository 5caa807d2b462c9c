// The one simulator over a real workspace and the tiny Qwen3.5 fixture model, without the
// Studio: the samples already made with the settings in force are handed back, only the
// missing ones are generated (with their own seeds), and only new nodes are announced.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldModelEngine } from '../common/engine';
import type { NodeRecord } from '../common/trajectory/model';
import { OnnxEngine } from '../engine/onnx/onnx-engine';
import { WorkspaceStore } from '../store/workspace-store';
import { Simulator } from './simulator';

const TEST_MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/qwen35/tiny-chat', import.meta.url));
const PROMPTS = fileURLToPath(new URL('../../resources/prompts', import.meta.url));

let store: WorkspaceStore;
let engine: WorldModelEngine;
let rootId: string;
const announced: { reason: string; nodes: readonly NodeRecord[] }[] = [];
let current: WorldModelEngine | null = null;
const simulator = new Simulator({
  models: { get current() { return current; } },
  requireStore: () => store,
  templates: { builtinDir: PROMPTS },
  announceNodesAdded: (reason, nodes) => announced.push({ reason, nodes }),
});

beforeAll(async () => {
  store = WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-simulator-')), 'w.worldloom'));
  rootId = store.createTrajectory({ title: 't', domain: 'terminal', systemPrompt: 'A shell.', initialState: '$ ' }).nodes[0]!.id;
  engine = await OnnxEngine.load(TEST_MODEL, { device: 'cpu' });
});
afterAll(async () => {
  await engine.dispose();
  store.close();
});

describe('the simulator', () => {
  it('refuses with what to do while no model is loaded', () => {
    expect(() => simulator.prepare({ nodeId: rootId, action: 'ls', reason: 'simulated' })).toThrow(/No world model is loaded.*--model/);
  });

  it('hands back the samples already made and generates only the missing ones, announcing only those', async () => {
    current = engine;
    const sampling = { seed: 10, maxTokens: 8, thinking: false };
    const first = await simulator.simulate({ nodeId: rootId, action: 'ls', samples: 1, sampling: { ...sampling, seed: 11 }, reuse: true, reason: 'simulated' });
    expect(first.nodes).toHaveLength(1);
    announced.length = 0;
    // Seeds 10, 11, 12: the middle one exists.
    const three = await simulator.simulate({ nodeId: rootId, action: 'ls', samples: 3, sampling, reuse: true, reason: 'simulated' });
    expect(three.nodes.map((n) => n.provenance.seed)).toEqual([10, 11, 12]);
    expect(three.nodes[1]!.id).toBe(first.nodes[0]!.id);
    expect(three.reused).toEqual([first.nodes[0]!.id]);
    expect(announced.flatMap((a) => a.nodes.map((n) => n.provenance.seed))).toEqual([10, 12]);
    expect(store.childrenOf(rootId)).toHaveLength(3);
    // Without reuse (an agent's step), the same settings make new nodes.
    const again = await simulator.simulate({ nodeId: rootId, action: 'ls', samples: 1, sampling, reason: 'agent' });
    expect(again.reused).toEqual([]);
    expect(store.childrenOf(rootId)).toHaveLength(4);
    expect(announced.at(-1)).toMatchObject({ reason: 'agent', nodes: again.nodes });
  });
});
