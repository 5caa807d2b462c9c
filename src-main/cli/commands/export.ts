// `worldloom export`: a workspace to Worldloom JSONL (every trajectory, round-trips
// everything), or a selection of it to a fine-tuning dataset folder with a card.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { DATASET_FORMATS, DatasetExportInput, SAMPLE_BUILDERS, SAMPLE_UNITS, type DatasetFormat } from '../../contract/dataset';
import { exportDataset } from '../../dataset/export-dataset';
import { FilterError } from '../../dataset/filter-expression';
import { exportToFile } from '../../service/export-file';
import { WorkspaceStore } from '../../store/workspace-store';
import { numberBetween, oneOf, wholeNumber } from '../option-parsers';

interface ExportOptions {
  workspace: string;
  out: string;
  format: string;
  filter?: string;
  split?: number;
  seed?: number;
  dedup?: boolean;
  nearDuplicates?: number;
  scrub?: boolean;
  builder?: (typeof SAMPLE_BUILDERS)[number];
  per?: (typeof SAMPLE_UNITS)[number];
  reasoning?: boolean;
  reasoningStyle?: 'field' | 'inline';
  maxTokens?: number;
  includeCutOff?: boolean;
  name?: string;
  overwrite?: boolean;
}

/** Whole-workspace file exports as before: Worldloom JSONL, or AgentWorldBench to one .jsonl file with no dataset options. */
function isFileExport(o: ExportOptions): boolean {
  if (o.format === 'jsonl') return true;
  const datasetOptions = [o.filter, o.split, o.seed, o.dedup, o.scrub, o.builder, o.per, o.reasoning, o.maxTokens, o.name, o.overwrite];
  return o.format === 'agentworldbench' && o.out.endsWith('.jsonl') && datasetOptions.every((v) => v === undefined);
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('export trajectories (jsonl), or a dataset for fine-tuning to a folder with a dataset card')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('-o, --out <path>', 'output file (jsonl) or folder (dataset formats)')
    .option('-f, --format <format>', `jsonl | ${DATASET_FORMATS.join(' | ')}`, oneOf(['jsonl', ...DATASET_FORMATS]), 'jsonl')
    .option('--filter <expr>', 'keep steps matching, e.g. "domain = terminal and rating >= 4 and not perturbed"')
    .option('--split <fraction>', 'fraction of trajectories in train; the rest is validation', numberBetween(0.01, 1))
    .option('--seed <n>', 'seed of the train/validation split', wholeNumber(0, 2 ** 31 - 1))
    .option('--dedup', 'remove exact and near-duplicate samples')
    .option('--near-duplicates <similarity>', 'similarity counted as a near-duplicate (default 0.85)', numberBetween(0.5, 1))
    .option('--scrub', 'replace API keys, e-mail addresses and IPs (report in scrub-report.json)')
    .option('--builder <builder>', 'world-model | agent', oneOf(SAMPLE_BUILDERS))
    .option('--per <unit>', 'step | path (one sample per step, or per path)', oneOf(SAMPLE_UNITS))
    .option('--reasoning', "keep the world model's reasoning on the observations it learns")
    .option('--reasoning-style <style>', 'messages format: field (reasoning_content, TRL) | inline (<think>, ms-swift)', oneOf(['field', 'inline']))
    .option('--max-tokens <n>', 'leave out samples longer than this', wholeNumber(1, 10_000_000))
    .option('--include-cut-off', 'also export steps the model wrote until it ran out of tokens (left out by default)')
    .option('--name <name>', 'dataset name in the card and dataset_info.json (default: the folder name)')
    .option('--overwrite', 'replace an earlier export in the same folder')
    .action(async (opts: ExportOptions) => {
      const store = WorkspaceStore.open(resolve(opts.workspace));
      try {
        if (isFileExport(opts)) {
          const counts = await exportToFile(store, resolve(opts.out), opts.format);
          process.stdout.write(JSON.stringify({ out: resolve(opts.out), format: opts.format, ...counts }) + '\n');
          return;
        }
        const input = DatasetExportInput.parse({
          out: opts.out,
          format: opts.format as DatasetFormat,
          selection: { filter: opts.filter ?? '', scope: { kind: 'all' } },
          samples: { builder: opts.builder, per: opts.per, reasoning: opts.reasoning },
          name: opts.name,
          split: opts.split,
          seed: opts.seed,
          dedup: opts.dedup ?? false,
          nearDuplicateThreshold: opts.nearDuplicates,
          scrub: opts.scrub ?? false,
          maxTokens: opts.maxTokens ?? null,
          includeCutOff: opts.includeCutOff ?? false,
          reasoningStyle: opts.reasoningStyle,
          overwrite: opts.overwrite ?? false,
        });
        const showProgress = process.stderr.isTTY;
        const summary = await exportDataset(store, input, {
          onProgress: showProgress ? (p) => process.stderr.write(`\r${p.label}: ${p.done}${p.total === null ? '' : ` / ${p.total}`}   `) : undefined,
        });
        if (showProgress) process.stderr.write('\n');
        process.stdout.write(JSON.stringify(summary) + '\n');
      } catch (err) {
        // Say which option the column of a filter error refers to.
        if (err instanceof FilterError) throw new Error(`--filter: ${err.message}`);
        throw err;
      } finally {
        store.close();
      }
    });
}
