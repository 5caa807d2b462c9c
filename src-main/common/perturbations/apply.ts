// Planning and applying perturbations. A plan is the record that goes into a node's
// provenance (`provenance.perturbations[]`): kind, mode, full params, seed and the kind's
// version. Applying a plan depends on nothing else, so re-running a recorded perturbation
// reproduces the same observation, or fails saying why it cannot.
import { z } from 'zod';
import { DOMAINS, type Domain } from '../trajectory/model';
import type { PerturbationContext, PerturbationKind, PerturbationMode, PerturbationParams } from './kind';
import { perturbationCatalog, type PerturbationRegistry } from './registry';
import { createRng, deriveSeed } from './rng';

export const PerturbationRecord = z.object({
  kind: z.string().min(1),
  mode: z.enum(['instruction', 'transform']),
  params: z.record(z.string(), z.unknown()),
  seed: z.number().int().min(0),
  version: z.number().int().min(1),
});
export type PerturbationRecord = z.infer<typeof PerturbationRecord>;

/** A perturbation that cannot be planned or applied; `problems` lists each reason. */
export class PerturbationError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [message],
  ) {
    super(message);
    this.name = 'PerturbationError';
  }
}

export interface PlanRequest {
  kindId: string;
  mode: PerturbationMode;
  /** Params to set; the rest take the kind's defaults. */
  params?: Record<string, unknown>;
  /** Any integer; stored as a non-negative 31-bit seed. */
  seed: number;
}

function kindOrThrow(registry: PerturbationRegistry, id: string): PerturbationKind {
  const kind = registry.byId(id);
  if (kind) return kind;
  // A typo usually keeps the domain prefix; listing that domain's kinds is the useful hint.
  const domain = id.split('.')[0] ?? '';
  const sameDomain = (DOMAINS as readonly string[]).includes(domain) ? registry.byDomain(domain as Domain) : [];
  const known = sameDomain.length > 0 ? sameDomain : registry.list();
  throw new PerturbationError(`Unknown perturbation kind "${id}". Known kinds${sameDomain.length > 0 ? ` for ${domain}` : ''}: ${known.map((k) => k.id).join(', ')}.`);
}

function parseParams(kind: PerturbationKind, params: Record<string, unknown> | undefined): PerturbationParams {
  const known = Object.keys(kind.params.parse({}));
  const given = params ?? {};
  // zod objects drop unknown keys silently; a misspelt parameter must not be ignored.
  const problems = Object.keys(given)
    .filter((key) => !known.includes(key))
    .map((key) => `${key}: not a parameter of ${kind.id}`);
  const result = kind.params.safeParse(given);
  if (!result.success) problems.push(...result.error.issues.map((issue) => `${issue.path.join('.') || '(params)'}: ${issue.message}`));
  if (problems.length === 0 && result.success) return result.data;
  throw new PerturbationError(
    `Invalid params for ${kind.id}: ${problems.join('; ')}. Parameters of ${kind.id}: ${known.join(', ') || 'none'}.`,
    problems,
  );
}

function normalSeed(seed: number): number {
  if (!Number.isInteger(seed)) throw new PerturbationError(`The seed must be an integer, got ${seed}.`);
  return (seed >>> 0) & 0x7fffffff;
}

/** Validates a request and returns its provenance record (params with defaults filled). */
export function planPerturbation(request: PlanRequest, registry: PerturbationRegistry = perturbationCatalog): PerturbationRecord {
  if (request.mode !== 'instruction' && request.mode !== 'transform') {
    throw new PerturbationError(`Unknown mode "${String(request.mode)}". Use "instruction" or "transform".`);
  }
  const kind = kindOrThrow(registry, request.kindId);
  return { kind: kind.id, mode: request.mode, params: parseParams(kind, request.params), seed: normalSeed(request.seed), version: kind.version };
}

