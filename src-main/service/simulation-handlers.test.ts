// Simulating through the contract remembers the panel's settings per workspace, and a seed
// asked for again reuses the sample it already made instead of storing an identical twin.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiOutput } from '../common/contract/api';
import { startFakeVllm, type FakeServer } from '../testing/fake-vllm-server';
import { dispatch } from './dispatch';
import { missingRanges } from '../simulation/sample-reuse';
import { Studio } from './studio';

const RESOURCES = fileURLToPath(new URL('../../resources', import.meta.url));

let studio: Studio;
let server: FakeServer;
let dir: string;
let rootId: string;

async function call<M extends 'simulate.run' | 'simulate.remembered'>(method: M, input: unknown): Promise<ApiOutput<M>> {
  const envelope = await dispatch(studio, method, input);
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value as ApiOutput<M>;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wl-sim-handlers-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  server = await startFakeVllm({ models: [{ id: 'agentworld', max_model_len: 32_768 }] });
  studio = new Studio({ door: 'cli', resourcesDir: RESOURCES });
  studio.openWorkspace(join(dir, 'w.worldloom'), 'create');
  rootId = studio.workspace!.createTrajectory({ title: 't', domain: 'terminal', systemPrompt: '', initialState: '$ ' }).nodes[0]!.id;
  await studio.models.load({ kind: 'openai', baseUrl: server.url });
});
afterAll(async () => {
  await studio.dispose();
  await server.close();
});

describe('model.load with CPU threads', () => {
  // The CLI's --threads and the model panel's field reach the in-process engine through the contract.
  it('runs an ONNX model on the threads asked for, and refuses a count the contract does not take', async () => {
    const own = new Studio({ door: 'cli', resourcesDir: RESOURCES });
    try {
      const path = join(RESOURCES, 'models', 'worldloom-nano');
      const loaded = await dispatch(own, 'model.load', { spec: { kind: 'onnx', path, device: 'cpu', threads: 1 } });
      expect(loaded.ok).toBe(true);
      expect(own.models.current!.describe().notes).toContain('onnxruntime on 1 CPU thread');
      expect(await dispatch(own, 'model.load', { spec: { kind: 'onnx', path, threads: 0 } })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    } finally {
      await own.dispose();
    }
  });
});

describe('simulate.run', () => {
  it('reuses the samples a seed already made, simulates only the missing seeds, and remembers samples and seed', async () => {
    expect(await call('simulate.remembered', {})).toEqual({ samples: 1, seed: 0 });
    const first = await call('simulate.run', { jobId: 'a', nodeId: rootId, action: 'ls', samples: 1, sampling: { seed: 5, maxTokens: 64 } });
    expect(first.nodes).toHaveLength(1);
    expect(first.reused).toEqual([]);
    expect(server.stats.chatRequests).toBe(1);

    const wider = await call('simulate.run', { jobId: 'b', nodeId: rootId, action: 'ls', samples: 3, sampling: { seed: 5, maxTokens: 64 } });
    expect(wider.nodes.map((n) => n.provenance.seed)).toEqual([5, 6, 7]);
    expect(wider.nodes[0]!.id).toBe(first.nodes[0]!.id);
    expect(wider.reused).toEqual([first.nodes[0]!.id]);
    expect(server.stats.chatRequests).toBe(3);

    const again = await call('simulate.run', { jobId: 'c', nodeId: rootId, action: 'ls', samples: 3, sampling: { seed: 5, maxTokens: 64 } });
    expect(again.nodes.map((n) => n.id)).toEqual(wider.nodes.map((n) => n.id));
    expect(again.reused).toEqual(wider.nodes.map((n) => n.id));
    expect(server.stats.chatRequests).toBe(3);
    expect(studio.workspace!.childrenOf(rootId)).toHaveLength(3);

    // Other settings make another sample, even with the same seed.
    const hotter = await call('simulate.run', { jobId: 'd', nodeId: rootId, action: 'ls', samples: 1, sampling: { seed: 5, maxTokens: 64, temperature: 1.2 } });
    expect(hotter.reused).toEqual([]);
    expect(studio.workspace!.childrenOf(rootId)).toHaveLength(4);

    expect(await call('simulate.remembered', {})).toEqual({ samples: 1, seed: 5 });
    await call('simulate.run', { jobId: 'e', nodeId: rootId, action: 'pwd', samples: 4, sampling: { seed: 11, maxTokens: 64 } });
    studio.openWorkspace(join(dir, 'w.worldloom'), 'open');
    expect(await call('simulate.remembered', {})).toEqual({ samples: 4, seed: 11 });
  });

  it('splits the seeds still to simulate into runs', () => {
    expect(missingRanges([null, 'x', null, null, 'y', null])).toEqual([
      { start: 0, count: 1 },
      { start: 2, count: 2 },
      { start: 5, count: 1 },
    ]);
    expect(missingRanges(['x', 'y'])).toEqual([]);
  });
});
