// Samples of one action from one state, found among a trajectory's nodes: the children of a
// parent with the same action, the recorded one apart (real, else imported: the ground truth
// they are compared with).
// Each sample gets what tells it from its siblings (number, seed, perturbation kind) and the
// group its agreement (agreement.ts). Pure.
import type { AgreementRow, SampleVariant, SiblingGroup } from '../contract/siblings';
import { PREFERRED_TAG } from '../contract/siblings';
import type { Domain, NodeRecord } from '../trajectory/model';
import { sampleAgreement } from './agreement';

/** More samples than this in one group are compared by their first ones only (pairs grow as n²). */
export const MAX_COMPARED_SAMPLES = 16;

export interface RawGroup {
  parentId: string;
  /** The state's depth: its children's, less one. */
  parentDepth: number;
  action: string;
  real: NodeRecord | null;
  samples: NodeRecord[];
}

const firstLine = (text: string) => {
  const end = text.indexOf('\n');
  return (end === -1 ? text : text.slice(0, end)).slice(0, 200);
};

/**
 * Children grouped by parent and action, in creation order; only groups with at least one
 * sample. Takes any set of nodes: a whole trajectory, one node's children, or just the
 * sibling samples the store picked out.
 */
export function rawSiblingGroups(nodes: readonly NodeRecord[], parentId?: string): RawGroup[] {
  const groups = new Map<string, RawGroup>();
  for (const n of nodes) {
    if (n.parentId === null || (parentId !== undefined && n.parentId !== parentId)) continue;
    const key = `${n.parentId}\u0000${n.action}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { parentId: n.parentId, parentDepth: n.depth - 1, action: n.action, real: null, samples: [] }));
    // The recorded step is the ground truth: a real one, else one imported from a recording.
    if (n.origin === 'real') group.real = group.real?.origin === 'real' ? group.real : n;
    else if (n.origin === 'imported') group.real ??= n;
    else group.samples.push(n);
  }
  return [...groups.values()].filter((g) => g.samples.length > 0);
}

function perturbationOf(node: NodeRecord): string | null {
  const first = node.provenance.perturbations?.[0];
  return first && typeof first.kind === 'string' ? first.kind : null;
}

export function variantsOf(group: RawGroup): SampleVariant[] {
  return group.samples.map((n, i) => ({
    nodeId: n.id,
    sample: i + 1,
    of: group.samples.length,
    seed: typeof n.provenance.seed === 'number' ? n.provenance.seed : null,
    perturbation: perturbationOf(n),
  }));
}

export function compareGroup(group: RawGroup, domain: Domain): SiblingGroup {
  const compared = group.samples.slice(0, MAX_COMPARED_SAMPLES);
  const agreement = sampleAgreement(
    compared.map((n) => n.observation),
    group.real?.observation ?? null,
  );
  const variants = variantsOf(group);
  return {
    parentId: group.parentId,
    action: group.action,
    domain,
    realNodeId: group.real?.id ?? null,
    realOrigin: group.real?.origin ?? null,
    real: group.real?.observation ?? null,
    samples: compared.map((n, i) => ({
      ...variants[i]!,
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

/** Every state with two or more samples of one action, least agreement first; and each sample's variant (a lone perturbed one's too). */
export function agreementRows(nodes: readonly NodeRecord[]): { rows: AgreementRow[]; variants: SampleVariant[] } {
  const rows: AgreementRow[] = [];
  const variants: SampleVariant[] = [];
  for (const group of rawSiblingGroups(nodes)) {
    // A lone perturbed sample still says which perturbation it is; agreement needs two.
    if (group.samples.length < 2) {
      variants.push(...variantsOf(group).filter((v) => v.perturbation !== null));
      continue;
    }
    variants.push(...variantsOf(group));
    const compared = group.samples.slice(0, MAX_COMPARED_SAMPLES);
    const a = sampleAgreement(compared.map((n) => n.observation));
    rows.push({
      parentId: group.parentId,
      label: firstLine(group.action),
      depth: group.parentDepth,
      samples: group.samples.length,
      agreement: a.agreement!,
      distinct: a.distinct,
      consensusNodeId: compared[a.consensus]!.id,
      preferredNodeId: group.samples.find((n) => n.curation.tags.includes(PREFERRED_TAG))?.id ?? null,
    });
  }
  rows.sort((x, y) => x.agreement - y.agreement || x.depth - y.depth);
  return { rows, variants };
}
