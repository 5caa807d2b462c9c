// Replay: put the world model through recorded real trajectories. At each recorded step the
// model sees the real history up to it (the same prompt as any simulation) and predicts the
// observation through the one simulator, with the settings in force (the model's, the
// workspace's, the call's). Each step's prediction depends only on the real history before
// it, so every step of every trajectory is in flight at once, up to what the engine takes
// (simulation/fan-out.ts); predictions are stored in trajectory and step order whatever
// finishes first. A prediction is stored as a `simulated` sibling of the real node with its
// metrics against the real observation; a step whose sample ran out of tokens is reported,
// not stored; a step whose engine kept failing is named, and the others keep their results.
// A step already replayed with the same model, settings and seed is reused, not stored again.
import type { StepFailure } from '../common/contract/jobs';
import type { IncompleteSample, SamplingOverrides } from '../common/contract/simulation';
import { compareObservations } from '../common/metrics/compare';
import type { NodeRecord, TrajectoryRecord } from '../common/trajectory/model';
import { UserError } from '../common/user-error';
import { fanOutLabel, type FanOutProgress } from '../simulation/fan-out';
import type { Simulator } from '../simulation/simulator';
import { recordedChain } from './comparison';

/** A replayed step whose sample ended before its observation was complete. */
export interface IncompleteReplayStep extends IncompleteSample {
  /** 1-based step of the recorded chain. */
  step: number;
  realNodeId: string;
  trajectoryId: string;
}

export interface ReplayResult {
  nodes: NodeRecord[];
  reused: string[];
  incomplete: IncompleteReplayStep[];
  failures: StepFailure[];
  cancelled: boolean;
  /** New tokens per second of the whole replay (steps generated, over its wall time): what a user waits for. */
  tokensPerSecond: number;
}

export interface ReplayProgress {
  (done: number, total: number, label: string): void;
}

interface RecordedStep {
  trajectory: TrajectoryRecord;
  /** 1-based step of its trajectory's recorded chain. */
  step: number;
  steps: number;
  real: NodeRecord;
}

/** Every recorded step of the trajectories, in trajectory then step order; refuses one with nothing to replay. */
function recordedSteps(simulator: Simulator, trajectoryIds: readonly string[]): RecordedStep[] {
  const store = simulator.store();
  return trajectoryIds.flatMap((id) => {
    const trajectory = store.getTrajectory(id);
    if (!trajectory) throw new UserError(`Trajectory ${id} is not in this workspace.`, 'not-found');
    const chain = recordedChain(store.getNodes(trajectory.id));
    if (chain.length < 2) {
      throw new UserError(
        `"${trajectory.title}" has no recorded real steps to replay. Record or import a real session (asciinema cast, MCP log, SWE-agent or ATIF trajectory) first` +
          (trajectoryIds.length > 1 ? ', or leave it out of the selection.' : '.'),
        'invalid',
      );
    }
    const steps = chain.slice(1);
    return steps.map((real, i) => ({ trajectory, step: i + 1, steps: steps.length, real }));
  });
}

export async function replayTrajectories(
  simulator: Simulator,
  input: { trajectoryIds: readonly string[]; sampling: SamplingOverrides },
  onProgress: ReplayProgress = () => {},
  signal?: AbortSignal,
  onSteps?: (progress: FanOutProgress, label: string) => void,
): Promise<ReplayResult> {
  // Refused before anything runs: no model, no workspace, nothing to replay.
  simulator.engine();
  const steps = recordedSteps(simulator, input.trajectoryIds);
  const many = input.trajectoryIds.length > 1;
  const nameOf = ({ trajectory, step, steps: of, real }: RecordedStep) =>
    `${many ? `"${trajectory.title}" ` : ''}step ${step} of ${of}: ${real.action.length > 60 ? `${real.action.slice(0, 59)}…` : real.action}`;
  const prepared = steps.map(({ trajectory, real }, i) => {
    try {
      return simulator.prepare({
        nodeId: real.parentId!,
        action: real.action,
        sampling: input.sampling,
        provenance: { replayOf: real.id },
        metricsFor: (observation) => compareObservations(trajectory.domain, observation, real.observation, { action: real.action }),
        // Replaying again with the same model, settings and seed would predict the same: the
        // earlier prediction (this replay's own first) is handed back, not added again.
        reuse: (n) => n.provenance.replayOf === real.id,
        reason: 'replayed',
      });
    } catch (error) {
      if (error instanceof UserError) throw new UserError(`${nameOf(steps[i]!)}: ${error.message}`, error.code);
      throw error;
    }
  });
  const began = performance.now();
  onProgress(0, steps.length, `Simulating ${steps.length} step${steps.length === 1 ? '' : 's'}`);
  const outcome = await simulator.runMany(prepared, {
    signal,
    describe: (i) => nameOf(steps[i]!),
    onProgress: (p) => {
      const label = `Replay: ${fanOutLabel(p)}`;
      if (onSteps) onSteps(p, label);
      else onProgress(p.done + p.failed, p.total, label);
    },
  });
  const nodes: NodeRecord[] = [];
  const reused: string[] = [];
  const incomplete: IncompleteReplayStep[] = [];
  let cancelled = outcome.notStarted > 0 || Boolean(signal?.aborted);
  let tokens = 0;
  const seconds = (performance.now() - began) / 1000;
  outcome.results.forEach((result, i) => {
    if (!result) return;
    const { trajectory, step, real } = steps[i]!;
    if (result.cancelled) cancelled = true;
    nodes.push(...result.nodes);
    reused.push(...(result.reused ?? []));
    incomplete.push(...result.incomplete.map((sample) => ({ ...sample, step, realNodeId: real.id, trajectoryId: trajectory.id })));
    const made = result.nodes.filter((n) => !(result.reused ?? []).includes(n.id));
    for (const node of made) tokens += node.provenance.tokens?.completion ?? 0;
  });
  const failures = outcome.failures.map(({ step, message }) => ({ step, message }));
  const cutOff = incomplete.length ? ` (${incomplete.length} step${incomplete.length === 1 ? '' : 's'} ran out of tokens and were not stored)` : '';
  const again = reused.length ? ` (${reused.length} step${reused.length === 1 ? '' : 's'} already replayed with these settings: reused)` : '';
  const failed = failures.length ? ` (${failures.length} step${failures.length === 1 ? '' : 's'} failed)` : '';
  onProgress(steps.length, steps.length, `Replay ${cancelled ? 'cancelled' : 'finished'}${cutOff}${again}${failed}`);
  return { nodes, reused, incomplete, failures, cancelled, tokensPerSecond: seconds > 0 ? tokens / seconds : 0 };
}
