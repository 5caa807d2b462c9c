// `worldloom perturb`: one perturbation (or a comma-separated sweep) of a step.
import type { Command } from 'commander';
import type { DeviceChoice } from '../../common/device';
import { withCore } from '../core';
import { cpuThreads, DEVICE_OPTION_HELP, deviceChoice, oneOf, wholeNumber, THREADS_OPTION_HELP, CONCURRENCY_OPTION_HELP, concurrencyLimit, ADAPTER_OPTION_HELP } from '../option-parsers';
import { addSamplingOptions, incompleteReport, samplingOverrides, type SamplingFlags } from '../sampling-options';

export function registerPerturb(program: Command): void {
  const command = program
    .command('perturb')
    .description('perturb a step (one sibling per kind); prints the new node ids as JSON')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('-n, --node <id>', 'the step to perturb')
    .requiredOption('-k, --kind <ids>', 'perturbation kind id(s), comma-separated for a sweep (e.g. terminal.disk-full)')
    .option('--mode <mode>', 'instruction | transform (default transform)', oneOf(['instruction', 'transform'] as const))
    .option('--params <json>', 'parameters as a JSON object (for a single kind)')
    .option('-s, --seed <n>', 'seed (default 0)', wholeNumber(0, 2 ** 31 - 1))
    .option('-m, --model <dir|url>', 'model for instruction mode (default: the embedded model)')
    .option('--device <device>', DEVICE_OPTION_HELP, deviceChoice)
    .option('--threads <n>', THREADS_OPTION_HELP, cpuThreads)
    .option('--adapter <file.gguf>', ADAPTER_OPTION_HELP)
    .option('--concurrency <n>', CONCURRENCY_OPTION_HELP, concurrencyLimit);
  // The generation options shape instruction mode only; --seed is the sweep's own.
  addSamplingOptions(command, { seed: false }).action(
    async (opts: Omit<SamplingFlags, 'seed'> & { workspace: string; node: string; kind: string; mode?: 'instruction' | 'transform'; params?: string; seed?: number; model?: string; device?: DeviceChoice; threads?: number; concurrency?: number; adapter?: string }) => {
      const kindIds = opts.kind.split(',').map((k) => k.trim()).filter(Boolean);
      let params: Record<string, unknown> | undefined;
      if (opts.params) {
        try {
          params = JSON.parse(opts.params) as Record<string, unknown>;
        } catch (err) {
          throw new Error(`--params is not valid JSON (${(err as Error).message}); write e.g. --params '{"path":"/data"}'.`);
        }
      }
      // Transform mode needs no model; only instruction mode loads one.
      await withCore({ workspace: { path: opts.workspace }, model: opts.mode === 'instruction' ? (opts.model ?? null) : undefined, device: opts.device, threads: opts.threads, concurrency: opts.concurrency, adapter: opts.adapter }, async (core) => {
        const jobId = 'cli-perturb';
        core.cancelOnInterrupt(jobId);
        const result = await core.call('perturb.run', {
          jobId,
          nodeId: opts.node,
          mode: opts.mode,
          kinds: kindIds.map((kindId) => ({ kindId, ...(params ? { params } : {}) })),
          seed: opts.seed,
          sampling: samplingOverrides({ ...opts, seed: undefined }),
        });
        process.stdout.write(JSON.stringify({ nodes: result.nodes.map((n) => n.id), incomplete: result.incomplete.map((s) => s.message) }) + '\n');
        if (result.incomplete.length > 0) {
          const { maxTokensLimit } = await core.call('sampling.get', {});
          process.stderr.write(`worldloom: ${incompleteReport(result.incomplete, maxTokensLimit)}\n`);
          process.exitCode = 1;
        }
      });
    },
  );
}
