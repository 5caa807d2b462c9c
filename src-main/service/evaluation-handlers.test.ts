import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OnnxEngine } from '../engine/onnx/onnx-engine';
import { loadJudgeTemplate } from '../evaluation/judge';
import { RESULT_FILES } from '../evaluation/result-files';
import { runEvaluation } from '../evaluation/run-evaluation';
import { dispatch } from './dispatch';
import { Studio } from './studio';

const DATA = fileURLToPath(new URL('../evaluation/fixtures/bench', import.meta.url));
const TEST_MODEL = fileURLToPath(new URL('../engine/onnx/fixtures/qwen35/tiny-chat', import.meta.url));
const TEMPLATE = loadJudgeTemplate(fileURLToPath(new URL('../../resources/judge/rubric.md', import.meta.url)));

/** Lines as Worldloom wrote them before it followed the public script's layout: the key on top, no `gen`. */
const OLDER_PREDICTION = {
  key: 'terminal/t1/1',
  task: 'terminal',
  id: 't1',
  turn_idx: 1,
  domain: 'terminal',
  prediction: 'a.txt',
  reasoning: null,
  reference: 'a.txt',
  raw_output: 'a.txt',
  finish_reason: 'stop',
  metrics: { exactMatch: 1 },
};
const OLDER_JUDGED = { key: 'terminal/t1/1', task: 'terminal', id: 't1', turn_idx: 1, domain: 'terminal', failed: false, scores: { format: 4 }, rationale: '', attempts: 1 };

const newStudio = () => new Studio({ door: 'host', resourcesDir: join(process.cwd(), 'resources') });

describe('the evaluation contract', () => {
  it('says a folder of an older Worldloom must be run again, and reads it once it has been', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wl-eval-older-'));
    writeFileSync(join(out, RESULT_FILES.predictions), JSON.stringify(OLDER_PREDICTION) + '\n');
    writeFileSync(join(out, RESULT_FILES.judged), JSON.stringify(OLDER_JUDGED) + '\n');
    const studio = newStudio();
    const before = await dispatch(studio, 'eval.read', { outDir: out });
    expect(before.ok).toBe(false);
    expect(before).toMatchObject({ error: { code: 'older-layout', message: expect.stringMatching(/older Worldloom.*Run `worldloom eval` again with the same --data and --out/) } });

    // What the message promises: resuming predicts the cases again and the old lines give way.
    const engine = await OnnxEngine.load(TEST_MODEL);
    const resumed = await runEvaluation({ dataDir: DATA, outDir: out, engine, judgeTemplate: TEMPLATE, sampling: { maxTokens: 4 } });
    await engine.dispose();
    expect(resumed).toMatchObject({ predicted: 5, resumed: 0 });
    const predictions = readFileSync(join(out, RESULT_FILES.predictions), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(predictions).toHaveLength(5);
    expect(predictions.every((p) => typeof p.gen === 'string' && !('key' in p))).toBe(true);

    const after = await dispatch(studio, 'eval.read', { outDir: out });
    expect(after).toMatchObject({ ok: true, value: { summary: { total_samples: 5 } } });
    studio.close();
  });

  it('says where to point when a folder holds no predictions at all', async () => {
    const studio = newStudio();
    const envelope = await dispatch(studio, 'eval.read', { outDir: mkdtempSync(join(tmpdir(), 'wl-eval-empty-')) });
    expect(envelope).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringMatching(/Point at the --out folder of a worldloom eval run/) } });
    studio.close();
  });
});
