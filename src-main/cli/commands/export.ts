// `worldloom export`: a workspace to Worldloom JSONL (every trajectory, round-trips
// everything), or a selection of it to a fine-tuning dataset folder with a card.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXPORT_DEFAULTS, EXAMPLE_BUILDERS, EXAMPLE_UNITS } from '../../common/contract/dataset';
import { exportSummaryLines, UNREVIEWED_FILTER } from '../../common/export-summary';
import { EXPORT_FORMAT_IDS, exportPipeline, FORMATS } from '../../formats/registry';
import { FILTER_ERROR_PREFIX } from '../../service/dataset-handlers';
import { UserError } from '../../common/user-error';
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
  builder?: (typeof EXAMPLE_BUILDERS)[number];
  per?: (typeof EXAMPLE_UNITS)[number];
  reasoning?: boolean;
  reasoningStyle?: 'field' | 'inline';
  maxTokens?: number;
  includeCutOff?: boolean;
  name?: string;
  overwrite?: boolean;
  tokenizer?: string;
}

/** The dataset options a file export (every trajectory, one file) has no use for, by flag. */
function datasetOptionsGiven(o: ExportOptions): string[] {
  const flags: [string, unknown][] = [
    ['--filter', o.filter], ['--split', o.split], ['--seed', o.seed], ['--dedup', o.dedup], ['--near-duplicates', o.nearDuplicates],
    ['--scrub', o.scrub], ['--builder', o.builder], ['--per', o.per], ['--reasoning', o.reasoning], ['--reasoning-style', o.reasoningStyle],
    ['--max-tokens', o.maxTokens], ['--include-cut-off', o.includeCutOff], ['--name', o.name], ['--overwrite', o.overwrite], ['--tokenizer', o.tokenizer],
  ];
  return flags.filter(([, v]) => v !== undefined).map(([flag]) => flag);
}

/** The CLI help's list of export formats, read from the format registry. */
const formatHelp = FORMATS.filter((f) => f.fileWriter || f.datasetWriter)
  .map((f) => `${f.id} (${[f.fileWriter && `a .${f.extensions[0]} file`, f.datasetWriter && 'a dataset folder'].filter(Boolean).join(' or ')})`)
  .join(' | ');

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('export trajectories (jsonl), or a dataset for fine-tuning to a folder with a dataset card')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('-o, --out <path>', 'output file or dataset folder; a format that writes both writes a file when the path ends in its extension')
    .option('-f, --format <format>', formatHelp, oneOf(EXPORT_FORMAT_IDS), 'jsonl')
    .option('--filter <expr>', 'keep steps matching, e.g. "domain = terminal and rating >= 4 and not perturbed"')
    .option('--split <fraction>', `fraction of trajectories in train; the rest is validation (default ${EXPORT_DEFAULTS.split}: all in train)`, numberBetween(0.01, 1))
    .option('--seed <n>', 'seed of the train/validation split', wholeNumber(0, 2 ** 31 - 1))
    .option('--dedup', `remove exact and near-duplicate examples (the default${EXPORT_DEFAULTS.dedup ? '' : ' is to keep them'})`)
    .option('--no-dedup', 'keep duplicate examples')
    .option('--near-duplicates <similarity>', 'similarity counted as a near-duplicate (default 0.85)', numberBetween(0.5, 1))
    .option('--scrub', 'replace API keys, e-mail addresses and IPs (report in scrub-report.json)')
    .option('--builder <builder>', 'world-model | agent (tool calls) | preference (sibling pairs for DPO)', oneOf(EXAMPLE_BUILDERS))
    .option('--per <unit>', 'step | path (one example per step, or per path)', oneOf(EXAMPLE_UNITS))
    .option('--reasoning', "keep the world model's reasoning on the observations it learns")
    .option('--reasoning-style <style>', 'messages format: field (reasoning_content, TRL) | inline (<think>, ms-swift)', oneOf(['field', 'inline']))
    .option('--max-tokens <n>', 'leave out examples longer than this (counted with the tokenizer below)', wholeNumber(1, 10_000_000))
    .option('--tokenizer <dir>', "model folder whose tokenizer counts tokens exactly (default: the embedded model's)")
    .option('--include-cut-off', 'also export steps the model wrote until it ran out of tokens (left out by default)')
    .option('--name <name>', 'dataset name in the card and dataset_info.json (default: the folder name)')
    .option('--overwrite', 'replace an earlier export in the same folder')
    .action((opts: ExportOptions) =>
      withCore({ workspace: { path: opts.workspace } }, async (core) => {
        const jobId = 'cli-export';
        core.cancelOnInterrupt(jobId);
        if (exportPipeline(opts.format, opts.out) === 'file') {
          const unused = datasetOptionsGiven(opts);
          if (unused.length > 0) {
            throw new UserError(`${unused.join(', ')}: ${opts.format} to ${opts.out} writes every trajectory to one file; these options shape a dataset. Give --out a folder to export a dataset.`);
          }
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
            format: opts.format,
            selection: { filter: opts.filter ?? '', scope: { kind: 'all' } },
            examples: { builder: opts.builder, per: opts.per, reasoning: opts.reasoning },
            name: opts.name,
            split: opts.split,
            seed: opts.seed,
            // Left out, the export defaults apply (contract EXPORT_DEFAULTS), the same as the export dialog's.
            ...(opts.dedup === undefined ? {} : { dedup: opts.dedup }),
            nearDuplicateThreshold: opts.nearDuplicates,
            scrub: opts.scrub ?? false,
            maxTokens: opts.maxTokens ?? null,
            includeCutOff: opts.includeCutOff ?? false,
            reasoningStyle: opts.reasoningStyle,
            overwrite: opts.overwrite ?? false,
            ...(opts.tokenizer ? { tokenizer: resolve(opts.tokenizer) } : {}),
          });
          if (showProgress) process.stderr.write('\n');
          // What went out first, then anything to check; stdout stays one JSON object for scripts.
          for (const line of exportSummaryLines(summary)) process.stderr.write(`${line.replace(`the filter \`${UNREVIEWED_FILTER}\``, `--filter "${UNREVIEWED_FILTER}"`)}\n`);
          for (const warning of summary.warnings) process.stderr.write(`warning: ${warning}\n`);
          process.stdout.write(JSON.stringify(summary) + '\n');
        } catch (err) {
          // Say which option the column of a filter error refers to.
          if (err instanceof UserError && err.code === 'invalid-filter') throw new UserError(`--filter: ${err.message.replace(FILTER_ERROR_PREFIX, '')}`, err.code);
          // The core's refusals name the dialog's controls; here they are flags.
          if (err instanceof UserError && err.code === 'invalid-export' && opts.format === 'preference' && (opts.builder ?? 'world-model') !== 'preference') {
            throw new UserError(`--format preference writes chosen/rejected pairs: add --builder preference (pairs of sibling examples rated or starred against each other). ${err.message}`, err.code);
          }
          if (err instanceof UserError && err.code === 'invalid-export' && /holds an earlier export/.test(err.message)) {
            throw new UserError(`${opts.out} holds an earlier export. Choose another --out, or pass --overwrite to replace it.`, err.code);
          }
          throw err;
        }
      }),
    );
}
