// The one job runner: every long operation (simulate, perturb, replay, record, run-real,
// import, export, evaluation, the GPU install) runs through `start`, so each has progress
// as `job.progress` events, one way to cancel (`job.cancel`), and one "busy" error.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { JobKind, JobProgress } from '../common/contract/jobs';
import type { FanOutProgress } from '../simulation/fan-out';
import { UserError } from '../common/user-error';

export interface JobContext {
  readonly jobId: string;
  readonly signal: AbortSignal;
  /** Reports how far the work is; a label replaces the job's label from then on. */
  progress(done: number, total: number | null, label?: string, etaSeconds?: number | null): void;
  /** Reports a job that runs many steps at once: finished, in flight, failed, the rate. */
  steps(progress: FanOutProgress, label: string): void;
}

/** Abort listeners one job's signal may hold before Node warns: a fan-out's steps in flight, a few each. */
const MAX_STEPS_LISTENING = 4 * 256;
/** How often a many-step job's counts are reported at most (the first, a failure and the last always are). */
const STEPS_REPORT_MS = 100;

export class Jobs {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly emit: (progress: JobProgress) => void) {}

  /**
   * Runs `work` as a job of `kind`, under the caller's `jobId` (or a new one), announcing
   * progress until it ends, however it ends: the last event always says `finished`.
   */
  async start<T>(kind: JobKind, label: string, work: (job: JobContext) => Promise<T>, jobId: string = randomUUID()): Promise<T> {
    if (this.running.has(jobId)) throw new UserError(`A job with id ${jobId} is already running; wait for it or cancel it first.`, 'busy');
    const controller = new AbortController();
    // A fan-out hands the job's signal to every step in flight, each of which listens for abort.
    setMaxListeners(MAX_STEPS_LISTENING, controller.signal);
    this.running.set(jobId, controller);
    let last: JobProgress = { jobId, kind, label, done: 0, total: null, finished: false };
    let lastStepsEmit = -Infinity;
    let failedBefore = 0;
    const context: JobContext = {
      jobId,
      signal: controller.signal,
      progress: (done, total, text, etaSeconds) => {
        last = { jobId, kind, label: text ?? last.label, done, total, finished: false, ...(etaSeconds !== undefined ? { etaSeconds } : {}) };
        this.emit(last);
      },
      steps: ({ done, inFlight, failed, total, perSecond }, text) => {
        // Steps still to run at the current rate; unknown until one has finished.
        const etaSeconds = perSecond > 0 ? (total - done - failed) / perSecond : null;
        last = { jobId, kind, label: text, done: done + failed, total, etaSeconds, steps: { done, inFlight, failed, perSecond }, finished: false };
        // A corpus of thousands of steps reports twice a step: every UI and the CLI need a few a second,
        // and always the first failure and the last step.
        const now = performance.now();
        const failedNow = failed > failedBefore;
        failedBefore = failed;
        if (now - lastStepsEmit >= STEPS_REPORT_MS || failedNow || done + failed === total) {
          lastStepsEmit = now;
          this.emit(last);
        }
      },
    };
    this.emit(last);
    try {
      return await work(context);
    } finally {
      this.running.delete(jobId);
      this.emit({ ...last, finished: true });
    }
  }

  cancel(jobId: string): boolean {
    const controller = this.running.get(jobId);
    controller?.abort();
    return controller !== undefined;
  }
}
