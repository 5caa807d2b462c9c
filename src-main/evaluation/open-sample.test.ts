import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OnnxEngine } from '../engine/onnx/onnx-engine';
import { promptForStep } from '../simulation/step-prompt';
import { WorkspaceStore } from '../store/workspace-store';
import { loadJudgeTemplate } from './judge';
import { openEvaluatedSample } from './open-sample';
import { runEvaluation } from './run-evaluation';

const DATA = fileURLToPath(new URL('./fixtures/bench', import.meta.url));
const PUBLIC_RUN = fileURLToPath(new URL('./fixtures/public-run', import.meta.url));
const TEST_MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/tiny-decoder', import.meta.url));
const TEMPLATE = loadJudgeTemplate(fileURLToPath(new URL('../../resources/judge/rubric.md', import.meta.url)));

describe('opening an evaluated sample', () => {
  it('makes a trajectory of the real turns with the prediction beside the evaluated observation, once', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wl-open-'));
    const engine = await OnnxEngine.load(TEST_MODEL);
    await runEvaluation({ dataDir: DATA, outDir: out, engine, judgeTemplate: TEMPLATE, sampling: { maxTokens: 6 } });
    await engine.dispose();
    const store = WorkspaceStore.create(join(out, 'w.worldloom'));
    const opened = openEvaluatedSample(store, out, 'terminal/t1/2');
    const nodes = store.getNodes(opened.trajectoryId);
    expect(nodes.map((n) => [n.depth, n.origin, n.action])).toEqual([
      [0, 'imported', ''],
      [1, 'real', 'ls'],
      [2, 'real', 'cat a.txt'],
      [2, 'simulated', 'cat a.txt'],
    ]);
    const real = store.getNode(opened.realNodeId)!;
    const predicted = store.getNode(opened.predictedNodeId)!;
    expect(real.observation).toBe('hello');
    expect(predicted.parentId).toBe(real.parentId);
    expect(predicted.metrics).toHaveProperty('editSimilarity');
    expect(predicted.provenance).toMatchObject({ modelId: engine.describe().modelId, evaluation: { key: 'terminal/t1/2', judge: null } });
    // Simulating the step again sends the model exactly what the evaluation sent.
    const again = await promptForStep(store, { builtinDir: fileURLToPath(new URL('../../resources/prompts', import.meta.url)) }, real.parentId!, real.action);
    expect(again.messages).toEqual([
      { role: 'system', content: 'You simulate a bash shell.' },
      { role: 'user', content: '## Turn 1\n\n**Action:**\nls' },
      { role: 'assistant', content: '**Environment Observation:**\na.txt' },
      { role: 'user', content: '## Turn 2\n\n**Action:**\ncat a.txt' },
    ]);
    expect(openEvaluatedSample(store, out, 'terminal/t1/2')).toEqual(opened);
    expect(() => openEvaluatedSample(store, out, 'terminal/zzz/1')).toThrow(/no prediction for terminal\/zzz\/1/);
    store.close();
  });

  it("opens a sample from the public script's judged.jsonl alone, with its judgement", () => {
    const store = WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-open-public-')), 'w.worldloom'));
    const opened = openEvaluatedSample(store, PUBLIC_RUN, 'terminal/t1/2');
    const predicted = store.getNode(opened.predictedNodeId)!;
    expect(predicted.observation).toBe('hi');
    expect(store.getNode(opened.realNodeId)!.observation).toBe('hello');
    expect(predicted.metrics).toMatchObject({ exactMatch: 0 });
    expect(predicted.provenance.evaluation).toMatchObject({
      judge: { valid: true, totalScore: 4, scores: { format: 5, factuality: 0 }, weaknesses: ['wrong file content'] },
    });
    expect(store.getTrajectory(opened.trajectoryId)).toMatchObject({ domain: 'terminal' });
    store.close();
  });
});
