// `worldloom resample`: several simulated steps simulated again at once, each from its own
// parent with its own action, as many in flight as the model takes; prints the new samples as JSON.
import type { Command } from 'commander';
import type { DeviceChoice } from '../../common/device';
import { withCore } from '../core';
import { CONCURRENCY_OPTION_HELP, concurrencyLimit, cpuThreads, DEVICE_OPTION_HELP, deviceChoice, THREADS_OPTION_HELP, wholeNumber, ADAPTER_OPTION_HELP } from '../option-parsers';
import { addSamplingOptions, incompleteReport, samplingOverrides, type SamplingFlags } from '../sampling-options';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerResample(program: Command): void {
  const command = program
    .command('resample')
    .description('simulate several steps again at once, each from its own parent (new sibling samples); prints them as JSON')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('-n, --node <id>', 'a step to resample (repeat for more)', collect)
    .option('-k, --samples <k>', 'samples of each step (default 1)', wholeNumber(1, 64))
    .option('-m, --model <dir|file.gguf|url>', 'model folder, .gguf file or OpenAI-compatible endpoint (default: the embedded model)')
    .option('--device <device>', DEVICE_OPTION_HELP, deviceChoice)
    .option('--threads <n>', THREADS_OPTION_HELP, cpuThreads)
    .option('--adapter <file.gguf>', ADAPTER_OPTION_HELP)
    .option('--concurrency <n>', CONCURRENCY_OPTION_HELP, concurrencyLimit);
  addSamplingOptions(command).action(
    (opts: SamplingFlags & { workspace: string; node: string[]; samples?: number; model?: string; device?: DeviceChoice; threads?: number; concurrency?: number; adapter?: string }) =>
      withCore({ workspace: { path: opts.workspace }, model: opts.model ?? null, device: opts.device, threads: opts.threads, concurrency: opts.concurrency, adapter: opts.adapter }, async (core) => {
        const jobId = 'cli-resample';
        core.cancelOnInterrupt(jobId);
        core.on('job.progress', (p) => {
          if (p.jobId === jobId && !p.finished && p.steps) process.stderr.write(`${p.label}\n`);
        });
        const result = await core.call('simulate.resample', { jobId, nodeIds: opts.node, samples: opts.samples, sampling: samplingOverrides(opts) });
        const samples = result.nodes.map((n) => ({ id: n.id, parentId: n.parentId, seed: n.provenance.seed, action: n.action, observation: n.observation }));
        process.stdout.write(JSON.stringify({ seed: result.seed, samples, failures: result.failures, cancelled: result.cancelled }, null, 2) + '\n');
        for (const failure of result.failures) process.stderr.write(`worldloom: ${failure.step} failed: ${failure.message}\n`);
        if (result.incomplete.length > 0) {
          const { maxTokensLimit } = await core.call('sampling.get', {});
          process.stderr.write(`worldloom: ${incompleteReport(result.incomplete, maxTokensLimit)}\n`);
        }
        if (result.incomplete.length > 0 || result.failures.length > 0) process.exitCode = 1;
      }),
  );
}
