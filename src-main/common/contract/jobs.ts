// Long operations as jobs: every one runs under one job runner (service/jobs.ts), reports
// progress as `job.progress` events, stops on `job.cancel`, and a second job under an id
// already running is refused with the one code `busy`.
import { z } from 'zod';
import { method } from './method';

/** Chosen by the caller, so it can follow and cancel the job before the call returns. */
export const JobId = z.string().min(1).max(100);

export const JOB_KINDS = ['simulate', 'perturb', 'replay', 'record', 'run-real', 'import', 'export', 'evaluation', 'gpu-install', 'expand'] as const;
export const JobKind = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof JobKind>;

/** A step of a fan-out that still failed after its engine's retries; the others kept their results. */
export const StepFailure = z.object({
  /** The step in the user's words: which node or recorded step, and its action. */
  step: z.string(),
  message: z.string(),
});
export type StepFailure = z.infer<typeof StepFailure>;

/** How a job that runs many steps at once stands (simulation/fan-out.ts). */
export const FanOutCounts = z.object({ done: z.number().int(), inFlight: z.number().int(), failed: z.number().int(), perSecond: z.number() });

export const JobProgress = z.object({
  jobId: z.string(),
  kind: JobKind,
  label: z.string(),
  done: z.number(),
  total: z.number().nullable(),
  /** Seconds left, where the work can tell (evaluation can). */
  etaSeconds: z.number().nullable().optional(),
  /** Jobs that run many steps at once: finished, in flight, failed, and the rate. */
  steps: FanOutCounts.optional(),
  finished: z.boolean(),
});
export type JobProgress = z.infer<typeof JobProgress>;

export const jobsApi = {
  /** Stops any running job; `cancelled` is false when no job with that id is running. */
  'job.cancel': method(z.object({ jobId: JobId }), z.object({ cancelled: z.boolean() })),
} as const;