/** The kind of a record, checked to be the version that made it and for the same domain. */
function kindFor(record: PerturbationRecord, mode: PerturbationMode, ctx: PerturbationContext, registry: PerturbationRegistry) {
  const checked = PerturbationRecord.safeParse(record);
  if (!checked.success) throw new PerturbationError(`Not a perturbation record: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}.`);
  if (record.mode !== mode) {
    throw new PerturbationError(`The perturbation ${record.kind} was planned in ${record.mode} mode; it cannot be applied in ${mode} mode. Plan it again with mode "${mode}".`);
  }
  const kind = kindOrThrow(registry, record.kind);
  if (kind.version !== record.version) {
    throw new PerturbationError(
      `The perturbation ${record.kind} was recorded with version ${record.version} of the kind, but version ${kind.version} is installed; ` +
        'applying it would not reproduce the recorded result. Plan it again to use the current version.',
    );
  }
  if (kind.domain !== ctx.domain) {
    throw new PerturbationError(`The perturbation ${kind.id} is for ${kind.domain} steps, but this step is in the ${ctx.domain} domain. Pick a ${ctx.domain} kind.`);
  }
  return { kind, params: parseParams(kind, record.params) };
}

/** The observation changed by a transform-mode record; same record and input, same output. */
export function applyTransform(
  record: PerturbationRecord,
  observation: string,
  ctx: PerturbationContext,
  registry: PerturbationRegistry = perturbationCatalog,
): string {
  const { kind, params } = kindFor(record, 'transform', ctx, registry);
  return kind.transform(observation, params, createRng(record.seed), ctx);
}

/**
 * The control instruction of an instruction-mode record, as it joins the world model's
 * input: the kind's own text under a fixed heading, so the model sees one consistent
 * shape for every kind.
 */
export function instructionFor(record: PerturbationRecord, ctx: PerturbationContext, registry: PerturbationRegistry = perturbationCatalog): string {
  const { kind, params } = kindFor(record, 'instruction', ctx, registry);
  return (
    `**Simulation control (${kind.label}):** ${kind.instruction(params, ctx)}\n` +
    'Show this condition in the next observation exactly as the environment itself would, and keep everything else consistent with the trajectory so far.'
  );
}

export type SweepSelection = readonly string[] | { domain: Domain };

/**
 * One plan per kind (a list of ids, or a domain's whole catalog), each with default params
 * unless `params` names some, and a seed derived from the sweep's seed and the kind id:
 * the same sweep seed always gives the same plans, and every plan gets its own seed.
 */
export function planSweep(
  selection: SweepSelection,
  mode: PerturbationMode,
  seed: number,
  options: { params?: Record<string, Record<string, unknown>>; registry?: PerturbationRegistry } = {},
): PerturbationRecord[] {
  const registry = options.registry ?? perturbationCatalog;
  const ids = 'domain' in selection ? registry.byDomain(selection.domain).map((k) => k.id) : [...selection];
  if (ids.length === 0) throw new PerturbationError('A sweep needs at least one perturbation kind.');
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new PerturbationError(`The sweep names ${duplicate} twice; each kind makes one sibling, so name it once.`);
  const problems: string[] = [];
  const used = new Set<number>();
  const plans: PerturbationRecord[] = [];
  for (const id of ids) {
    let kindSeed = deriveSeed(normalSeed(seed), id);
    // Seeds from different ids collide only by chance; step to the next free one so each sibling differs.
    while (used.has(kindSeed)) kindSeed = (kindSeed + 1) & 0x7fffffff;
    used.add(kindSeed);
    try {
      plans.push(planPerturbation({ kindId: id, mode, params: options.params?.[id], seed: kindSeed }, registry));
    } catch (err) {
      problems.push(...(err instanceof PerturbationError ? err.problems.map((p) => (p.includes(id) ? p : `${id}: ${p}`)) : [String(err)]));
    }
  }
  if (problems.length > 0) throw new PerturbationError(`The sweep cannot be planned:\n- ${problems.join('\n- ')}`, problems);
  return plans;
}
