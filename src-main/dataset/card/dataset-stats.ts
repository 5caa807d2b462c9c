// What the dataset card reports, gathered while samples stream past: counts by split,
// domain, origin and perturbation, token lengths, and where the samples came from.
import type { DatasetSample, Split } from '../sample';
import { MODEL_WRITTEN_ORIGINS } from '../filter-fields';

type Counts = Record<string, number>;

export interface SplitStats {
  samples: number;
  trajectories: Set<string>;
  byDomain: Counts;
  byOrigin: Counts;
  byPerturbation: Counts;
  tokenLengths: number[];
  /** Assistant turns written, and those the sample teaches (the rest repeat history). */
  assistantTurns: number;
  taughtTurns: number;
}

export interface ProvenanceStats {
  models: Counts;
  sources: Counts;
  seeds: { distinct: number; min: number | null; max: number | null };
  firstCreated: string | null;
  lastCreated: string | null;
}

const bump = (counts: Counts, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

export class DatasetStats {
  readonly splits: Record<Split, SplitStats> = { train: emptySplit(), validation: emptySplit() };
  /** The written samples by where their taught step came from (the export summary's first line). */
  readonly composition = { real: 0, edited: 0, simulatedReviewed: 0, simulatedUnreviewed: 0 };
  private readonly models: Counts = {};
  private readonly sources: Counts = {};
  private readonly seeds = new Set<number>();
  private firstCreated: string | null = null;
  private lastCreated: string | null = null;

  add(sample: DatasetSample, split: Split, tokens: number): void {
    const s = this.splits[split];
    s.samples++;
    s.trajectories.add(sample.trajectoryId);
    bump(s.byDomain, sample.domain);
    bump(s.byOrigin, sample.origin);
    if (sample.origin === 'edited') this.composition.edited++;
    else if (!MODEL_WRITTEN_ORIGINS.has(sample.origin)) this.composition.real++;
    else if (sample.reviewed) this.composition.simulatedReviewed++;
    else this.composition.simulatedUnreviewed++;
    if (sample.perturbations.length === 0) bump(s.byPerturbation, 'none');
    for (const kind of sample.perturbations) bump(s.byPerturbation, kind);
    s.tokenLengths.push(tokens);
    for (let i = 0; i < sample.messages.length; i++) {
      if (sample.messages[i]!.role !== 'assistant') continue;
      s.assistantTurns++;
      if (sample.completionFrom === null || i >= sample.completionFrom) s.taughtTurns++;
    }
    for (const m of sample.models) bump(this.models, m);
    for (const f of sample.sources) bump(this.sources, f);
    for (const seed of sample.seeds) this.seeds.add(seed);
    if (this.firstCreated === null || sample.createdAt < this.firstCreated) this.firstCreated = sample.createdAt;
    if (this.lastCreated === null || sample.createdAt > this.lastCreated) this.lastCreated = sample.createdAt;
  }

  provenance(): ProvenanceStats {
    let min: number | null = null;
    let max: number | null = null;
    for (const s of this.seeds) {
      if (min === null || s < min) min = s;
      if (max === null || s > max) max = s;
    }
    return {
      models: this.models,
      sources: this.sources,
      seeds: { distinct: this.seeds.size, min, max },
      firstCreated: this.firstCreated,
      lastCreated: this.lastCreated,
    };
  }
}

function emptySplit(): SplitStats {
  return { samples: 0, trajectories: new Set(), byDomain: {}, byOrigin: {}, byPerturbation: {}, tokenLengths: [], assistantTurns: 0, taughtTurns: 0 };
}
