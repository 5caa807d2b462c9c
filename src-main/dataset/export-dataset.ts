// Exporting a dataset: plan (which trajectories and how many examples), split by
// trajectory, stream every example through the pipeline into a temporary folder, write
// the card, then move the folder into place. A cancelled or failed export leaves
// nothing behind, and an existing folder is replaced only when it is an earlier export.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { DatasetExportOptions, DatasetExportSummary, DatasetFormat, DatasetPreview, DatasetSelection, ExampleOptions } from '../common/contract/dataset';
import type { TrajectoryBundle } from '../common/trajectory/model';
import { buildExamples, countExamples, type ResolvedExampleOptions } from './builders';
import { datasetCard } from './card/dataset-card';
import { FilterError } from './filter-expression';
import { splitTrajectories } from './hygiene/split';
import { approximateTokenCounter, type TokenCounter } from './hygiene/token-length';
import { DatasetExportError } from './export-errors';
import { ExamplePipeline } from './pipeline';
import { SPLITS, type Split } from './example';
import type { DatasetFormatSpec } from './writing/dataset-format';
import { compileSelection, exampleEnds, scopeTrajectoryIds, type CompiledSelection } from './selection';
import { isReviewed, MODEL_WRITTEN_ORIGINS } from './filter-fields';
import { partialTag, removeDeadPartials } from './partial-leftovers';

/** What an export reads: the workspace store, or anything else that yields bundles. */
export interface BundleSource {
  iterateBundles(ids?: readonly string[]): Iterable<TrajectoryBundle>;
}

export interface ExportRun {
  signal?: AbortSignal;
  onProgress?: (progress: { label: string; done: number; total: number | null }) => void;
  tokenCounter?: TokenCounter;
}

export { DatasetExportError };
export class ExportCancelledError extends Error {
  constructor() {
    super('The export was cancelled; nothing was written.');
  }
}

const CARD_MARKER = 'Exported by Worldloom';

export function resolveExampleOptions(format: DatasetFormat | null, partial: Partial<ExampleOptions>): ResolvedExampleOptions {
  return {
    builder: partial.builder ?? 'world-model',
    // AgentWorldBench lines describe whole paths; a per-step file would repeat every prefix.
    // Preference pairs are two answers to one prompt: always one step.
    per: partial.per ?? (format === 'agentworldbench' ? 'path' : 'step'),
    // AgentWorldBench lines have no place for reasoning.
    reasoning: format === 'agentworldbench' ? false : (partial.reasoning ?? false),
  };
}

/** Refuses options the chosen format cannot hold, saying what to choose instead. */
function checkExampleOptions(format: DatasetFormatSpec, options: ResolvedExampleOptions): void {
  if (options.builder === 'preference' && options.per === 'path') {
    throw new DatasetExportError('Preference pairs are two answers to the same step; export them one example per step.');
  }
  const refused = format.refuses(options);
  if (refused) throw new DatasetExportError(refused);
}

/** Warnings the card and the summary carry: an empty split the user asked for. */
function splitWarnings(options: DatasetExportOptions, counts: Record<Split, { examples: number; trajectories: number }>): string[] {
  if (options.split >= 1) return [];
  const warnings: string[] = [];
  for (const split of SPLITS) {
    if (counts[split].examples > 0) continue;
    const held = counts.train.trajectories + counts.validation.trajectories;
    warnings.push(
      `The ${split} split is empty: a ${Math.round(options.split * 100)}/${Math.round((1 - options.split) * 100)} split is made by trajectory, and ` +
        (held < 2 ? `the examples come from ${held} trajectory, which cannot be split. Select more trajectories for a ${split} split.` : `every example of the ${split} trajectories was removed (duplicates or over the length limit).`),
    );
  }
  return warnings;
}

