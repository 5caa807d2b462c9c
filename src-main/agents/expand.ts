// Policy expansion: at a node, a policy proposes K next actions, the world model simulates M
// samples of each (the one simulator), and every new node is expanded the same way, level by
// level (breadth-first) to depth D, until a token or time budget runs out or the job is
// cancelled. Within a level every frontier node's proposal, then every simulation, is in
// flight at once up to what the engines take (simulation/fan-out.ts); nodes are stored in
// frontier and action order whatever finishes first, so a run makes the same tree at any
// concurrency. Every action node records the policy in provenance.agent (origin `agent`).
import type { ExpandInput, ExpandResult } from '../common/contract/agents';
import type { StepFailure } from '../common/contract/jobs';
import type { NodeRecord } from '../common/trajectory/model';
import { UserError } from '../common/user-error';
import { fanOut, fanOutLabel, type FanOutProgress } from '../simulation/fan-out';
import type { Simulator } from '../simulation/simulator';
import { agentStepRequest } from './agent-step';
import { openPolicy, type ProposedActions } from './policy';

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
  /** Many steps at once: finished, in flight, failed, the rate. */
  steps?(progress: FanOutProgress, label: string): void;
}

/** Policy requests in flight at once: a chat policy's own engine caps its connections. */
const PROPOSALS_AT_ONCE = 16;

export async function expandNode(simulator: Simulator, input: ExpandInput, job: ExpansionJob): Promise<ExpandResult> {
  const store = simulator.store();
  const start = store.getNode(input.nodeId);
  if (!start) throw new UserError(`Node ${input.nodeId} is not in this workspace.`, 'not-found');
  const trajectory = store.getTrajectory(start.trajectoryId)!;
  const policy = await openPolicy(input.policy);
  const began = performance.now();
  const total = plannedSimulations(input.actions, input.samples, input.depth);
  const added: NodeRecord[] = [];
  const failures: StepFailure[] = [];
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
  const result = (stoppedBy: ExpandResult['stoppedBy']): ExpandResult => ({ nodes: added, levels, stoppedBy, tokens, incomplete, failures });
  const mayStart = () => outOfBudget() === null;
  const short = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
  try {
    let frontier: NodeRecord[] = [start];
    for (let level = 1; level <= input.depth; level++) {
      const stop = outOfBudget();
      if (stop) return result(stop);
      // Every frontier node's proposal at once; kept in frontier order.
      job.progress(done, total, `Level ${level} of ${input.depth}: asking the policy at ${frontier.length} node${frontier.length === 1 ? '' : 's'}`);
      const proposed = await fanOut<NodeRecord, ProposedActions>(frontier, {
        limit: PROPOSALS_AT_ONCE,
        signal: job.signal,
        mayStart,
        describe: (node) => `the policy at node ${node.id}`,
        run: (node) => policy.propose(trajectory, store.paths.pathTo(node.id), input.actions, level, job.signal),
      });
      failures.push(...proposed.failures.map(({ step, message }) => ({ step, message })));
      const steps = frontier.flatMap((node, i) => {
        const proposal = proposed.results[i];
        if (!proposal) return [];
        tokens += proposal.tokens;
        return proposal.actions.map((action) => ({ node, action, agent: proposal.agent }));
      });
      if (job.signal.aborted) return result('cancelled');
      if (steps.length === 0) return result('no-actions');
      const prepared = steps.map((s) =>
        simulator.prepare(agentStepRequest(simulator, { nodeId: s.node.id, action: s.action, samples: input.samples, agent: s.agent, sampling: input.sampling })),
      );
      const before = done;
      const simulated = await simulator.runMany(prepared, {
        signal: job.signal,
        mayStart,
        describe: (i) => `level ${level}, node ${steps[i]!.node.id}: ${short(steps[i]!.action)}`,
        // Counted as each finishes, so a budget stops the next launch, not the next level.
        onResult: (outcome) => {
          done++;
          tokens += outcome.nodes.reduce((s, n) => s + (n.provenance.tokens?.completion ?? 0), 0) + outcome.incomplete.reduce((s, i) => s + i.completionTokens, 0);
          incomplete += outcome.incomplete.length;
        },
        onProgress: (p) => {
          const label = `Level ${level} of ${input.depth}: ${fanOutLabel(p, 'simulations')}`;
          if (job.steps) job.steps({ ...p, done: before + p.done, total }, label);
          else job.progress(before + p.done, total, label);
        },
      });
      const next: NodeRecord[] = [];
      let cancelled = false;
      for (const outcome of simulated.results) {
        if (!outcome) continue;
        if (outcome.cancelled) cancelled = true;
        added.push(...outcome.nodes);
        next.push(...outcome.nodes);
      }
      failures.push(...simulated.failures.map(({ step, message }) => ({ step, message })));
      if (simulated.results.some(Boolean)) levels = Math.max(levels, level);
      if (cancelled || job.signal.aborted) return result('cancelled');
      if (simulated.notStarted > 0) return result(outOfBudget() ?? 'cancelled');
      if (next.length === 0) return result(levels === input.depth ? 'done' : 'no-actions');
      frontier = next;
    }
    job.progress(total, total, `Expanded ${input.depth} levels: ${added.length} nodes`);
    return result('done');
  } finally {
    await policy.dispose();
  }
}
