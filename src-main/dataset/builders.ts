// Example builders: a path of nodes in, chat messages out. Pure.
// World-model examples are built by the same buildWorldModelMessages the engines use, so
// what a fine-tuned model is trained on is exactly what Worldloom will later send it.
// Actions are written in one layout (action-layout.ts) whichever way a step was made.
// Agent examples call tools (agent-tools.ts) and carry the agent's own reasoning, never the
// world model's; world-model examples carry the world model's, never the agent's.
import type { ExampleOptions } from '../common/contract/dataset';
import { buildWorldModelMessages, worldModelSystemPrompt } from '../common/prompt/world-model-messages';
import type { NodeRecord, TrajectoryBundle } from '../common/trajectory/model';
import { promptForAction, responseForObservation } from '../common/trajectory/turn-format';
import { normalizeAction } from './action-layout';
import { agentToolbox, type AgentToolbox } from './agent-tools';
import { DatasetExportError } from './export-errors';
import { isReviewed, perturbationKinds } from './filter-fields';
import { preferencePairs } from './preference-pairs';
import type { DatasetExample, ExampleMessage } from './example';

export type ResolvedExampleOptions = Required<ExampleOptions>;

/**
 * A perturbed step simulated under a control instruction must be trained with it, or the
 * model learns to produce the failure unprompted. Perturbation records may carry it.
 */
