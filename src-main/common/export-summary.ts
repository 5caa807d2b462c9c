// The first thing every dataset export says, in the CLI and in the export dialog alike: how
// many examples, what they teach (recorded, edited, model-written and reviewed or not), the
// split and the duplicates. Pure.
import type { DatasetExportSummary } from './contract/dataset';

type Summary = Pick<DatasetExportSummary, 'examples' | 'composition' | 'removed' | 'split' | 'dedup'>;

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What leaves out model-written examples nobody reviewed, in the filter language both doors take. */
export const UNREVIEWED_FILTER = 'not simulated or reviewed';

/** "39 real, 12 simulated not reviewed": what examples teach, as the export dialog says it before and after exporting. */
export function compositionText({ real, edited, simulatedReviewed, simulatedUnreviewed }: Summary['composition']): string {
  return [
    real > 0 && `${real} real`,
    edited > 0 && `${edited} edited`,
    simulatedReviewed > 0 && `${simulatedReviewed} simulated and reviewed`,
    simulatedUnreviewed > 0 && `${simulatedUnreviewed} simulated not reviewed`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Why unreviewed model-written examples deserve a look, and the filter that leaves them out. */
export function unreviewedLine(simulatedUnreviewed: number): string {
  return `${count(simulatedUnreviewed, 'example')} ${simulatedUnreviewed === 1 ? 'teaches an observation' : 'teach observations'} the model wrote and nobody starred, rated, tagged or noted; the filter \`${UNREVIEWED_FILTER}\` leaves them out.`;
}

export function exportSummaryLines(s: Summary): string[] {
  const total = s.examples.train + s.examples.validation;
  const { simulatedUnreviewed } = s.composition;
  const split =
    s.split >= 1
      ? 'all in train (no validation split)'
      : `train ${s.examples.train}, validation ${s.examples.validation} (${Math.round(s.split * 100)}/${Math.round((1 - s.split) * 100)} by trajectory)`;
  const removed = s.removed.duplicates + s.removed.nearDuplicates;
  const dedup = s.dedup
    ? removed > 0
      ? `${count(s.removed.duplicates, 'duplicate')} and ${count(s.removed.nearDuplicates, 'near-duplicate')} removed`
      : 'no duplicates found'
    : 'duplicates kept';
  const lines = [`${count(total, 'example')}: ${compositionText(s.composition)}; ${split}; ${dedup}.`];
  if (simulatedUnreviewed > 0) lines.push(unreviewedLine(simulatedUnreviewed));
  return lines;
}
