// `worldloom eval`: AgentWorldBench-compatible evaluation of a world model. The files and
// the printed summary follow the public evaluation script (QwenLM/Qwen-AgentWorld
// eval/eval.py); see evaluation/run-evaluation.ts for where Worldloom differs.
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { DEFAULT_JUDGE_MAX_TOKENS } from '../../common/contract/evaluation';
import { RESULT_FILES } from '../../evaluation/result-files';
import { publicScoreBlock, worldloomReport } from '../../evaluation/score-report';
import type { DeviceChoice } from '../../common/device';
import { withCore } from '../core';
import { cpuThreads, DEVICE_OPTION_HELP, deviceChoice, wholeNumber, THREADS_OPTION_HELP, CONCURRENCY_OPTION_HELP, concurrencyLimit, ADAPTER_OPTION_HELP } from '../option-parsers';
import { addSamplingOptions, samplingOverrides, type SamplingFlags } from '../sampling-options';

function eta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  return seconds < 90 ? ` · ETA ${Math.round(seconds)}s` : ` · ETA ${Math.round(seconds / 60)}m`;
}

export function registerEval(program: Command): void {
  const command = program
    .command('eval')
    .description('evaluate a world model on an AgentWorldBench directory (resumable; files as the public eval.py writes them)')
    .requiredOption('-d, --data <dir>', 'folder with <domain>_test.jsonl files')
    .option('-m, --model <dir|file.gguf|url>', 'model folder, .gguf file or OpenAI-compatible endpoint (default: the embedded model)')
    .option('--device <device>', DEVICE_OPTION_HELP, deviceChoice)
    .option('--threads <n>', THREADS_OPTION_HELP, cpuThreads)
    .option('--judge <url>', 'OpenAI-compatible judge endpoint (rubric scores); without it only rule-based metrics')
    .option('--judge-model <name>', 'judge model name on that endpoint')
    // Kept only to say why it is gone: the world model cannot grade (it failed every line unreadably).
    .addOption(
      new Option('--local-judge').hideHelp().argParser(() => {
        throw new Error(
          '--local-judge is no longer offered: the loaded world model predicts observations and cannot follow the judge rubric, so every line failed. ' +
            'Give a judge server with --judge URL (--judge-model NAME), or leave it out for rule-based metrics only.',
        );
      }),
    )
    .option('--judge-template <file>', 'judge prompt template (default: the rubric in resources/judge/rubric.md)')
    .option('--judge-prompts <dir>', 'per-domain judge system prompts: DIR/<domain>/judge_system_prompt.txt (e.g. the public repository\'s prompts/)')
    .option('--judge-max-tokens <n>', `longest judge reply in tokens, reasoning included (default ${DEFAULT_JUDGE_MAX_TOKENS}, as the public script allows)`, wholeNumber(1))
    .requiredOption('-o, --out <dir>', 'output folder (predictions.jsonl, judged.jsonl, scores.json)')
    .option('--adapter <file.gguf>', ADAPTER_OPTION_HELP)
    .option('-c, --concurrency <n>', `cases at once, and the requests the model takes at once: ${CONCURRENCY_OPTION_HELP}`, concurrencyLimit)
    .option('--limit <n>', 'evaluate only the first N cases', wholeNumber(1));
  // Prediction settings: unset ones are the model's recommendation, else the public script's 0.6 and 32768 tokens.
  addSamplingOptions(command).action(
      async (opts: SamplingFlags & {
        data: string;
        model?: string;
        device?: DeviceChoice;
        threads?: number;
        judge?: string;
        judgeModel?: string;
        judgeTemplate?: string;
        judgePrompts?: string;
        judgeMaxTokens?: number;
        out: string;
        concurrency?: number;
        adapter?: string;
        limit?: number;
      }) => {
        const judge = opts.judge
          ? ({ kind: 'openai', baseUrl: opts.judge, ...(opts.judgeModel ? { model: opts.judgeModel } : {}) } as const)
          : ({ kind: 'none' } as const);
        await withCore({ model: opts.model ?? null, device: opts.device, threads: opts.threads, concurrency: opts.concurrency, adapter: opts.adapter }, async (core) => {
          const jobId = 'cli-eval';
          core.cancelOnInterrupt(jobId, () => process.stderr.write('\nStopping after the cases in flight; run the same command again to resume.\n'));
          core.on('job.progress', (p) => {
            if (p.jobId === jobId && !p.finished && p.total !== null) process.stderr.write(`\r${p.label} ${p.done}/${p.total}${eta(p.etaSeconds ?? null)}   `);
          });
          const result = await core.call('eval.run', {
            jobId,
            dataDir: opts.data,
            outDir: opts.out,
            judge,
            judgeTemplate: opts.judgeTemplate,
            judgePrompts: opts.judgePrompts,
            judgeMaxTokens: opts.judgeMaxTokens,
            concurrency: opts.concurrency,
            limit: opts.limit,
            sampling: samplingOverrides(opts),
          });
          process.stderr.write('\n');
          for (const problem of result.problems) process.stderr.write(`skipped ${problem}\n`);
          if (!result.judged && result.summary.worldloom.unjudged > 0) {
            process.stderr.write(`No judge given (--judge URL): ${result.summary.worldloom.unjudged} cases are not judged; rule-based metrics need no judge.\n`);
          }
          process.stdout.write(`${publicScoreBlock(result.summary)}\n\n${worldloomReport(result.summary)}\n`);
          process.stdout.write(`\n${resolve(opts.out, RESULT_FILES.scores)}${result.interrupted ? ' (interrupted: run again to finish)' : ''}\n`);
        });
      },
    );
}
