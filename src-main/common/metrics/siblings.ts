// Samples of one action from one state, found among a trajectory's nodes: the children of a
// parent with the same action, the recorded one apart (real, else imported: the ground truth
// they are compared with). Only the world model's own samples of that action under the same
// prompt count as samples (what their agreement measures: the model's certainty there); a
// perturbed, edited or hand-written sibling is an alternative to them, never "#3 of 3".
// Each sample gets what tells it from its siblings (number, seed, perturbation kind) and the
// samples of an action their agreement (agreement.ts). Pure.
import type { AgreementRow, SiblingLabel, ActionSamples } from '../contract/siblings';
import { PREFERRED_TAG } from '../contract/siblings';
import type { Domain, NodeRecord, Origin } from '../trajectory/model';
import { sampleAgreement } from './agreement';

/** More samples than this of one action are compared by their first ones only (pairs grow as n²). */
export const MAX_COMPARED_SAMPLES = 16;

/** Origins of nodes the world model sampled for the action as it was (an agent's call included). */
const SAMPLED: ReadonlySet<Origin> = new Set<Origin>(['simulated', 'agent']);

export interface ActionSiblings {
  parentId: string;
  /** The state's depth: its children's, less one. */
  parentDepth: number;
  action: string;
  real: NodeRecord | null;
  /** The world model's samples of the action under the prompt of the latest one, in creation order. */
  samples: NodeRecord[];
  /** The other siblings of the same action: perturbed, edited, hand-written, or sampled under another prompt. */
  alternatives: NodeRecord[];
}

const firstLine = (text: string) => {
  const end = text.indexOf('\n');
  return (end === -1 ? text : text.slice(0, end)).slice(0, 200);
};

/**
 * Children grouped by parent and action, in creation order; only actions with at least one
 * sample or alternative. Takes any set of nodes: a whole trajectory, one node's children, or
 * just the sibling samples the store picked out.
 */
export function siblingsByAction(nodes: readonly NodeRecord[], parentId?: string): ActionSiblings[] {
  const byAction = new Map<string, ActionSiblings>();
  for (const n of nodes) {
    if (n.parentId === null || (parentId !== undefined && n.parentId !== parentId)) continue;
    const key = `${n.parentId}\u0000${n.action}`;
    let siblings = byAction.get(key);
    if (!siblings) byAction.set(key, (siblings = { parentId: n.parentId, parentDepth: n.depth - 1, action: n.action, real: null, samples: [], alternatives: [] }));
    // The recorded step is the ground truth: a real one, else one imported from a recording.
    if (n.origin === 'real') siblings.real = siblings.real?.origin === 'real' ? siblings.real : n;
    else if (n.origin === 'imported') siblings.real ??= n;
    else if (SAMPLED.has(n.origin)) siblings.samples.push(n);
    else siblings.alternatives.push(n);
  }
  for (const siblings of byAction.values()) {
    // Samples made under another prompt (a changed world specification, say) are not samples of the same question.
    const prompt = siblings.samples.at(-1)?.provenance.promptHash;
    const [same, other] = [siblings.samples.filter((n) => n.provenance.promptHash === prompt), siblings.samples.filter((n) => n.provenance.promptHash !== prompt)];
    siblings.samples = same;
    if (other.length > 0) siblings.alternatives = [...other, ...siblings.alternatives].sort((a, b) => nodes.indexOf(a) - nodes.indexOf(b));
  }
  return [...byAction.values()].filter((g) => g.samples.length > 0 || g.alternatives.length > 0);
}

function perturbationOf(node: NodeRecord): string | null {
  const first = node.provenance.perturbations?.[0];
  return first && typeof first.kind === 'string' ? first.kind : null;
}

function perturbationModeOf(node: NodeRecord): 'instruction' | 'transform' | null {
  const mode = node.provenance.perturbations?.[0]?.mode;
  return mode === 'instruction' || mode === 'transform' ? mode : null;
}

export function sampleLabels(siblings: ActionSiblings): SiblingLabel[] {
  return siblings.samples.map((n, i) => ({
    nodeId: n.id,
    sample: i + 1,
    of: siblings.samples.length,
    seed: typeof n.provenance.seed === 'number' ? n.provenance.seed : null,
    perturbation: perturbationOf(n),
  }));
}

/** What a perturbed alternative's row says: its kind and seed, never a sample number. */
function perturbedSiblingLabels(siblings: ActionSiblings): SiblingLabel[] {
  return siblings.alternatives.flatMap((n) => {
    const perturbation = perturbationOf(n);
    return perturbation === null
      ? []
      : [{ nodeId: n.id, sample: 1, of: 1, seed: typeof n.provenance.seed === 'number' ? n.provenance.seed : null, perturbation, perturbationMode: perturbationModeOf(n) }];
  });
}

export function sideBySide(siblings: ActionSiblings, domain: Domain): ActionSamples {
  const compared = siblings.samples.slice(0, MAX_COMPARED_SAMPLES);
  const agreement = sampleAgreement(
    compared.map((n) => n.observation),
    siblings.real?.observation ?? null,
  );
  const labels = sampleLabels(siblings);
  return {
    parentId: siblings.parentId,
    action: siblings.action,
    domain,
    realNodeId: siblings.real?.id ?? null,
    realOrigin: siblings.real?.origin ?? null,
    real: siblings.real?.observation ?? null,
    samples: compared.map((n, i) => ({
      ...labels[i]!,
      origin: n.origin,
      observation: n.observation,
      preferred: n.curation.tags.includes(PREFERRED_TAG),
      centrality: agreement.centrality[i]!,
      toReal: agreement.toReal?.[i] ?? null,
    })),
    pairwise: agreement.pairwise,
    agreement: agreement.agreement,
    consensusNodeId: compared[agreement.consensus]?.id ?? null,
    distinct: agreement.distinct,
  };
}

/** Every state with two or more samples of one action, least agreement first; and each sample's label (a perturbed sibling's too). */
export function agreementRows(nodes: readonly NodeRecord[]): { rows: AgreementRow[]; labels: SiblingLabel[] } {
  const rows: AgreementRow[] = [];
  const labels: SiblingLabel[] = [];
  for (const siblings of siblingsByAction(nodes)) {
    // A perturbed sibling is no sample, but its row still names its perturbation; agreement needs two samples.
    labels.push(...(siblings.samples.length >= 2 ? sampleLabels(siblings) : []), ...perturbedSiblingLabels(siblings));
    if (siblings.samples.length < 2) continue;
    const compared = siblings.samples.slice(0, MAX_COMPARED_SAMPLES);
    const a = sampleAgreement(compared.map((n) => n.observation));
    rows.push({
      parentId: siblings.parentId,
      label: firstLine(siblings.action),
      depth: siblings.parentDepth,
      samples: siblings.samples.length,
      agreement: a.agreement!,
      distinct: a.distinct,
      consensusNodeId: compared[a.consensus]!.id,
      preferredNodeId: [...siblings.samples, ...siblings.alternatives].find((n) => n.curation.tags.includes(PREFERRED_TAG))?.id ?? null,
    });
  }
  rows.sort((x, y) => x.agreement - y.agreement || x.depth - y.depth);
  return { rows, labels };
}
