// `worldloom simulate`: predict the observation of an action at a node, K samples.
import type { Command } from 'commander';
import type { DeviceChoice } from '../../common/device';
import { withCore } from '../core';
import { cpuThreads, DEVICE_OPTION_HELP, deviceChoice, wholeNumber, THREADS_OPTION_HELP, CONCURRENCY_OPTION_HELP, concurrencyLimit, ADAPTER_OPTION_HELP } from '../option-parsers';
import { addSamplingOptions, incompleteReport, samplingOverrides, type SamplingFlags } from '../sampling-options';

export function registerSimulate(program: Command): void {
  const command = program
    .command('simulate')
    .description('simulate an action at a node; prints the predicted observations with their node ids as JSON (a seed already simulated here is reused) (exits 1 when a sample ran out of tokens)')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('-n, --node <id>', 'node to act from')
    .requiredOption('-a, --action <text>', 'the action to simulate')
    .option('-k, --samples <k>', 'samples, run as one batch (default 1)', wholeNumber(1, 64))
    .option('-m, --model <dir|file.gguf|url>', 'model folder, .gguf file or OpenAI-compatible endpoint (default: the embedded model)')
    .option('--device <device>', DEVICE_OPTION_HELP, deviceChoice)
    .option('--threads <n>', THREADS_OPTION_HELP, cpuThreads)
    .option('--adapter <file.gguf>', ADAPTER_OPTION_HELP)
    .option('--concurrency <n>', CONCURRENCY_OPTION_HELP, concurrencyLimit);
  addSamplingOptions(command).action(
    (opts: SamplingFlags & { workspace: string; node: string; action: string; samples?: number; model?: string; device?: DeviceChoice; threads?: number; concurrency?: number; adapter?: string }) =>
      withCore({ workspace: { path: opts.workspace }, model: opts.model ?? null, device: opts.device, threads: opts.threads, concurrency: opts.concurrency, adapter: opts.adapter }, async (core) => {
        const jobId = 'cli-simulate';
        core.cancelOnInterrupt(jobId);
        const result = await core.call('simulate.run', { jobId, nodeId: opts.node, action: opts.action, samples: opts.samples, sampling: samplingOverrides(opts) });
        const incomplete = result.incomplete.map(({ sample, seed, reason, message, completionTokens }) => ({ sample, seed, reason, message, completionTokens }));
        // The predictions themselves, with the ids a next command (or the studio's node panel) needs.
        const samples = result.nodes.map((n) => ({
          id: n.id,
          trajectoryId: n.trajectoryId,
          parentId: n.parentId,
          seed: n.provenance.seed,
          action: n.action,
          observation: n.observation,
        }));
        process.stdout.write(
          JSON.stringify({ nodes: result.nodes.map((n) => n.id), samples, reused: result.reused ?? [], incomplete, cancelled: result.cancelled }, null, 2) + '\n',
        );
        if (result.incomplete.length > 0) {
          const { maxTokensLimit } = await core.call('sampling.get', {});
          process.stderr.write(`worldloom: ${incompleteReport(result.incomplete, maxTokensLimit)}\n`);
          process.exitCode = 1;
        }
      }),
  );
}
