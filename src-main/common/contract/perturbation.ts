// The perturbation part of the contract: the catalog, perturbing a step (one kind or a
// sweep), the workspace's own perturbation file, and a trajectory's world specification.
import { z } from 'zod';
import { Domain, NodeRecord, WorldSpec } from '../trajectory/model';
import { JobId } from './jobs';
import { method } from './method';
import { IncompleteSample, SamplingOverrides } from './simulation';

export const PerturbationKindInfo = z.object({
  id: z.string(),
  domain: Domain,
  label: z.string(),
  description: z.string(),
  source: z.string(),
  defaults: z.record(z.string(), z.unknown()),
  /** JSON Schema of the parameters, for the panel's editor. */
  paramsSchema: z.record(z.string(), z.unknown()),
});
export type PerturbationKindInfo = z.infer<typeof PerturbationKindInfo>;

const UserFileReport = z.object({
  ok: z.boolean(),
  kinds: z.number().int(),
  message: z.string(),
  problems: z.array(z.object({ path: z.string(), message: z.string() })),
});

export const perturbationApi = {
  'perturb.catalog': method(z.object({ domain: Domain.optional() }), z.array(PerturbationKindInfo)),
  /** One sibling per kind; a sweep is several kinds (or a whole domain) in one job. */
  'perturb.run': method(
    z.object({
      jobId: JobId,
      nodeId: z.string().min(1).max(200),
      mode: z.enum(['instruction', 'transform']).default('transform'),
      kinds: z.array(z.object({ kindId: z.string().min(1).max(200), params: z.record(z.string(), z.unknown()).optional() })).min(1).max(200),
      seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
      /** Instruction mode only: overrides the generation settings in force for this call. */
      sampling: SamplingOverrides.default({}),
    }),
    /** `incomplete`: instruction-mode samples that ran out of tokens before their observation (not stored). */
    z.object({ nodes: z.array(NodeRecord), incomplete: z.array(IncompleteSample), cancelled: z.boolean() }),
  ),
  'perturb.userFile': method(z.object({}), z.object({ text: z.string() }).extend(UserFileReport.shape)),
  /** Replaces the workspace's perturbation file; refused (and nothing saved) when invalid. */
  'perturb.setUserFile': method(z.object({ text: z.string().max(1_000_000) }), UserFileReport),
  'trajectory.setWorldSpec': method(z.object({ id: z.string().min(1).max(200), worldSpec: WorldSpec.nullable() }), z.object({ id: z.string() })),
} as const;