/** The live count and first examples the export dialog shows. A bad filter is reported, not thrown. */
export function previewDataset(source: BundleSource, selection: DatasetSelection, partial: Partial<ExampleOptions>, limit: number): DatasetPreview {
  let compiled: CompiledSelection;
  try {
    compiled = compileSelection(selection);
  } catch (err) {
    if (err instanceof FilterError) return { filterError: { message: err.message, column: err.column }, trajectories: 0, examples: 0, first: [] };
    throw err;
  }
  const options = resolveExampleOptions(null, partial);
  const composition = { real: 0, edited: 0, simulatedReviewed: 0, simulatedUnreviewed: 0 };
  const preview: DatasetPreview = { filterError: null, trajectories: 0, examples: 0, first: [], ...(options.builder === 'preference' ? {} : { composition }) };
  for (const bundle of source.iterateBundles(scopeTrajectoryIds(selection.scope))) {
    const ends = exampleEnds(bundle, compiled, options.per);
    const count = countExamples(bundle, ends, options);
    if (count === 0) continue;
    preview.trajectories++;
    preview.examples += count;
    // Counted as the export's card counts them (dataset-stats.ts): by the step an example ends on.
    for (const end of ends) {
      if (end.origin === 'edited') composition.edited++;
      else if (!MODEL_WRITTEN_ORIGINS.has(end.origin)) composition.real++;
      else if (isReviewed(end)) composition.simulatedReviewed++;
      else composition.simulatedUnreviewed++;
    }
    const room = limit - preview.first.length;
    if (room > 0) {
      try {
        for (const s of buildExamples(bundle, ends, options).slice(0, room)) preview.first.push({ id: s.id, title: s.title, messages: [...s.messages, ...(s.rejected?.messages ?? [])] });
      } catch (err) {
        // The export says why such examples are refused; the preview still counts them.
        if (!(err instanceof DatasetExportError)) throw err;
      }
    }
  }
  return preview;
}

const yieldToEventLoop = () => new Promise<void>((ok) => setImmediate(ok));

/**
 * Writes the dataset `options` describe with `format`, the writer the format registry holds
 * for `options.format` (the caller looks it up: dataset/ sits below formats/).
 */
