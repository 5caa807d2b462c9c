// Policy expansion as the Expand dialog starts it: one job whose progress the dialog follows
// and which it can cancel. The new nodes reach the tree through the core's nodes.added events
// as they are made (./change-events.ts), not from the reply.
import type { ApiInput, ApiOutput } from '../../../src-main/common/contract/api';
import type { JobProgress } from '../../../src-main/common/contract/jobs';
import { call, onEvent } from '../api/client';

/** Runs the expansion under `input.jobId`, reporting that job's progress until it ends. */
export async function expandWithPolicy(input: ApiInput<'agents.expand'> & { jobId: string }, onProgress: (progress: JobProgress) => void): Promise<ApiOutput<'agents.expand'>> {
  const stop = onEvent('job.progress', (p) => {
    if (p.jobId === input.jobId) onProgress(p);
  });
  try {
    return await call('agents.expand', input);
  } finally {
    stop();
  }
}

/** Asks the core to stop a job; what it made so far is kept. */
export async function cancelJob(jobId: string): Promise<void> {
  await call('job.cancel', { jobId });
}
