// The one interface every perturbation implements. A perturbation is a condition a team
// wants to see in an environment (a command that is not installed, a consent pop-up, a
// flaky test) that the studio can inject in two ways:
//  - instruction mode: a control instruction joins the world model's input and the model
//    plays the condition out itself, consistently with the rest of the trajectory;
//  - transform mode: a deterministic edit of an observation (simulated or real).
// Pure: no Node, no DOM. Catalog kinds live one file per domain under ./catalog and are
// found through ./registry.ts; user-defined kinds come from ./user-file.ts.
import type { z } from 'zod';
import type { Domain } from '../trajectory/model';
import type { Rng } from './rng';

export type PerturbationMode = 'instruction' | 'transform';

/** What a perturbation knows about the step it perturbs. */
export interface PerturbationContext {
  domain: Domain;
  /** The action text of the step, as the agent wrote it. */
  action: string;
}

/** Parameter values after validation, defaults filled. */
export type PerturbationParams = Record<string, unknown>;

/** A zod object schema whose every field has a default, so `parse({})` gives a full set. */
export type ParamsSchema<P extends PerturbationParams = PerturbationParams> = z.ZodType<P, Partial<P>>;

export interface PerturbationKind<P extends PerturbationParams = PerturbationParams> {
  /** Stable and unique, `<domain>.<name>`; recorded in provenance. */
  id: string;
  domain: Domain;
  /** Short name shown in the perturbation panel. */
  label: string;
  /** One or two sentences on what the condition is and when it is useful. */
  description: string;
  /**
   * Bumped whenever the kind's output for the same params and seed changes, so a
   * recorded perturbation that can no longer be reproduced is reported, not silently
   * re-run differently.
   */
  version: number;
  /** Where the kind comes from: `catalog`, or the name of the user file that defined it. */
  source: string;
  params: ParamsSchema<P>;
  /** The control instruction text for instruction mode. */
  instruction(params: P, ctx: PerturbationContext): string;
  /** The changed observation for transform mode; depends only on its arguments. */
  transform(observation: string, params: P, rng: Rng, ctx: PerturbationContext): string;
  /**
   * Why the condition cannot happen at this step (e.g. "command not found" for a shell
   * builtin), or null when it can. Schedules skip such steps rather than inject nonsense.
   * Absent: the kind can happen at any step of its domain.
   */
  impossibleAt?(params: P, ctx: PerturbationContext): string | null;
}

/**
 * Declares a catalog kind with its params type inferred from its schema. The result is
 * widened to the plain `PerturbationKind` so kinds with different params share one list.
 */
export function defineKind<P extends PerturbationParams>(
  kind: Omit<PerturbationKind<P>, 'source' | 'version'> & { version?: number },
): PerturbationKind {
  return { version: 1, source: 'catalog', ...kind } as unknown as PerturbationKind;
}
