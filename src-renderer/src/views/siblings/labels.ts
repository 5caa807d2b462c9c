// What a tree row or a column header says to tell one sample of an action from its siblings,
// and how an agreement reads. Pure, so it is tested without a browser.
import type { AgreementRow, SiblingLabel } from '../../../../src-main/common/contract/siblings';
import { agreementBand, type AgreementBand } from '../../../../src-main/common/metrics/agreement';

/** "#2/4 · seed 101", "#3/4 · permission-denied" — never four identical rows. */
export function siblingLabelText(v: SiblingLabel): string {
  // A lone (perturbed) sample needs no number, only its kind.
  const parts = v.of > 1 ? [`#${v.sample}/${v.of}`] : [];
  // The mode tells two perturbations of one kind apart: one the model played out, one a deterministic edit.
  if (v.perturbation) parts.push(v.perturbationMode === 'instruction' ? `${v.perturbation} (instructed)` : v.perturbation);
  if (v.seed !== null) parts.push(`seed ${v.seed}`);
  return parts.join(' · ');
}

export const percent = (x: number) => `${Math.round(x * 100)}%`;

/** The badge on a parent row: how much its samples of one action agree. */
export function agreementBadge(row: Pick<AgreementRow, 'agreement' | 'samples' | 'distinct' | 'label'>): { text: string; band: AgreementBand; title: string } {
  const band = agreementBand(row.agreement);
  const spread = row.distinct === 1 ? 'all the same' : `${row.distinct} different observations`;
  return {
    text: `≈${percent(row.agreement)}`,
    band,
    title: `${row.samples} samples of "${row.label}" agree ${percent(row.agreement)} (${spread}); click to see them side by side`,
  };
}
