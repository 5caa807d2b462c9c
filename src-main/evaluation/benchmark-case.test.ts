import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OnnxEngine } from '../engine/onnx/onnx-engine';
import { loadJudgeTemplate } from './judge';
import { readEvaluatedCase } from './benchmark-case';
import { runEvaluation } from './run-evaluation';

const DATA = fileURLToPath(new URL('./fixtures/bench', import.meta.url));
const PUBLIC_RUN = fileURLToPath(new URL('./fixtures/public-run', import.meta.url));
const TEST_MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/qwen35/tiny-chat', import.meta.url));
const TEMPLATE = loadJudgeTemplate(fileURLToPath(new URL('../../resources/judge/rubric.md', import.meta.url)));

describe('reading an evaluated case (benchmark data stays out of the workspace)', () => {
  it('gives the real turns before, the action, the real observation and the prediction beside it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wl-benchmark-case-'));
    const engine = await OnnxEngine.load(TEST_MODEL);
    await runEvaluation({ dataDir: DATA, outDir: out, engine, judgeTemplate: TEMPLATE, sampling: { maxTokens: 6 } });
    // The model as the studio names it: the folder's name, not its architecture (qwen3_5_moe_text).
    const modelId = engine.describe().name;
    expect(modelId).toBe('tiny-chat');
    await engine.dispose();
    const benchmarkCase = readEvaluatedCase(out, 'terminal/t1/2');
    expect(benchmarkCase).toMatchObject({
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
    expect(benchmarkCase.metrics).toHaveProperty('editSimilarity');
    expect(typeof benchmarkCase.predicted).toBe('string');
    expect(() => readEvaluatedCase(out, 'terminal/zzz/1')).toThrow(/no prediction for terminal\/zzz\/1/);
  });

  it("reads a case from the public script's judged.jsonl alone, with its judgement", () => {
    const benchmarkCase = readEvaluatedCase(PUBLIC_RUN, 'terminal/t1/2');
    expect(benchmarkCase).toMatchObject({ predicted: 'hi', real: 'hello', domain: 'terminal', metrics: { exactMatch: 0 } });
    expect(benchmarkCase.judge).toMatchObject({ valid: true, scores: { format: 5, factuality: 0 }, weaknesses: ['wrong file content'] });
    expect(benchmarkCase.judge!.score).toBeCloseTo(75, 10);
  });
});
