import type { RealityJob } from '../../state/slices/compare';

/** What a job running many steps at once is doing: finished, in flight, failed, and the rate. */
export function StepCounts({ job }: { job: Pick<RealityJob, 'done' | 'total' | 'steps'> }) {
  const steps = job.steps;
  if (!steps) return job.total ? <span>{` ${job.done}/${job.total}`}</span> : null;
  const rate = steps.perSecond >= 10 ? steps.perSecond.toFixed(0) : steps.perSecond.toFixed(1);
  return (
    <span className="step-counts" data-testid="step-counts">
      <progress max={job.total ?? undefined} value={job.done} aria-label="Steps finished" /> {steps.done}
      {job.total ? ` of ${job.total}` : ''} done · {steps.inFlight} in flight
      {steps.failed > 0 && <span className="step-counts-failed"> · {steps.failed} failed</span>} · {rate}/s
    </span>
  );
}
