import { beforeEach, describe, expect, it, vi } from 'vitest';

// The core, as far as these tests need it: what each call was sent, answers the test decides.
const calls: { method: string; input: Record<string, unknown> }[] = [];
const answers = new Map<string, (input: Record<string, unknown>) => unknown>();
vi.mock('../api/door', () => ({ lastMessageArrivedAt: () => 0, door: {} }));
vi.mock('../api/client', () => ({
  call: vi.fn(async (method: string, input: Record<string, unknown>) => {
    calls.push({ method, input });
    const answer = answers.get(method);
    if (!answer) throw new Error(`not in this test: ${method}`);
    return answer(input);
  }),
  onEvent: vi.fn(() => () => {}),
}));

const { changeEvaluationForm, followEvaluationJob, judgeOf, startEvaluation, useEvaluation } = await import('./evaluation');
const { useUiStore } = await import('./workspace-actions');

const SUMMARY = { domains: {}, overall: null, total_samples: 0, valid: 0, failed: 0, worldloom: {} };

beforeEach(() => {
  calls.length = 0;
  answers.clear();
  useEvaluation.setState({ job: null, lastRun: null, summary: null, cases: [] });
  useUiStore.setState({ notices: [] });
  changeEvaluationForm({ dataDir: '/data', outDir: '/out', judge: 'none', judgeUrl: '', judgeModel: '', limit: '', maxTokens: '', concurrency: 4 });
});

describe('an evaluation started from the panel', () => {
  it('sends the form as the run, follows its progress, and reads the scores when it ends', async () => {
    changeEvaluationForm({ judge: 'openai', judgeUrl: 'http://127.0.0.1:8000/v1', limit: '3', maxTokens: '64', concurrency: 2 });
    let finish!: (v: unknown) => void;
    answers.set('eval.run', () => new Promise((resolve) => (finish = resolve)));
    answers.set('eval.read', () => ({ summary: SUMMARY, cases: [] }));
    const running = startEvaluation();
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'eval.run')).toBe(true));
    const run = calls.find((c) => c.method === 'eval.run')!.input;
    expect(run).toMatchObject({ dataDir: '/data', outDir: '/out', judge: { kind: 'openai', baseUrl: 'http://127.0.0.1:8000/v1' }, limit: 3, concurrency: 2, sampling: { maxTokens: 64 } });
    const jobId = run.jobId as string;
    followEvaluationJob({ jobId, kind: 'evaluation', label: 'predict', done: 2, total: 3, etaSeconds: 4, finished: false });
    followEvaluationJob({ jobId: 'someone-else', kind: 'evaluation', label: 'judge', done: 9, total: 9, finished: false });
    expect(useEvaluation.getState().job).toMatchObject({ label: 'predict', done: 2, total: 3, etaSeconds: 4, running: true });
    finish({ summary: SUMMARY, problems: [], predicted: 3, resumed: 0, interrupted: false, judged: true });
    await running;
    expect(useEvaluation.getState().lastRun).toMatchObject({ outDir: '/out', interrupted: false, predicted: 3, error: null });
    expect(useEvaluation.getState().job!.running).toBe(false);
    expect(calls.at(-1)).toEqual({ method: 'eval.read', input: { outDir: '/out' } });
    expect(useEvaluation.getState().outDir).toBe('/out');
  });

  it('keeps a failed run with its reason, so the panel shows why', async () => {
    answers.set('eval.run', () => {
      throw new Error('No world model is loaded.');
    });
    await startEvaluation();
    expect(useEvaluation.getState().lastRun).toMatchObject({ interrupted: true, error: 'No world model is loaded.' });
  });

  it('refuses a judge server that is not a URL and a case count that is not a whole number, before any call', async () => {
    changeEvaluationForm({ judge: 'openai', judgeUrl: 'gpu-box:8000' });
    expect(judgeOf(useEvaluation.getState().form)).toMatch(/URL/);
    await startEvaluation();
    changeEvaluationForm({ judge: 'openai', judgeUrl: 'http://gpu-box:8000/v1', judgeModel: ' judge ', limit: '2.5' });
    expect(judgeOf(useEvaluation.getState().form)).toEqual({ kind: 'openai', baseUrl: 'http://gpu-box:8000/v1', model: 'judge' });
    await startEvaluation();
    expect(calls).toEqual([]);
    expect(useUiStore.getState().notices.map((n) => n.lines[0])).toEqual([expect.stringMatching(/URL/), expect.stringMatching(/whole number/)]);
  });
});
