// One step an agent took inside a simulated world: the world model predicts what the
// environment returns, through the one simulator (simulation/simulator.ts), and the new
// node records who acted (provenance.agent) and any perturbation injected. Its origin is the
// caller's: a policy's step is `agent`; an MCP client's call is `simulated`, or `perturbed`
// where a perturbation was injected, so the tree marks it like any other perturbed state.
import type { SamplingOverrides, SimulateResult } from '../common/contract/simulation';
import { applyTransform, instructionFor, type PerturbationRecord } from '../common/perturbations/apply';
import type { PerturbationRegistry } from '../common/perturbations/registry';
import type { Origin, Provenance } from '../common/trajectory/model';
import { UserError } from '../common/user-error';
import type { SimulationRequest, Simulator } from '../simulation/simulator';

export type AgentProvenance = NonNullable<Provenance['agent']>;

export interface AgentStepInput {
  nodeId: string;
  action: string;
  agent: AgentProvenance;
  /** `agent` unless said otherwise. */
  origin?: Origin;
  samples?: number;
  sampling?: SamplingOverrides;
  perturbation?: PerturbationRecord | null;
  registry?: PerturbationRegistry;
}

/** The simulator's request for an agent's step: who acted, what is perturbed, how it is stored. */
export function agentStepRequest(simulator: Simulator, input: AgentStepInput): SimulationRequest {
  const store = simulator.store();
  const node = store.getNode(input.nodeId);
  if (!node) throw new UserError(`Node ${input.nodeId} is not in this workspace.`, 'not-found');
  const trajectory = store.getTrajectory(node.trajectoryId)!;
  const ctx = { domain: trajectory.domain, action: input.action };
  const record = input.perturbation ?? null;
  const instruction = record?.mode === 'instruction' ? instructionFor(record, ctx, input.registry) : null;
  return {
    nodeId: input.nodeId,
    action: input.action,
    samples: input.samples ?? 1,
    sampling: input.sampling,
    origin: input.origin ?? 'agent',
    provenance: { agent: input.agent, ...(record ? { perturbations: [record] } : {}), ...(instruction ? { controlInstruction: instruction } : {}) },
    controlInstruction: instruction,
    transformObservation: record?.mode === 'transform' ? (observation) => applyTransform(record, observation, ctx, input.registry) : undefined,
    // An agent acts, and each of its steps is a new event in its episode: never handed an earlier one.
    reason: 'agent',
  };
}

/** Simulates `action` at `nodeId` as an agent's step through the one simulator, which stores the samples and tells every UI. */
export function simulateAgentStep(simulator: Simulator, input: AgentStepInput, onText?: (sample: number, text: string) => void, signal?: AbortSignal): Promise<SimulateResult> {
  return simulator.simulate(agentStepRequest(simulator, input), ({ sample, text }) => onText?.(sample, text), signal);
}
