// `worldloom serve` with a hostile model file: each GGUF that used to end the host (llama.cpp's
// asserts on block_count, expert_count, expert_used_count; a division by zero on
// full_attention_interval) is loaded over the API and refused with its cause, and the same host
// then loads a good model and simulates a step. Files are made from the tiny fixture at test time.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Studio } from '../service/studio';
import { ggufFixtureUnavailable, tinyGguf } from '../testing/gguf-fixtures';
import { ggufVariant } from '../testing/gguf-variants';
import { startHost, type RunningHost } from './server';

const unavailable = ggufFixtureUnavailable();
let host: RunningHost;
let studio: Studio;
let dir: string;
let ws: WebSocket;

type Envelope = { ok: boolean; value?: unknown; error?: { message: string } };

function rpc(method: string, input: unknown): Promise<Envelope> {
  const id = Math.random();
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(String(data)) as { type: string; id: number; envelope: Envelope };
      if (msg.type === 'result' && msg.id === id) {
        ws.off('message', onMessage);
        resolve(msg.envelope);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, input }));
  });
}

describe.skipIf(unavailable)(`the host after a hostile model file${unavailable ? ` — skipped: ${unavailable}` : ''}`, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wl-host-hostile-'));
    process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
    // Its own verdicts: every hostile file here is probed, none is taken from an earlier run.
    process.env.WORLDLOOM_CACHE_DIR = join(dir, 'cache');
    const ui = join(dir, 'ui');
    mkdirSync(ui);
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>ui</title>');
    studio = new Studio({ door: 'host', resourcesDir: join(dir, 'resources') });
    host = await startHost({ studio, rendererDir: ui });
    ws = await new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}` });
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
    });
  }, 600_000);
  afterAll(async () => {
    delete process.env.WORLDLOOM_CACHE_DIR;
    ws?.close();
    await host?.close();
    studio?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses each over the API with its cause, then loads a good model and simulates on the same host', async () => {
    const good = tinyGguf('f32');
    const hostile = [
      { edit: { key: 'qwen35moe.block_count', value: 100_000 }, says: /block_count is 100000; llama\.cpp takes 1 to 512 layers/ },
      { edit: { key: 'qwen35moe.expert_count', value: 1_000_000 }, says: /expert_count is 1000000; llama\.cpp takes at most 1024 experts/ },
      { edit: { key: 'qwen35moe.expert_used_count', value: 9 }, says: /expert_used_count is 9, more than the 8 experts/ },
      { edit: { key: 'qwen35moe.full_attention_interval', value: 0 }, says: /full_attention_interval is 0; it must be at least 1/ },
    ];
    for (const [index, { edit, says }] of hostile.entries()) {
      // llama.cpp reads full_attention_interval only where the file has no recurrent_layers list.
      const path = ggufVariant(good, join(dir, `hostile-${index}.gguf`), { hideKey: 'qwen35moe.attention.recurrent_layers' }, edit);
      const loaded = await rpc('model.load', { spec: { kind: 'gguf', path, threads: 1 } });
      expect(loaded.ok).toBe(false);
      expect(loaded.error!.message).toMatch(says);
    }
    expect((await rpc('workspace.create', { path: join(dir, 'w.worldloom') })).ok).toBe(true);
    const created = await rpc('trajectory.create', { title: 'ls', domain: 'terminal', systemPrompt: 'bash', initialState: 'agent@sandbox:~$' });
    expect(created.ok).toBe(true);
    const root = (created.value as { nodes: { id: string }[] }).nodes[0]!.id;
    const loaded = await rpc('model.load', { spec: { kind: 'gguf', path: good, threads: 1, concurrency: 1 } });
    expect(loaded.ok).toBe(true);
    const simulated = await rpc('simulate.run', { jobId: 'after-hostile', nodeId: root, action: 'ls', samples: 1, sampling: { maxTokens: 4, seed: 1, thinking: false } });
    expect(simulated.ok).toBe(true);
    const nodes = (simulated.value as { nodes: { origin: string; parentId: string }[] }).nodes;
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ origin: 'simulated', parentId: root });
  }, 180_000);
});
