import { describe, expect, it } from 'vitest';
import { exportSummaryLines } from './export-summary';

const base = { examples: { train: 51, validation: 0 }, removed: { duplicates: 0, nearDuplicates: 0, overLength: 0 }, split: 1, dedup: false };

describe('the summary every export starts with', () => {
  it('counts what the examples teach and says that model-written examples nobody reviewed are in, and how to leave them out', () => {
    expect(exportSummaryLines({ ...base, composition: { real: 39, edited: 0, simulatedReviewed: 0, simulatedUnreviewed: 12 } })).toEqual([
      '51 examples: 39 real, 12 simulated not reviewed; all in train (no validation split); duplicates kept.',
      '12 examples teach observations the model wrote and nobody starred, rated, tagged or noted; the filter `not simulated or reviewed` leaves them out.',
    ]);
  });

  it('says the split and the duplicates removed, and nothing more when every example was recorded or reviewed', () => {
    const lines = exportSummaryLines({
      examples: { train: 8, validation: 1 },
      removed: { duplicates: 1, nearDuplicates: 2, overLength: 0 },
      split: 0.9,
      dedup: true,
      composition: { real: 6, edited: 1, simulatedReviewed: 2, simulatedUnreviewed: 0 },
    });
    expect(lines).toEqual(['9 examples: 6 real, 1 edited, 2 simulated and reviewed; train 8, validation 1 (90/10 by trajectory); 1 duplicate and 2 near-duplicates removed.']);
    expect(exportSummaryLines({ ...base, examples: { train: 1, validation: 0 }, dedup: true, composition: { real: 1, edited: 0, simulatedReviewed: 0, simulatedUnreviewed: 0 } })).toEqual([
      '1 example: 1 real; all in train (no validation split); no duplicates found.',
    ]);
  });
});