export async function exportDataset(source: BundleSource, format: DatasetFormatSpec, options: DatasetExportOptions, run: ExportRun = {}): Promise<DatasetExportSummary> {
  const out = resolve(options.out);
  const exampleOptions = resolveExampleOptions(options.format, options.examples);
  checkExampleOptions(format, exampleOptions);
  const selection = compileSelection(options.selection);
  const tokenCounter = run.tokenCounter ?? approximateTokenCounter;
  checkDestination(out, options.overwrite);

  let lastBeat = performance.now();
  const beat = (label: string, done: number, total: number | null): Promise<void> | undefined => {
    if (run.signal?.aborted) throw new ExportCancelledError();
    if (performance.now() - lastBeat < 50) return;
    lastBeat = performance.now();
    run.onProgress?.({ label, done, total });
    // Long exports give the event loop room, so progress is sent and a cancel arrives.
    return yieldToEventLoop();
  };

  // Pass 1: which trajectories hold examples, so the split and the progress total are known up front.
  const planned: { id: string; examples: number }[] = [];
  let total = 0;
  for (const bundle of source.iterateBundles(scopeTrajectoryIds(options.selection.scope))) {
    const count = countExamples(bundle, exampleEnds(bundle, selection, exampleOptions.per, options.includeCutOff), exampleOptions);
    if (count > 0) {
      planned.push({ id: bundle.trajectory.id, examples: count });
      total += count;
    }
    await beat('Choosing examples', planned.length, null);
  }
  if (total === 0 && exampleOptions.builder === 'preference') {
    throw new DatasetExportError(
      'The selection holds no preference pairs: rate two samples of the same action differently, or star one of them, then export again.',
    );
  }
  if (total === 0) {
    throw new DatasetExportError(
      options.includeCutOff
        ? 'The selection holds no examples. Loosen the filter or choose other trajectories.'
        : 'The selection holds no examples (steps that ran out of tokens are left out unless you include them). Loosen the filter, choose other trajectories, or include cut-off steps.',
    );
  }
  const splits = splitTrajectories(planned.map((p) => p.id), options.split, options.seed);

  mkdirSync(dirname(out), { recursive: true });
  // What an export killed here before left behind (kill -9 skips every cleanup).
  removeDeadPartials(out);
  const tmp = await mkdtemp(`${out}.partial-${partialTag()}-`);
  try {
    // mkdtemp makes a private (0700) folder; the export is an ordinary folder under the user's umask.
    chmodSync(tmp, 0o777 & ~process.umask());
    const name = options.name ?? datasetName(out);
    const pipeline = new ExamplePipeline(format, tmp, { name, reasoning: exampleOptions.reasoning, reasoningStyle: options.reasoningStyle, exampleOptions }, options, tokenCounter);
    let done = 0;
    for (const bundle of source.iterateBundles(planned.map((p) => p.id))) {
      const split = splits.get(bundle.trajectory.id)!;
      for (const example of buildExamples(bundle, exampleEnds(bundle, selection, exampleOptions.per, options.includeCutOff), exampleOptions)) {
        const added = pipeline.add(example, split);
        if (typeof added !== 'string') await added;
        done++;
        const paused = beat('Writing examples', done, total);
        if (paused) await paused;
      }
    }
    if (run.signal?.aborted) throw new ExportCancelledError();
    const files = await pipeline.finish();
    const present = SPLITS.filter((s) => pipeline.stats.splits[s].examples > 0);
    const splitCounts = (split: Split) => ({ examples: pipeline.stats.splits[split].examples, trajectories: pipeline.stats.splits[split].trajectories.size });
    const warnings = splitWarnings(options, { train: splitCounts('train'), validation: splitCounts('validation') });
    const card = datasetCard({
      warnings,
      name,
      format,
      options,
      exampleOptions,
      stats: pipeline.stats,
      splits: present,
      removed: pipeline.removed,
      scrub: pipeline.scrubReport,
      tokenizer: tokenCounter,
      exportedAt: new Date().toISOString(),
    });
    writeFileSync(join(tmp, 'README.md'), card.readme);
    files.push('README.md');
    for (const [path, svg] of Object.entries(card.images)) {
      mkdirSync(dirname(join(tmp, path)), { recursive: true });
      writeFileSync(join(tmp, path), svg);
      files.push(path);
    }
    if (pipeline.scrubReport) {
      writeFileSync(join(tmp, 'scrub-report.json'), JSON.stringify(pipeline.scrubReport, null, 2) + '\n');
      files.push('scrub-report.json');
    }
    if (existsSync(out)) rmSync(out, { recursive: true, force: true });
    renameSync(tmp, out);
    run.onProgress?.({ label: 'Exported', done, total });
    const count = (pick: (s: (typeof pipeline.stats.splits)['train']) => number) => ({
      train: pick(pipeline.stats.splits.train),
      validation: pick(pipeline.stats.splits.validation),
    });
    return {
      out,
      format: options.format,
      files,
      examples: count((s) => s.examples),
      trajectories: count((s) => s.trajectories.size),
      removed: pipeline.removed,
      composition: { ...pipeline.stats.composition },
      split: options.split,
      dedup: options.dedup,
      scrubbed: pipeline.scrubReport ? { ...pipeline.scrubReport.counts } : {},
      tokenizer: { label: tokenCounter.label, exact: tokenCounter.exact },
      warnings,
    };
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** Refuses to write over anything but an empty folder or, when asked, an earlier Worldloom export. */
function checkDestination(out: string, overwrite: boolean): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new DatasetExportError(`${out} is a file. Exports are folders; choose a folder path.`);
  if (readdirSync(out).length === 0) return;
  const readme = join(out, 'README.md');
  const earlierExport = existsSync(readme) && readFileSync(readme, 'utf8').includes(CARD_MARKER);
  if (!earlierExport) throw new DatasetExportError(`${out} is not empty and is not an earlier Worldloom export. Choose an empty or new folder.`);
  if (!overwrite) throw new DatasetExportError(`${out} holds an earlier export. Choose another folder, or allow overwriting it.`);
}

function datasetName(out: string): string {
  const name = basename(out).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return name.slice(0, 100) || 'worldloom-dataset';
}
