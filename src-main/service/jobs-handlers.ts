// The jobs part of the contract (contract/jobs.ts): one cancel for every kind of job.
import type { jobsApi } from '../common/contract/jobs';
import type { HandlersOf, Studio } from './studio';

export function jobsHandlers(studio: Studio): HandlersOf<typeof jobsApi> {
  return {
    'job.cancel': ({ jobId }) => ({ cancelled: studio.jobs.cancel(jobId) }),
  };
}
