// `worldloom import`: files into a workspace, problems reported by line.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { IMPORT_FORMAT_IDS } from '../../formats/registry';
import { describeNotes, describeProblems, describeSkipped } from '../../formats/import-trajectories';
import { withCore } from '../core';

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('import trajectory files into a workspace')
    .argument('<files...>', 'files to import')
    .requiredOption('-w, --workspace <file>', 'workspace file (created if missing)')
    .option('-f, --format <format>', `auto | ${IMPORT_FORMAT_IDS.join(' | ')} (default auto: detected from the file)`)
    .option('--prompt <prompt>', 'asciinema casts: the shell prompt as the screen shows it (e.g. "user@host ~> "), or a regular expression matched at the start of a line, when it cannot be learned from the session')
    .addOption(
      new Option('--chat-as <side>', 'chat datasets (messages, sharegpt, parquet): world-model = user turns are actions, assistant turns observations; agent = the reverse (default: guessed from the data)').choices([
        'world-model',
        'agent',
      ]),
    )
    .option('--max-mib <n>', 'most one file may decode to, in MiB: rows of a Parquet file, screens of a recording (default 256)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 64 * 1024) throw new InvalidArgumentError('a whole number of MiB from 1 to 65536');
      return n;
    })
    .option('--scrub', 'replace API keys, passwords, e-mail addresses and IPs in what comes in before anything is written (as export --scrub does)')
    .action((files: string[], opts: { workspace: string; format?: string; prompt?: string; chatAs?: 'world-model' | 'agent'; maxMib?: number; scrub?: boolean }) =>
      withCore({ workspace: { path: opts.workspace, create: true } }, async (core) => {
        const jobId = 'cli-import';
        core.cancelOnInterrupt(jobId);
        let failed = false;
        for (const file of files) {
          const [report] = await core.call('import.files', { paths: [file], format: opts.format, jobId, ...(opts.prompt ? { prompt: opts.prompt } : {}), ...(opts.chatAs ? { chatAs: opts.chatAs } : {}), ...(opts.maxMib ? { maxMiB: opts.maxMib } : {}), ...(opts.scrub ? { scrub: true } : {}) });
          for (const line of describeProblems(report!)) process.stderr.write(`${line}\n`);
          // What was left out on purpose is said too, so nothing is dropped without a word.
          for (const line of [...describeSkipped(report!), ...describeNotes(report!)]) process.stderr.write(`${line}\n`);
          const { format, imported, alreadyPresent, problems, skipped, scrubbed, continued } = report!;
          process.stdout.write(JSON.stringify({ file, format, imported, alreadyPresent, problems: problems.length, skipped: skipped.length, ...(scrubbed ? { scrubbed } : {}), ...(continued ? { continued } : {}) }) + '\n');
          if (imported === 0 && alreadyPresent === 0 && !continued && problems.length > 0) failed = true;
        }
        if (failed) process.exitCode = 1;
      }),
    );
}
