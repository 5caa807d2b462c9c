// What the dataset card reports, gathered while examples stream past: counts by split,
// domain, origin and perturbation, token lengths, and where the examples came from.
import type { DatasetExample, Split } from '../example';
import { MODEL_WRITTEN_ORIGINS } from '../filter-fields';

type Counts = Record<string, number>;

export interface SplitStats {
  examples: number;
  trajectories: Set<string>;
  byDomain: Counts;
  byOrigin: Counts;
  byPerturbation: Counts;
  tokenLengths: number[];
  /** Assistant turns written, and those the example teaches (the rest repeat history). */
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
  /** The written examples by where their taught step came from (the export summary's first line). */
  readonly composition = { real: 0, edited: 0, simulatedReviewed: 0, simulatedUnreviewed: 0 };
  private readonly models: Counts = {};
  private readonly sources: Counts = {};
  private readonly seeds = new Set<number>();
  private firstCreated: string | null = null;
  private lastCreated: string | null = null;

  add(example: DatasetExample, split: Split, tokens: number): void {
    const s = this.splits[split];
    s.examples++;
    s.trajectories.add(example.trajectoryId);
    bump(s.byDomain, example.domain);
    bump(s.byOrigin, example.origin);
    if (example.origin === 'edited') this.composition.edited++;
    else if (!MODEL_WRITTEN_ORIGINS.has(example.origin)) this.composition.real++;
    else if (example.reviewed) this.composition.simulatedReviewed++;
    else this.composition.simulatedUnreviewed++;
    if (example.perturbations.length === 0) bump(s.byPerturbation, 'none');
    for (const kind of example.perturbations) bump(s.byPerturbation, kind);
    s.tokenLengths.push(tokens);
    for (let i = 0; i < example.messages.length; i++) {
      if (example.messages[i]!.role !== 'assistant') continue;
      s.assistantTurns++;
      if (example.completionFrom === null || i >= example.completionFrom) s.taughtTurns++;
    }
    for (const m of example.models) bump(this.models, m);
    for (const f of example.sources) bump(this.sources, f);
    for (const seed of example.seeds) this.seeds.add(seed);
    if (this.firstCreated === null || example.createdAt < this.firstCreated) this.firstCreated = example.createdAt;
    if (this.lastCreated === null || example.createdAt > this.lastCreated) this.lastCreated = example.createdAt;
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
  return { examples: 0, trajectories: new Set(), byDomain: {}, byOrigin: {}, byPerturbation: {}, tokenLengths: [], assistantTurns: 0, taughtTurns: 0 };
}
