// `worldloom replay`: simulate every step of a recorded real trajectory from its real
// history, store the predictions beside the real steps, and print the metrics as JSON.
import type { Command } from 'commander';
import type { DeviceChoice } from '../../common/device';
import { withCore } from '../core';
import { cpuThreads, DEVICE_OPTION_HELP, deviceChoice, THREADS_OPTION_HELP } from '../option-parsers';
import { addSamplingOptions, incompleteReport, samplingOverrides, type SamplingFlags } from '../sampling-options';

export function registerReplay(program: Command): void {
  const command = program
    .command('replay')
    .description('replay a recorded real trajectory through the world model; prints per-step metrics as JSON')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('--trajectory <id>', 'the recorded trajectory')
    .option('-m, --model <dir|file.gguf|url>', 'model folder, .gguf file or OpenAI-compatible endpoint (default: the embedded model)')
    .option('--device <device>', DEVICE_OPTION_HELP, deviceChoice)
    .option('--threads <n>', THREADS_OPTION_HELP, cpuThreads)
    .option('--report <file>', 'also write the report (.html, else JSON)');
  addSamplingOptions(command).action((opts: SamplingFlags & { workspace: string; trajectory: string; model?: string; device?: DeviceChoice; threads?: number; report?: string }) =>
    withCore({ workspace: { path: opts.workspace }, model: opts.model ?? null, device: opts.device, threads: opts.threads }, async (core) => {
      const jobId = 'cli-replay';
      core.cancelOnInterrupt(jobId);
      core.on('job.progress', (p) => {
        if (p.jobId === jobId && !p.finished && p.total !== null) process.stderr.write(`[${p.done}/${p.total}] ${p.label}\n`);
      });
      const result = await core.call('reality.replay', { jobId, trajectoryId: opts.trajectory, sampling: samplingOverrides(opts) });
      if (opts.report) {
        await core.call('reality.exportReport', { path: opts.report, format: /\.html?$/i.test(opts.report) ? 'html' : 'json', trajectoryIds: [opts.trajectory] });
      }
      const { steps, ...summary } = result.comparison;
      process.stdout.write(
        JSON.stringify({
          ...summary,
          cancelled: result.cancelled,
          simulatedNodes: result.nodes.map((n) => n.id),
          incomplete: result.incomplete.map(({ step, realNodeId, message, completionTokens }) => ({ step, realNodeId, message, completionTokens })),
          steps: steps.map(({ depth, action, realNodeId, simulatedNodeId, metrics, diverged }) => ({ depth, action, realNodeId, simulatedNodeId, diverged, metrics })),
        }) + '\n',
      );
      if (result.incomplete.length > 0) {
        const { maxTokensLimit } = await core.call('sampling.get', {});
        for (const cut of result.incomplete) process.stderr.write(`worldloom: step ${cut.step}, ${incompleteReport([cut], maxTokensLimit)}\n`);
        process.exitCode = 1;
      }
    }),
  );
}
