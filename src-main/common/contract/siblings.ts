// The sibling part of the contract: samples of one action from one state, side by side with each
// other and with the real observation (their agreement is the model's certainty there), and
// the curator's pick of the best one. Pure: the renderer imports it too.
import { z } from 'zod';
import { Domain, NodeRecord, Origin } from '../trajectory/model';
import { method } from './method';

const Id = z.string().min(1).max(200);

/** The tag that marks the sample a curator preferred among its siblings (preference exports read it). */
export const PREFERRED_TAG = 'preferred';

/** What tells one sample of an action from its siblings in a row: its number, seed and perturbation. */
export const SiblingLabel = z.object({
  nodeId: z.string(),
  /** 1-based, in the order the samples were made. */
  sample: z.number().int(),
  of: z.number().int(),
  seed: z.number().int().nullable(),
  /** The perturbation kind applied, when the sample is a perturbed one. */
  perturbation: z.string().nullable(),
  /** How it was applied: the observation transformed, or the model instructed to play it out. */
  perturbationMode: z.enum(['instruction', 'transform']).nullable().optional(),
});
export type SiblingLabel = z.infer<typeof SiblingLabel>;

export const SiblingSample = SiblingLabel.extend({
  origin: Origin,
  observation: z.string(),
  preferred: z.boolean(),
  /** Mean similarity to the other samples. */
  centrality: z.number(),
  /** Edit similarity to the real observation; null without a real sibling. */
  toReal: z.number().nullable(),
});
export type SiblingSample = z.infer<typeof SiblingSample>;

/** The samples of one action from one state, side by side. */
export const ActionSamples = z.object({
  parentId: z.string(),
  action: z.string(),
  domain: Domain,
  /** The recorded step of the same action (real, else imported), the ground truth; null when none. */
  realNodeId: z.string().nullable(),
  realOrigin: Origin.nullable(),
  real: z.string().nullable(),
  samples: z.array(SiblingSample),
  /** pairwise[i][j]: edit similarity of samples i and j. */
  pairwise: z.array(z.array(z.number())),
  /** Mean pairwise similarity; null with fewer than two samples. */
  agreement: z.number().nullable(),
  /** The sample closest to all the others. */
  consensusNodeId: z.string().nullable(),
  distinct: z.number().int(),
});
export type ActionSamples = z.infer<typeof ActionSamples>;

/** One state with two or more samples of an action: a row of "where is the model unsure". */
export const AgreementRow = z.object({
  parentId: z.string(),
  /** The action's first line. */
  label: z.string(),
  depth: z.number().int(),
  samples: z.number().int(),
  agreement: z.number(),
  distinct: z.number().int(),
  consensusNodeId: z.string(),
  preferredNodeId: z.string().nullable(),
});
export type AgreementRow = z.infer<typeof AgreementRow>;

export const siblingsApi = {
  /** The samples of each action under `parentId` (optionally only `action`'s) side by side: two or more, or one beside a real step. */
  'siblings.sideBySide': method(z.object({ parentId: Id, action: z.string().max(10_000_000).optional() }), z.object({ actions: z.array(ActionSamples) })),
  /**
   * Per state of a trajectory with two or more samples of one action: their agreement, least
   * first; and what tells each sample apart, for its row in the tree.
   */
  'siblings.agreement': method(z.object({ trajectoryId: Id }), z.object({ rows: z.array(AgreementRow), labels: z.array(SiblingLabel) })),
  /** Marks one sample as preferred among the samples of its action (the others lose the mark). */
  'siblings.prefer': method(z.object({ nodeId: Id }), z.object({ nodes: z.array(NodeRecord) })),
} as const;
