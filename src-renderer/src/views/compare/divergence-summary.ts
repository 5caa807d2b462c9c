import type { StepComparison } from '../../../../src-main/common/contract/reality';

/**
 * What the head says of the steps: how many diverged among those compared, and plainly that a
 * trajectory has not been replayed rather than "0 diverged" when nothing was compared yet.
 */
export function divergenceSummary(steps: readonly StepComparison[]): string {
  const compared = steps.filter((s) => s.diverged !== null);
  const total = `${steps.length} step${steps.length === 1 ? '' : 's'}`;
  if (steps.length === 0) return 'no steps';
  if (compared.length === 0) return `${total}, none compared yet: not replayed (use Replay) or not run for real`;
  const diverged = compared.filter((s) => s.diverged).length;
  const rest = steps.length - compared.length;
  return `${diverged} of ${compared.length} compared step${compared.length === 1 ? '' : 's'} diverged${rest ? ` · ${rest} not compared yet` : ''}`;
}
