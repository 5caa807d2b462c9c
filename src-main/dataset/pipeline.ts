// The stage every exported example passes through, in this order: scrub (so duplicates
// are judged on what will be written), de-duplicate, count tokens and drop over-long
// examples, gather card statistics, write. The export job and the benchmark share it.
import type { DatasetFormatSpec, WriteContext } from './writing/dataset-format';
import { DatasetStats } from './card/dataset-stats';
import { Deduplicator } from './hygiene/dedup';
import { Scrubber } from './hygiene/scrub';
import { exampleTokens, type TokenCounter } from './hygiene/token-length';
import type { DatasetExample, Split } from './example';

export interface PipelineOptions {
  dedup: boolean;
  nearDuplicateThreshold: number;
  scrub: boolean;
  maxTokens: number | null;
}

export type ExampleFate = 'written' | 'duplicate' | 'near-duplicate' | 'over-length';

export class ExamplePipeline {
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

  /** Runs one example through; returns a promise only when the tokenizer or the disk makes it wait. */
  add(input: DatasetExample, split: Split): ExampleFate | Promise<ExampleFate> {
    const example = this.scrubber ? this.scrubber.scrub(input) : input;
    if (this.dedup) {
      const verdict = this.dedup.judge(example);
      if (verdict === 'duplicate') {
        this.removed.duplicates++;
        return verdict;
      }
      if (verdict === 'near-duplicate') {
        this.removed.nearDuplicates++;
        return verdict;
      }
    }
    // A million examples through an async function cost a million promises; stay synchronous when nothing waits.
    const counted = exampleTokens(this.tokens, example);
    return typeof counted === 'number' ? this.keep(example, split, counted) : counted.then((tokens) => this.keep(example, split, tokens));
  }

  private keep(example: DatasetExample, split: Split, tokens: number): ExampleFate | Promise<ExampleFate> {
    if (this.options.maxTokens !== null && tokens > this.options.maxTokens) {
      this.removed.overLength++;
      return 'over-length';
    }
    this.stats.add(example, split, tokens);
    const pending = this.writer.write(example, split);
    return pending ? pending.then(() => 'written' as const) : 'written';
  }

  /** Closes the data files; returns their paths relative to the export folder. */
  finish(): Promise<string[]> {
    return this.writer.finish();
  }
}
