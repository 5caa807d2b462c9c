// Policy expansion: at a node, a policy proposes K next actions, the world model simulates M
// samples of each (the one simulator), and every new node is expanded the same way,
// level by level (breadth-first) to depth D, until a token or time budget runs out or the job
// is cancelled. Every action node records the policy in provenance.agent (origin `agent`).
import type { ExpandInput, ExpandResult } from '../common/contract/agents';
import type { NodeRecord } from '../common/trajectory/model';
import { UserError } from '../common/user-error';
import type { Simulator } from '../simulation/simulator';
import { simulateAgentStep } from './agent-step';
import { openPolicy } from './policy';

/** How many simulations a full expansion runs: K at the first level, K·(K·M) at the next, … */
export function plannedSimulations(k: number, m: number, depth: number): number {
  let total = 0;
  for (let level = 0; level < depth; level++) total += k * (k * m) ** level;
  return total;
}

/** What expansion needs of the job it runs as: its cancel signal and a place to report progress. */
export interface ExpansionJob {
  readonly signal: AbortSignal;
  progress(done: number, total: number | null, label?: string): void;
}

export async function expandNode(simulator: Simulator, input: ExpandInput, job: ExpansionJob): Promise<ExpandResult> {
  const store = simulator.store();
  const start = store.getNode(input.nodeId);
  if (!start) throw new UserError(`Node ${input.nodeId} is not in this workspace.`, 'not-found');
  const trajectory = store.getTrajectory(start.trajectoryId)!;
  const policy = await openPolicy(input.policy);
  const began = performance.now();
  const total = plannedSimulations(input.actions, input.samples, input.depth);
  const added: NodeRecord[] = [];
  let tokens = 0;
  let incomplete = 0;
  let done = 0;
  let levels = 0;
  const outOfBudget = (): ExpandResult['stoppedBy'] | null => {
    if (job.signal.aborted) return 'cancelled';
    if (input.tokenBudget !== undefined && tokens >= input.tokenBudget) return 'tokens';
    if (input.timeBudgetSeconds !== undefined && (performance.now() - began) / 1000 >= input.timeBudgetSeconds) return 'time';
    return null;
  };
  const result = (stoppedBy: ExpandResult['stoppedBy']): ExpandResult => ({ nodes: added, levels, stoppedBy, tokens, incomplete });
  try {
    let frontier: NodeRecord[] = [start];
    for (let level = 1; level <= input.depth; level++) {
      const next: NodeRecord[] = [];
      let proposedAny = false;
      for (const node of frontier) {
        const stop = outOfBudget();
        if (stop) return result(stop);
        const path = store.paths.pathTo(node.id);
        const proposal = await policy.propose(trajectory, path, input.actions, level, job.signal);
        tokens += proposal.tokens;
        if (proposal.actions.length > 0) proposedAny = true;
        for (const action of proposal.actions) {
          const stopped = outOfBudget();
          if (stopped) return result(stopped);
          job.progress(done, total, `Level ${level} of ${input.depth}: ${added.length} nodes so far`);
          const simulated = await simulateAgentStep(
            simulator,
            { nodeId: node.id, action, samples: input.samples, agent: proposal.agent, sampling: input.sampling },
            undefined,
            job.signal,
          );
          if (simulated.cancelled) return result('cancelled');
          done++;
          tokens += simulated.nodes.reduce((s, n) => s + (n.provenance.tokens?.completion ?? 0), 0) + simulated.incomplete.reduce((s, i) => s + i.completionTokens, 0);
          incomplete += simulated.incomplete.length;
          added.push(...simulated.nodes);
          next.push(...simulated.nodes);
          levels = Math.max(levels, level);
        }
      }
      if (!proposedAny || next.length === 0) return result(levels === input.depth ? 'done' : 'no-actions');
      frontier = next;
    }
    job.progress(total, total, `Expanded ${input.depth} levels: ${added.length} nodes`);
    return result('done');
  } finally {
    await policy.dispose();
  }
}
