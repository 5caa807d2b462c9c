// When an agent acts in a simulated world, perturbations are injected on a schedule: each
// kind at its own rate, decided per step from one seed, so the same seed and the same run
// of steps inject the same perturbations at the same steps (`--perturb KIND:RATE,… --seed S`).
import { planPerturbation, type PerturbationRecord } from '../common/perturbations/apply';
import type { PerturbationContext, PerturbationMode } from '../common/perturbations/kind';
import type { PerturbationRegistry } from '../common/perturbations/registry';
import { createRng, deriveSeed } from '../common/perturbations/rng';
import type { Domain } from '../common/trajectory/model';
import { UserError } from '../common/user-error';

export interface ScheduledKind {
  kindId: string;
  /** Probability from 0 to 1 that a step gets this kind. */
  rate: number;
}

export interface PerturbationSchedule {
  kinds: ScheduledKind[];
  seed: number;
  mode: PerturbationMode;
}

/** Reads `KIND:RATE,KIND:RATE` (a rate from 0 to 1, or a percentage such as 25%), checked against the catalog and the domain. */
export function parsePerturbationSchedule(text: string, domain: Domain, registry: PerturbationRegistry): ScheduledKind[] {
  const kinds: ScheduledKind[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const colon = part.lastIndexOf(':');
    if (colon <= 0) throw new UserError(`"${part}" is not KIND:RATE (for example ${domain}.${registry.byDomain(domain)[0]?.id.split('.')[1] ?? 'kind'}:0.2).`, 'invalid');
    const kindId = part.slice(0, colon).trim();
    const rateText = part.slice(colon + 1).trim();
    const rate = rateText.endsWith('%') ? Number(rateText.slice(0, -1)) / 100 : Number(rateText);
    if (!Number.isFinite(rate) || rate < 0 || rate > 1) throw new UserError(`The rate of ${kindId} must be a number from 0 to 1 (or 0% to 100%), not "${rateText}".`, 'invalid');
    const kind = registry.byId(kindId);
    if (!kind) {
      const known = registry.byDomain(domain).map((k) => k.id);
      throw new UserError(`Unknown perturbation kind "${kindId}". Kinds for ${domain} trajectories: ${known.join(', ')}.`, 'invalid');
    }
    if (kind.domain !== domain) throw new UserError(`${kindId} is a ${kind.domain} perturbation; this trajectory is in the ${domain} domain.`, 'invalid');
    if (kinds.some((k) => k.kindId === kindId)) throw new UserError(`${kindId} is named twice in --perturb; name each kind once.`, 'invalid');
    kinds.push({ kindId, rate });
  }
  return kinds;
}

/**
 * The perturbation injected at step `step` (0-based) of a session, or null. Each kind draws
 * from its own generator seeded by the schedule's seed, the kind and the step, so adding a
 * kind does not move the others' draws; when several fire, the first listed wins. A kind
 * that cannot happen at this step's action (command-not-found for `echo`, a shell builtin)
 * is passed over, as if it had not fired.
 */
export function perturbationAt(schedule: PerturbationSchedule, step: number, registry: PerturbationRegistry, ctx: PerturbationContext): PerturbationRecord | null {
  for (const { kindId, rate } of schedule.kinds) {
    const seed = deriveSeed(schedule.seed, `${kindId}@${step}`);
    if (!createRng(seed).chance(rate)) continue;
    const record = planPerturbation({ kindId, mode: schedule.mode, seed }, registry);
    if (registry.byId(kindId)?.impossibleAt?.(record.params, ctx)) continue;
    return record;
  }
  return null;
}
