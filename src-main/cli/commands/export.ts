// `worldloom export`: a workspace to Worldloom JSONL (every trajectory, round-trips
// everything), or a selection of it to a fine-tuning dataset folder with a card.
import type { Command } from 'commander';
import { DATASET_FORMATS, SAMPLE_BUILDERS, SAMPLE_UNITS, type DatasetFormat } from '../../contract/dataset';
import { FILTER_ERROR_PREFIX } from '../../service/dataset-handlers';
import { UserError } from '../../service/user-error';
import { withCore } from '../core';
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
    .action((opts: ExportOptions) =>
      withCore({ workspace: { path: opts.workspace } }, async (core) => {
        const jobId = 'cli-export';
        core.cancelOnInterrupt(jobId);
        if (isFileExport(opts)) {
          const { path, trajectories, records } = await core.call('export.file', { path: opts.out, format: opts.format, jobId });
          process.stdout.write(JSON.stringify({ out: path, format: opts.format, trajectories, records }) + '\n');
          return;
        }
        const showProgress = process.stderr.isTTY;
        core.on('job.progress', (p) => {
          if (showProgress && p.jobId === jobId && !p.finished) process.stderr.write(`\r${p.label}: ${p.done}${p.total === null ? '' : ` / ${p.total}`}   `);
        });
        try {
          const summary = await core.call('dataset.export', {
            jobId,
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
          if (showProgress) process.stderr.write('\n');
          process.stdout.write(JSON.stringify(summary) + '\n');
        } catch (err) {
          // Say which option the column of a filter error refers to.
          if (err instanceof UserError && err.code === 'invalid-filter') throw new UserError(`--filter: ${err.message.replace(FILTER_ERROR_PREFIX, '')}`, err.code);
          throw err;
        }
      }),
    );
}
