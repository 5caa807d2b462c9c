// Perturbing a step: each chosen kind makes one sibling of the node (same parent, same
// action) in one job. Transform mode changes the node's observation deterministically;
// instruction mode asks the world model to play the condition out, all kinds in one batch.
import type { IncompleteSample, Sampling } from '../common/contract/simulation';
import type { GenerateRequest, WorldModelEngine } from '../common/engine';
import { applyTransform, instructionFor, planSweep, type PerturbationRecord } from '../common/perturbations/apply';
import type { PerturbationMode } from '../common/perturbations/kind';
import type { PerturbationRegistry } from '../common/perturbations/registry';
import { promptHash } from '../common/prompt/prompt-hash';
import type { TemplateFolders } from '../prompt/template-files';
import { UserError } from '../common/user-error';
import type { WorkspaceStore } from '../store/workspace-store';
import type { NodeRecord } from '../common/trajectory/model';
import { incompleteness, parseModelOutput } from '../common/prompt/model-output';
import { engineRequestParts } from './generation-parameters';
import { incompleteMessage, messagesForStep, recordSample } from './simulate-step';

export interface PerturbStepInput {
  nodeId: string;
  mode: PerturbationMode;
  kinds: { kindId: string; params?: Record<string, unknown> }[];
  seed: number;
  /** The settings in force for instruction mode (GenerationParameters.resolve); each kind uses its own seed. */
  sampling: Sampling;
}

export interface PerturbStepResult {
  nodes: NodeRecord[];
  /** Instruction-mode samples that ran out of tokens before their observation; none became a node. */
  incomplete: IncompleteSample[];
  cancelled: boolean;
}

/**
 * The control instruction an instruction-mode perturbation added to a node's prompt: as
 * recorded, or worked out again from its perturbation record (nodes made before it was recorded).
 */
export function instructionOfNode(store: WorkspaceStore, node: NodeRecord, registry: PerturbationRegistry): string | null {
  const recorded = node.provenance.controlInstruction;
  if (typeof recorded === 'string') return recorded;
  const record = node.provenance.perturbations?.[0] as PerturbationRecord | undefined;
  if (!record || record.mode !== 'instruction') return null;
  const trajectory = store.getTrajectory(node.trajectoryId);
  try {
    return trajectory ? instructionFor(record, { domain: trajectory.domain, action: node.action }, registry) : null;
  } catch {
    // A kind no longer in the catalog or the workspace's file: its instruction cannot be shown.
    return null;
  }
}

export async function perturbStep(
  store: WorkspaceStore,
  engine: WorldModelEngine | null,
  templates: TemplateFolders,
  registry: PerturbationRegistry,
  input: PerturbStepInput,
  onProgress: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<PerturbStepResult> {
  const node = store.getNode(input.nodeId);
  if (!node) throw new UserError(`Node ${input.nodeId} is not in this workspace.`, 'not-found');
  if (!node.parentId) throw new UserError('The initial state has no action to perturb; choose a step below it.', 'invalid');
  const trajectory = store.getTrajectory(node.trajectoryId)!;
  const params = Object.fromEntries(input.kinds.filter((k) => k.params).map((k) => [k.kindId, k.params!]));
  const records = planSweep(
    input.kinds.map((k) => k.kindId),
    input.mode,
    input.seed,
    { params, registry },
  );
  const ctx = { domain: trajectory.domain, action: node.action };
  const origin = { perturbedFromId: node.id };

  if (input.mode === 'transform') {
    const nodes = store.transaction(() =>
      records.map((record, i) => {
        const observation = applyTransform(record, node.observation, ctx, registry);
        onProgress(i + 1, records.length);
        return store.addNode({
          parentId: node.parentId!,
          action: node.action,
          observation,
          reasoning: node.reasoning,
          origin: 'perturbed',
          provenance: { perturbations: [record], ...origin },
        });
      }),
    );
    return { nodes, incomplete: [], cancelled: false };
  }

  if (!engine) {
    throw new UserError('Instruction mode needs a world model: load one in the model panel, or use transform mode.', 'no-model');
  }
  const prepared = await Promise.all(
    records.map(async (record: PerturbationRecord) => {
      const instruction = instructionFor(record, ctx, registry);
      const messages = await messagesForStep(store, templates, node.parentId!, node.action, instruction);
      return { record, instruction, messages, hash: await promptHash(messages), sampling: { ...input.sampling, seed: record.seed } };
    }),
  );
  const requests: GenerateRequest[] = prepared.map((p, i) => ({ id: String(i), messages: p.messages, ...engineRequestParts(p.sampling) }));
  let finished = 0;
  const results = await engine.generate(requests, () => {}, signal);
  if (results.some((r) => r.finishReason === 'cancelled')) return { nodes: [], incomplete: [], cancelled: true };
  const description = engine.describe();
  const incomplete: IncompleteSample[] = [];
  const nodes = store.transaction(() =>
    results.flatMap((r, i) => {
      onProgress(++finished, results.length);
      if (r.finishReason === 'error') return [];
      const p = prepared[i]!;
      // Truncation is never a state: a perturbed sample cut off before its observation is reported, not stored.
      const reason = incompleteness(r.text, r.finishReason);
      if (reason) {
        incomplete.push({
          sample: i,
          seed: p.sampling.seed,
          reason,
          message: `${p.record.kind}: ${incompleteMessage(reason, r.completionTokens)}`,
          completionTokens: r.completionTokens,
          text: r.text,
          reasoning: parseModelOutput(r.text).reasoning ?? '',
          maxTokens: p.sampling.maxTokens,
        });
        return [];
      }
      return [
        recordSample(store, {
          parentId: node.parentId!,
          action: node.action,
          result: r,
          sampling: p.sampling,
          engine: description,
          promptHash: p.hash,
          worldSpec: trajectory.worldSpec,
          provenance: { perturbations: [p.record], controlInstruction: p.instruction, ...origin },
        }),
      ];
    }),
  );
  return { nodes, incomplete, cancelled: false };
}