function controlInstructionOf(node: NodeRecord): string | null {
  const value = (node.provenance as Record<string, unknown>).controlInstruction;
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The nodes from the first step down to `end`, and the root when the path starts there. */
function pathTo(byId: Map<string, NodeRecord>, end: NodeRecord): { root: NodeRecord | null; steps: NodeRecord[] } {
  const path: NodeRecord[] = [];
  for (let n: NodeRecord | undefined = end; n; n = n.parentId ? byId.get(n.parentId) : undefined) path.push(n);
  path.reverse();
  const root = path[0]!.parentId === null ? path.shift()! : null;
  return { root, steps: path };
}

/** How many examples `ends` give: one each, or for preference data one per pair. */
export function countExamples(bundle: TrajectoryBundle, ends: readonly NodeRecord[], options: ResolvedExampleOptions): number {
  return options.builder === 'preference' ? preferencePairs(bundle, ends).length : ends.length;
}

/** One example per end node (per pair for preference data); `ends` come from selection.exampleEnds. */
export function buildExamples(bundle: TrajectoryBundle, ends: readonly NodeRecord[], options: ResolvedExampleOptions): DatasetExample[] {
  if (ends.length === 0) return [];
  const byId = new Map(bundle.nodes.map((n) => [n.id, n]));
  if (options.builder === 'preference') {
    return preferencePairs(bundle, ends).map(([chosen, rejected]) => {
      const { root, steps } = pathTo(byId, chosen);
      const example = buildExample(bundle, root, steps, { ...options, per: 'step' }, null);
      const answer = observationMessage(rejected, options);
      return { ...example, id: `${chosen.id}>${rejected.id}`, builder: 'preference', rejected: { messages: [answer], id: rejected.id } };
    });
  }
  const toolbox = options.builder === 'agent' ? agentToolbox(bundle.trajectory, bundle.nodes.filter((n) => n.parentId !== null).map((n) => normalizeAction(n.action))) : null;
  return ends.map((end) => {
    const { root, steps } = pathTo(byId, end);
    return buildExample(bundle, root, steps, options, toolbox);
  });
}

function buildExample(bundle: TrajectoryBundle, root: NodeRecord | null, steps: NodeRecord[], options: ResolvedExampleOptions, toolbox: AgentToolbox | null): DatasetExample {
  const { trajectory } = bundle;
  const end = steps[steps.length - 1]!;
  const taught = options.per === 'step' ? [end] : steps;
  const messages = toolbox ? agentMessages(trajectory.domain, root?.observation ?? '', steps, options, toolbox) : worldModelMessages(bundle, root?.observation ?? '', steps, options);
  const models = new Set<string>();
  const seeds = new Set<number>();
  const sources = new Set<string>();
  const perturbations = new Set<string>();
  for (const n of taught) {
    if (n.provenance.modelId) models.add(n.provenance.modelId);
    if (n.provenance.seed !== undefined) seeds.add(n.provenance.seed);
    if (n.provenance.source?.format) sources.add(n.provenance.source.format);
    for (const kind of perturbationKinds(n)) perturbations.add(kind);
  }
  return {
    id: end.id,
    trajectoryId: trajectory.id,
    title: trajectory.title,
    domain: trajectory.domain,
    kind: options.per,
    builder: options.builder,
    messages,
    // A step example teaches its last turn only; a path example every assistant turn.
    completionFrom: options.per === 'step' ? messages.length - 1 : null,
    ...(toolbox ? { tools: toolbox.tools } : {}),
    origin: end.origin,
    reviewed: isReviewed(end),
    perturbations: [...perturbations],
    models: [...models],
    seeds: [...seeds],
    sources: [...sources],
    createdAt: end.createdAt,
  };
}

function observationMessage(n: NodeRecord, options: ResolvedExampleOptions): ExampleMessage {
  const message: ExampleMessage = { role: 'assistant', content: responseForObservation(n.observation) };
  if (options.reasoning && n.reasoning) message.reasoning = n.reasoning;
  return message;
}

/** Why a path example cannot keep its reasoning, or null when nothing would be lost. */
export function lostReasoning(steps: readonly NodeRecord[]): string | null {
  const early = steps.slice(0, -1).filter((n) => n.reasoning);
  if (early.length === 0) return null;
  return (
    `A path example would keep ${early.length + (steps.at(-1)!.reasoning ? 1 : 0)} reasoning blocks, but chat templates (Qwen's, and ms-swift's and LLaMA-Factory's with them) ` +
    `render reasoning only after the last user turn, so ${early.length} of them would be dropped in training without a word. ` +
    'Export one example per step (each step then keeps its own reasoning), or leave reasoning out.'
  );
}

function worldModelMessages(bundle: TrajectoryBundle, initialState: string, steps: NodeRecord[], options: ResolvedExampleOptions): ExampleMessage[] {
  const { trajectory } = bundle;
  const end = steps[steps.length - 1]!;
  const layout = (n: NodeRecord) => ({ action: normalizeAction(n.action), observation: n.observation });
  if (options.per === 'step') {
    const messages: ExampleMessage[] = buildWorldModelMessages({
      systemPrompt: trajectory.systemPrompt,
      worldSpec: trajectory.worldSpec,
      initialState,
      controlInstruction: controlInstructionOf(end),
      history: steps.slice(0, -1).map(layout),
      action: normalizeAction(end.action),
    });
    messages.push(observationMessage(end, options));
    return messages;
  }
  if (options.reasoning) {
    const lost = lostReasoning(steps);
    if (lost) throw new DatasetExportError(`${trajectory.title} (node ${end.id}): ${lost}`);
  }
  // A whole path teaches every observation in one example; a control instruction would
  // apply to one turn only, so it cannot be expressed in the shared system prompt.
  const system = worldModelSystemPrompt({ systemPrompt: trajectory.systemPrompt, worldSpec: trajectory.worldSpec, initialState });
  const messages: ExampleMessage[] = [{ role: 'system', content: system }];
  steps.forEach((n, i) => {
    messages.push({ role: 'user', content: promptForAction(i + 1, normalizeAction(n.action)) });
    messages.push(observationMessage(n, options));
  });
  return messages;
}

/** The agent's side of the same trajectory: it reads what the environment shows and calls one tool per turn. */
export function agentSystemPrompt(domain: string): string {
  return (
    `You are an agent working in a ${domain} environment. The first user message shows the environment; ` +
    'then call one of your tools per turn to take your next action, and read its result before the next one.'
  );
}

// Per step and per path alike the example ends at an action: nothing follows the last observation.
// A step example carries the agent's reasoning on the action it teaches only; a path example on each.
function agentMessages(domain: string, initialState: string, steps: NodeRecord[], options: ResolvedExampleOptions, toolbox: AgentToolbox): ExampleMessage[] {
  const messages: ExampleMessage[] = [
    { role: 'system', content: agentSystemPrompt(domain) },
    { role: 'user', content: initialState.trim() === '' ? 'The environment is ready.' : initialState },
  ];
  steps.forEach((n, i) => {
    const action = normalizeAction(n.action);
    const call = toolbox.callFor(action);
    if (i > 0) messages.push({ role: 'tool', name: toolbox.callFor(normalizeAction(steps[i - 1]!.action)).name, content: steps[i - 1]!.observation });
    const message: ExampleMessage = { role: 'assistant', content: action, toolCalls: [call] };
    const taught = options.per === 'path' || i === steps.length - 1;
    if (options.reasoning && taught && n.agentReasoning) message.reasoning = n.agentReasoning;
    messages.push(message);
  });
  return messages;
}
