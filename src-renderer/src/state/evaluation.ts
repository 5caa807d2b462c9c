// The evaluation slice: runs started from the panel (a job: progress, cancel, resume),
// one run read from its folder (written by `worldloom eval` or by the public
// AgentWorldBench script), and drill-down into its cases, which stay out of the workspace.
import type { JobProgress } from '../../../src-main/common/contract/jobs';
import { call } from '../api/client';
import type { EvaluationForm } from './slices/evaluation';
import { notify } from './workspace-actions';
import { areaHook } from './ui-store';

export const useEvaluation = areaHook('evaluation');
const get = () => useEvaluation.getState();
const set = useEvaluation.setState;

export async function readEvaluation(outDir: string): Promise<void> {
  try {
    const { summary, cases } = await call('eval.read', { outDir });
    set({ outDir, summary, cases, benchmarkCase: null });
  } catch (err) {
    notify('error', 'Could not read the evaluation', [(err as Error).message]);
  }
}

/** Shows one case beside its ground truth; nothing is added to the workspace. */
export async function showCase(key: string): Promise<void> {
  const { outDir } = get();
  try {
    set({ benchmarkCase: await call('eval.case', { outDir, key }) });
  } catch (err) {
    notify('error', `Could not show ${key}`, [(err as Error).message]);
  }
}

export function closeCase(): void {
  set({ benchmarkCase: null });
}

export function changeEvaluationForm(patch: Partial<EvaluationForm>): void {
  set({ form: { ...get().form, ...patch } });
}

/** The judge the form names, as the contract takes it; a message instead when it cannot be used. */
export function judgeOf(form: EvaluationForm): { kind: 'none' } | { kind: 'openai'; baseUrl: string; model?: string } | string {
  if (form.judge !== 'openai') return { kind: 'none' };
  const baseUrl = form.judgeUrl.trim();
  if (!/^https?:\/\/\S+$/.test(baseUrl)) return 'Give the judge server as a URL, e.g. http://127.0.0.1:8000/v1.';
  return { kind: 'openai', baseUrl, ...(form.judgeModel.trim() ? { model: form.judgeModel.trim() } : {}) };
}

/**
 * Runs (or resumes: the folder keeps every finished case) an evaluation of the loaded model
 * as a job; its progress arrives as job.progress events, and the scores are read when it ends.
 */
export async function startEvaluation(): Promise<void> {
  const { form } = get();
  const judge = judgeOf(form);
  if (typeof judge === 'string') {
    notify('error', 'Cannot start the evaluation', [judge]);
    return;
  }
  const limit = form.limit.trim() ? Number(form.limit) : undefined;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    notify('error', 'Cannot start the evaluation', ['"Cases" is a whole number of at least 1, or empty for every case.']);
    return;
  }
  const maxTokens = form.maxTokens.trim() ? Number(form.maxTokens) : undefined;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 1)) {
    notify('error', 'Cannot start the evaluation', ['"Max new tokens" is a whole number of at least 1, or empty for what the model recommends.']);
    return;
  }
  const jobId = `eval-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const outDir = form.outDir.trim();
  set({ job: { jobId, label: 'Starting', done: 0, total: null, etaSeconds: null, running: true }, lastRun: null });
  try {
    const result = await call('eval.run', {
      jobId,
      dataDir: form.dataDir.trim(),
      outDir,
      judge,
      concurrency: form.concurrency,
      ...(limit !== undefined ? { limit } : {}),
      sampling: maxTokens !== undefined ? { maxTokens } : {},
    });
    set({ lastRun: { outDir, interrupted: result.interrupted, predicted: result.predicted, resumed: result.resumed, problems: result.problems, error: null } });
    await readEvaluation(outDir);
  } catch (err) {
    set({ lastRun: { outDir, interrupted: true, predicted: 0, resumed: 0, problems: [], error: (err as Error).message } });
  } finally {
    const job = get().job;
    if (job?.jobId === jobId) set({ job: { ...job, running: false } });
  }
}

export async function cancelEvaluation(): Promise<void> {
  const job = get().job;
  if (job?.running) await call('job.cancel', { jobId: job.jobId });
}

/** job.progress for the run this panel started. */
export function followEvaluationJob({ jobId, label, done, total, etaSeconds, finished }: JobProgress): void {
  const job = get().job;
  if (!job || job.jobId !== jobId) return;
  set({ job: { ...job, label, done, total, etaSeconds: etaSeconds ?? null, running: job.running && !finished } });
}
