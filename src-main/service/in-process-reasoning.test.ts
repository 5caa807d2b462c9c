// The same rules in-process, on the tiny Qwen3.5-MoE fixture whose chat template opens the
// think block in the generation prompt (as Qwen-AgentWorld's does): its output starts inside
// the reasoning, so a budget that ends there stores no node whose observation is reasoning;
// thinking off renders the template with enable_thinking=false; the exact prompt is the
// template applied.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiOutput } from '../common/contract/api';
import { dispatch } from './dispatch';
import { Studio } from './studio';

const MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/qwen35/tokens-fp32', import.meta.url));
const RESOURCES = fileURLToPath(new URL('../../resources', import.meta.url));
const MISSING = existsSync(join(MODEL, 'model.onnx')) ? '' : ' (skipped: the Qwen3.5 fixture is not built; npm run model:fixtures)';

let studio: Studio;
let leafId: string;
async function call<M extends 'simulate.run' | 'simulate.prompt' | 'sampling.get'>(method: M, input: unknown): Promise<ApiOutput<M>> {
  const envelope = await dispatch(studio, method, input);
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value as ApiOutput<M>;
}

describe.skipIf(MISSING !== '')(`simulating in-process with a model whose template opens the think block${MISSING}`, () => {
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-inproc-'));
    process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
    studio = new Studio({ door: 'host', resourcesDir: RESOURCES });
    studio.openWorkspace(join(dir, 'w.worldloom'), 'create');
    const { nodes } = studio.workspace!.createTrajectory({ title: 't', domain: 'terminal', systemPrompt: 'A shell.', initialState: '$ ' });
    leafId = studio.workspace!.addNode({ parentId: nodes[0]!.id, action: 'mkdir build', observation: '', origin: 'manual' }).id;
    await studio.models.load({ kind: 'onnx', path: MODEL });
  });
  afterAll(() => studio?.dispose());

  it('takes its sampling from the model’s generation config, thinking on', async () => {
    const settings = await call('sampling.get', {});
    expect(settings.reasoning).toEqual({ reasons: true, canDisable: true });
    expect(settings.effective).toMatchObject({ temperature: 0.6, topK: 20, topP: 0.95, thinking: true });
    expect(settings.sources).toMatchObject({ temperature: 'model', topK: 'model', thinking: 'model' });
  });

  it('stores no node when the budget ends inside the reasoning the template opened', async () => {
    const before = studio.workspace!.getNodes(studio.workspace!.getNode(leafId)!.trajectoryId).length;
    const counts: number[] = [];
    const stop = studio.onEvent((event, payload) => {
      if (event === 'simulate.token' && (payload as { sample: number }).sample === 0) counts.push((payload as { completionTokens: number }).completionTokens);
    });
    const result = await call('simulate.run', { jobId: 'cut', nodeId: leafId, action: 'ls', samples: 2, sampling: { maxTokens: 6, seed: 1 } });
    stop();
    // The opened think block streams first and is no token; then one count per token, up to the budget.
    expect(counts[0]).toBe(0);
    expect(counts.at(-1)).toBe(6);
    expect(result.nodes).toEqual([]);
    expect(result.incomplete.map((s) => [s.sample, s.reason, s.completionTokens])).toEqual([
      [0, 'reasoning', 6],
      [1, 'reasoning', 6],
    ]);
    expect(result.incomplete[0]!.text.startsWith('<think>')).toBe(true);
    expect(result.incomplete[0]!.message).toBe('ran out of tokens while reasoning (6 used)');
    expect(studio.workspace!.getNodes(studio.workspace!.getNode(leafId)!.trajectoryId)).toHaveLength(before);

    // Continuing resumes from what it wrote: the new tokens follow the old ones, counted together.
    const first = result.incomplete[0]!;
    const again = await call('simulate.run', {
      jobId: 'more',
      nodeId: leafId,
      action: 'ls',
      sampling: { maxTokens: 4, seed: first.seed },
      continuation: { text: first.text, completionTokens: first.completionTokens },
    });
    expect(again.incomplete).toHaveLength(1);
    expect(again.incomplete[0]!.completionTokens).toBe(10);
    expect(again.incomplete[0]!.text.startsWith(first.text)).toBe(true);
    expect(again.incomplete[0]!.text.length).toBeGreaterThan(first.text.length);
  });

  it('with thinking off, renders the template with enable_thinking=false and its output is no reasoning', async () => {
    const result = await call('simulate.run', { jobId: 'off', nodeId: leafId, action: 'ls', sampling: { maxTokens: 6, seed: 1, thinking: false } });
    expect(result.incomplete).toEqual([]);
    const node = result.nodes[0]!;
    expect(node.reasoning).toBeNull();
    expect(node.provenance).toMatchObject({ finishReason: expect.stringMatching(/^(length|eos)$/), sampling: { thinking: false } });
    const prompt = await call('simulate.prompt', { nodeId: node.id });
    expect(prompt.templateKwargs).toEqual({ enable_thinking: false });
    expect(prompt.rendered).toMatch(/<\|im_start\|>user\n### Turn 2\n\*\*Action:\*\*\nls<\|im_end\|>\n<\|im_start\|>assistant\n<think>\n\n<\/think>\n\n$/);
    expect(prompt.renderNote).toMatch(/chat template/);
  });
});
