import type { StepComparison } from '../../../../src-main/common/contract/reality';
import { plural } from '../../../../src-main/common/plural';

/**
 * What the head says of the steps: how many diverged among those compared, and plainly that a
 * trajectory has not been replayed rather than "0 diverged" when nothing was compared yet.
 */
export function divergenceSummary(steps: readonly StepComparison[]): string {
  const compared = steps.filter((s) => s.diverged !== null);
  const total = plural(steps.length, 'step');
  if (steps.length === 0) return 'no steps';
  if (compared.length === 0) return `${total}, none compared yet: not replayed (use Replay) or not run for real`;
  const diverged = compared.filter((s) => s.diverged).length;
  const rest = steps.length - compared.length;
  return `${diverged} of ${plural(compared.length, 'compared step')} diverged${rest ? ` · ${rest} not compared yet` : ''}`;
}
