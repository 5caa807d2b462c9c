// The stage every exported sample passes through, in this order: scrub (so duplicates
// are judged on what will be written), de-duplicate, count tokens and drop over-long
// samples, gather card statistics, write. The export job and the benchmark share it.
import type { DatasetFormatSpec, WriteContext } from './formats/dataset-format';
import { DatasetStats } from './card/dataset-stats';
import { Deduplicator } from './hygiene/dedup';
import { Scrubber } from './hygiene/scrub';
import { sampleTokens, type TokenCounter } from './hygiene/token-length';
import type { DatasetSample, Split } from './sample';

export interface PipelineOptions {
  dedup: boolean;
  nearDuplicateThreshold: number;
  scrub: boolean;
  maxTokens: number | null;
}

export type SampleFate = 'written' | 'duplicate' | 'near-duplicate' | 'over-length';

export class SamplePipeline {
  readonly stats = new DatasetStats();
  readonly removed = { duplicates: 0, nearDuplicates: 0, overLength: 0 };
  private readonly scrubber: Scrubber | null;
  private readonly dedup: Deduplicator | null;
  private readonly writer;

  constructor(
    format: DatasetFormatSpec,
    dir: string,
    context: WriteContext,
    private readonly options: PipelineOptions,
    private readonly tokens: TokenCounter,
  ) {
    this.writer = format.open(dir, context);
    this.scrubber = options.scrub ? new Scrubber() : null;
    this.dedup = options.dedup ? new Deduplicator({ nearDuplicateThreshold: options.nearDuplicateThreshold }) : null;
  }

  get scrubReport() {
    return this.scrubber?.report ?? null;
  }

  /** Runs one sample through; returns a promise only when the tokenizer or the disk makes it wait. */
  add(input: DatasetSample, split: Split): SampleFate | Promise<SampleFate> {
    const sample = this.scrubber ? this.scrubber.scrub(input) : input;
    if (this.dedup) {
      const verdict = this.dedup.judge(sample);
      if (verdict === 'duplicate') {
        this.removed.duplicates++;
        return verdict;
      }
      if (verdict === 'near-duplicate') {
        this.removed.nearDuplicates++;
        return verdict;
      }
    }
    // A million samples through an async function cost a million promises; stay synchronous when nothing waits.
    const counted = sampleTokens(this.tokens, sample);
    return typeof counted === 'number' ? this.keep(sample, split, counted) : counted.then((tokens) => this.keep(sample, split, tokens));
  }

  private keep(sample: DatasetSample, split: Split, tokens: number): SampleFate | Promise<SampleFate> {
    if (this.options.maxTokens !== null && tokens > this.options.maxTokens) {
      this.removed.overLength++;
      return 'over-length';
    }
    this.stats.add(sample, split, tokens);
    const pending = this.writer.write(sample, split);
    return pending ? pending.then(() => 'written' as const) : 'written';
  }

  /** Closes the data files; returns their paths relative to the export folder. */
  finish(): Promise<string[]> {
    return this.writer.finish();
  }
}
