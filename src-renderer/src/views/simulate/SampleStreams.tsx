import { memo, useEffect, useRef } from 'react';
import { splitStream, tokensPerSecond, type SampleStream } from '../../state/sample-streams';
import type { SimulationJob } from '../../state/simulation';
import { ReasoningText } from './ReasoningText';

/** Where a sample is: waiting, reasoning, or writing its observation. */
function phaseOf(stream: SampleStream, reasoningOpen: boolean, observation: string): string {
  if (stream.tokens === 0 && !stream.carried) return 'waiting for the first token';
  if (reasoningOpen) return 'reasoning';
  return observation ? 'writing the observation' : 'between reasoning and observation';
}

/**
 * One sample as it streams: reasoning apart from the observation from the first token, tokens
 * used and tokens/s. Re-rendered only when its own stream changes.
 */
const SampleColumn = memo(function SampleColumn({ index, stream, running }: { index: number; stream: SampleStream; running: boolean }) {
  const { reasoning, observation, reasoningOpen } = splitStream(stream);
  const speed = tokensPerSecond(stream);
  return (
    <section className="stream" data-testid="simulation-stream" aria-label={`Sample ${index + 1}`}>
      <header className="stream-head">
        <strong>sample {index + 1}</strong>
        <span className="muted" data-testid="sample-tokens">
          {stream.tokens.toLocaleString('en-US')} tokens
          {speed !== null ? ` · ${speed.toFixed(1)} tok/s` : ''}
        </span>
        {running && <span className="muted">{phaseOf(stream, reasoningOpen, observation)}</span>}
      </header>
      <ReasoningText text={reasoning} thinking={running && reasoningOpen} />
      <pre className="text" data-testid="sample-observation" aria-label={`Sample ${index + 1} observation`}>
        {observation || (reasoningOpen ? '(the observation follows the reasoning)' : '…')}
      </pre>
    </section>
  );
});

/** Every sample of the job, side by side; brought into view when a run starts, so its first tokens are seen, not below the fold. */
export function SampleStreams({ job }: { job: SimulationJob }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [job.jobId]);
  return (
    <div className="streams" data-testid="simulation-streams" ref={ref}>
      {job.streams.map((stream, i) => (
        <SampleColumn key={i} index={i} stream={stream} running={job.running} />
      ))}
    </div>
  );
}
