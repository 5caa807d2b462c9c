import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OnnxEngine } from '../engine/onnx/onnx-engine';
import { loadJudgeTemplate } from './judge';
import { readEvaluatedSample } from './benchmark-sample';
import { runEvaluation } from './run-evaluation';

const DATA = fileURLToPath(new URL('./fixtures/bench', import.meta.url));
const PUBLIC_RUN = fileURLToPath(new URL('./fixtures/public-run', import.meta.url));
const TEST_MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/tiny-decoder', import.meta.url));
const TEMPLATE = loadJudgeTemplate(fileURLToPath(new URL('../../resources/judge/rubric.md', import.meta.url)));

describe('reading an evaluated sample (benchmark data stays out of the workspace)', () => {
  it('gives the real turns before, the action, the real observation and the prediction beside it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wl-sample-'));
    const engine = await OnnxEngine.load(TEST_MODEL);
    await runEvaluation({ dataDir: DATA, outDir: out, engine, judgeTemplate: TEMPLATE, sampling: { maxTokens: 6 } });
    const modelId = engine.describe().modelId;
    await engine.dispose();
    const sample = readEvaluatedSample(out, 'terminal/t1/2');
    expect(sample).toMatchObject({
      key: 'terminal/t1/2',
      subtask: 'terminal',
      domain: 'terminal',
      systemPrompt: 'You simulate a bash shell.',
      history: [{ action: 'ls', observation: 'a.txt' }],
      action: 'cat a.txt',
      real: 'hello',
      model: modelId,
      judge: null,
    });
    expect(sample.metrics).toHaveProperty('editSimilarity');
    expect(typeof sample.predicted).toBe('string');
    expect(() => readEvaluatedSample(out, 'terminal/zzz/1')).toThrow(/no prediction for terminal\/zzz\/1/);
  });

  it("reads a sample from the public script's judged.jsonl alone, with its judgement", () => {
    const sample = readEvaluatedSample(PUBLIC_RUN, 'terminal/t1/2');
    expect(sample).toMatchObject({ predicted: 'hi', real: 'hello', domain: 'terminal', metrics: { exactMatch: 0 } });
    expect(sample.judge).toMatchObject({ valid: true, scores: { format: 5, factuality: 0 }, weaknesses: ['wrong file content'] });
    expect(sample.judge!.score).toBeCloseTo(75, 10);
  });
});
