// Replay: put the world model through a recorded real trajectory. At each recorded step
// the model sees the real history up to it (the same prompt as any simulation) and predicts
// the observation through the one simulator, with the settings in force (the model's, the
// workspace's, the call's). The prediction is stored as a `simulated` sibling of the real
// node with its metrics against the real observation; a step whose sample ran out of
// tokens is reported, not stored, and the replay goes on from the real history. A step
// already replayed with the same model, settings and seed is reused, not stored again.
import type { IncompleteSample, SamplingOverrides } from '../common/contract/simulation';
import { compareObservations } from '../common/metrics/compare';
import { UserError } from '../common/user-error';
import type { Simulator } from '../simulation/simulator';
import type { NodeRecord } from '../common/trajectory/model';
import { recordedChain } from './comparison';
import type { Progress } from './record';

/** A replayed step whose sample ended before its observation was complete. */
export interface IncompleteReplayStep extends IncompleteSample {
  /** 1-based step of the recorded chain. */
  step: number;
  realNodeId: string;
}

export async function replayTrajectory(
  simulator: Simulator,
  input: { trajectoryId: string; sampling: SamplingOverrides },
  onProgress: Progress = () => {},
  signal?: AbortSignal,
): Promise<{ nodes: NodeRecord[]; reused: string[]; incomplete: IncompleteReplayStep[]; cancelled: boolean }> {
  // Refused before anything runs: no model, no workspace.
  simulator.engine();
  const store = simulator.store();
  const trajectory = store.getTrajectory(input.trajectoryId);
  if (!trajectory) throw new UserError(`Trajectory ${input.trajectoryId} is not in this workspace.`, 'not-found');
  const chain = recordedChain(store.getNodes(trajectory.id));
  if (chain.length < 2) {
    throw new UserError(`"${trajectory.title}" has no recorded real steps to replay. Record or import a real session (asciinema cast, MCP log, SWE-agent or ATIF trajectory) first.`, 'invalid');
  }
  const nodes: NodeRecord[] = [];
  const reused: string[] = [];
  const incomplete: IncompleteReplayStep[] = [];
  const steps = chain.slice(1);
  for (const [i, real] of steps.entries()) {
    onProgress(i, steps.length, `Simulating step ${i + 1} of ${steps.length}: ${real.action.slice(0, 80)}`);
    let result;
    try {
      result = await simulator.simulate(
        {
          nodeId: real.parentId!,
          action: real.action,
          sampling: input.sampling,
          provenance: { replayOf: real.id },
          metricsFor: (observation) => compareObservations(trajectory.domain, observation, real.observation, { action: real.action }),
          // Replaying again with the same model, settings and seed would predict the same: the
          // earlier prediction (this replay's own first) is handed back, not added again.
          reuse: (n) => n.provenance.replayOf === real.id,
          reason: 'replayed',
        },
        undefined,
        signal,
      );
    } catch (error) {
      if (error instanceof UserError) throw new UserError(`Step ${i + 1} of the replay: ${error.message}`, error.code);
      throw error;
    }
    if (result.cancelled) return { nodes, reused, incomplete, cancelled: true };
    nodes.push(...result.nodes);
    reused.push(...(result.reused ?? []));
    incomplete.push(...result.incomplete.map((sample) => ({ ...sample, step: i + 1, realNodeId: real.id })));
  }
  const cutOff = incomplete.length ? ` (${incomplete.length} step${incomplete.length === 1 ? '' : 's'} ran out of tokens and were not stored)` : '';
  const again = reused.length ? ` (${reused.length} step${reused.length === 1 ? '' : 's'} already replayed with these settings: reused)` : '';
  onProgress(steps.length, steps.length, `Replay finished${cutOff}${again}`);
  return { nodes, reused, incomplete, cancelled: false };
}
