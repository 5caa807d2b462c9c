// Sample builders: a path of nodes in, chat messages out. Pure.
// World-model samples are built by the same buildWorldModelMessages the engines use, so
// what a fine-tuned model is trained on is exactly what Worldloom will later send it.
import type { SampleOptions } from '../common/contract/dataset';
import { buildWorldModelMessages, worldModelSystemPrompt } from '../common/prompt/world-model-messages';
import type { NodeRecord, TrajectoryBundle } from '../common/trajectory/model';
import { promptForAction, responseForObservation } from '../common/trajectory/turn-format';
import { perturbationKinds } from './filter-fields';
import type { DatasetSample, SampleMessage } from './sample';

export type ResolvedSampleOptions = Required<SampleOptions>;

/**
 * A perturbed step simulated under a control instruction must be trained with it, or the
 * model learns to produce the failure unprompted. Perturbation records may carry it.
 */
function controlInstructionOf(node: NodeRecord): string | null {
  const value = (node.provenance as Record<string, unknown>).controlInstruction;
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** One sample per end node; `ends` come from selection.sampleEnds. */
export function buildSamples(bundle: TrajectoryBundle, ends: readonly NodeRecord[], options: ResolvedSampleOptions): DatasetSample[] {
  if (ends.length === 0) return [];
  const byId = new Map(bundle.nodes.map((n) => [n.id, n]));
  return ends.map((end) => {
    const path: NodeRecord[] = [];
    for (let n: NodeRecord | undefined = end; n; n = n.parentId ? byId.get(n.parentId) : undefined) path.push(n);
    path.reverse();
    const root = path[0]!.parentId === null ? path.shift()! : null;
    return buildSample(bundle, root, path, options);
  });
}

function buildSample(bundle: TrajectoryBundle, root: NodeRecord | null, steps: NodeRecord[], options: ResolvedSampleOptions): DatasetSample {
  const { trajectory } = bundle;
  const end = steps[steps.length - 1]!;
  const taught = options.per === 'step' ? [end] : steps;
  const messages =
    options.builder === 'agent'
      ? agentMessages(trajectory.domain, root?.observation ?? '', steps)
      : worldModelMessages(bundle, root?.observation ?? '', steps, options);
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
    origin: end.origin,
    perturbations: [...perturbations],
    models: [...models],
    seeds: [...seeds],
    sources: [...sources],
    createdAt: end.createdAt,
  };
}

function worldModelMessages(bundle: TrajectoryBundle, initialState: string, steps: NodeRecord[], options: ResolvedSampleOptions): SampleMessage[] {
  const { trajectory } = bundle;
  const end = steps[steps.length - 1]!;
  const observationOf = (n: NodeRecord): SampleMessage => {
    const message: SampleMessage = { role: 'assistant', content: responseForObservation(n.observation) };
    if (options.reasoning && n.reasoning) message.reasoning = n.reasoning;
    return message;
  };
  if (options.per === 'step') {
    const messages: SampleMessage[] = buildWorldModelMessages({
      systemPrompt: trajectory.systemPrompt,
      worldSpec: trajectory.worldSpec,
      initialState,
      controlInstruction: controlInstructionOf(end),
      history: steps.slice(0, -1),
      action: end.action,
    });
    messages.push(observationOf(end));
    return messages;
  }
  // A whole path teaches every observation in one sample; a control instruction would
  // apply to one turn only, so it cannot be expressed in the shared system prompt.
  const system = worldModelSystemPrompt({ systemPrompt: trajectory.systemPrompt, worldSpec: trajectory.worldSpec, initialState });
  const messages: SampleMessage[] = [{ role: 'system', content: system }];
  steps.forEach((n, i) => {
    messages.push({ role: 'user', content: promptForAction(i + 1, n.action) });
    messages.push(observationOf(n));
  });
  return messages;
}

/** The agent's side of the same trajectory: it reads observations and answers with its next action. */
export function agentSystemPrompt(domain: string): string {
  return (
    `You are an agent working in a ${domain} environment. Each user message is what the environment ` +
    'shows you; reply with your next action only, exactly as it should be executed.'
  );
}

// Per step and per path alike the sample ends at an action: nothing follows the last observation.
function agentMessages(domain: string, initialState: string, steps: NodeRecord[]): SampleMessage[] {
  const messages: SampleMessage[] = [
    { role: 'system', content: agentSystemPrompt(domain) },
    { role: 'user', content: initialState.trim() === '' ? 'The environment is ready.' : initialState },
  ];
  steps.forEach((n, i) => {
    if (i > 0) messages.push({ role: 'user', content: steps[i - 1]!.observation });
    messages.push({ role: 'assistant', content: n.action });
  });
  return messages;
}
