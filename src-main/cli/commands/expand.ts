// `worldloom expand`: a policy expands a node breadth-first (K actions × M samples, D levels)
// within a budget; prints the new node ids and why it stopped, as JSON.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { ApiInput } from '../../common/contract/api';
import { UserError } from '../../common/user-error';
import type { DeviceChoice } from '../../common/device';
import { withCore } from '../core';
import { cpuThreads, DEVICE_OPTION_HELP, deviceChoice, numberBetween, wholeNumber, THREADS_OPTION_HELP, CONCURRENCY_OPTION_HELP, concurrencyLimit, ADAPTER_OPTION_HELP } from '../option-parsers';
import { addSamplingOptions, samplingOverrides, type SamplingFlags } from '../sampling-options';

interface ExpandFlags extends SamplingFlags {
  workspace: string;
  node: string;
  policy?: string;
  policyTemperature?: number;
  policyMaxTokens?: number;
  script?: string;
  actions?: number;
  samples?: number;
  depth?: number;
  tokenBudget?: number;
  timeBudget?: number;
  model?: string;
  device?: DeviceChoice;
  threads?: number;
  concurrency?: number;
  adapter?: string;
}

/** The policy as the contract takes it (what is left out gets the contract's defaults). */
function policyOf(opts: ExpandFlags): ApiInput<'agents.expand'>['policy'] {
  if ((opts.policy === undefined) === (opts.script === undefined)) throw new UserError('Give one policy: --policy URL[#model] (an OpenAI-compatible chat model) or --script FILE (candidate actions).', 'invalid');
  if (opts.script) {
    // The script is read as text: its actions are proposed to the world model, never run.
    return { kind: 'script', text: readFileSync(opts.script, 'utf8'), name: basename(opts.script) };
  }
  const [baseUrl, model] = opts.policy!.split('#', 2) as [string, string | undefined];
  return {
    kind: 'openai',
    baseUrl,
    ...(model ? { model } : {}),
    ...(opts.policyTemperature !== undefined ? { temperature: opts.policyTemperature } : {}),
    ...(opts.policyMaxTokens !== undefined ? { maxTokens: opts.policyMaxTokens } : {}),
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
  };
}

export function registerExpand(program: Command): void {
  const command = program
    .command('expand')
    .description('let a policy expand a node: K actions per node, M samples each, D levels deep, breadth-first within a budget; prints the new node ids as JSON')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('-n, --node <id>', 'node to expand')
    .option('--policy <url[#model]>', 'an OpenAI-compatible chat model that proposes actions (key: $WORLDLOOM_POLICY_API_KEY)')
    .option('--policy-temperature <t>', 'the policy model\'s temperature (default 0.8)', numberBetween(0, 2))
    .option('--policy-max-tokens <n>', 'new tokens per proposed action (default 1024)', wholeNumber(1, 65_536))
    .option('--script <file>', 'a file of candidate actions (JSON list, list of lists per level, or one per line); read as text, never run')
    .option('-k, --actions <k>', 'actions the policy proposes at each node (default 2)', wholeNumber(1, 16))
    .option('--samples <m>', 'samples the world model simulates of each action (default 1)', wholeNumber(1, 16))
    .option('-d, --depth <d>', 'levels below the node (default 2)', wholeNumber(1, 8))
    .option('--token-budget <n>', 'stop after this many new tokens (world model and policy)', wholeNumber(1))
    .option('--time-budget <seconds>', 'stop after this many seconds', numberBetween(1, 7 * 24 * 3600))
    .option('-m, --model <dir|file.gguf|url>', 'world model folder, .gguf file or OpenAI-compatible endpoint (default: the embedded model)')
    .option('--device <device>', DEVICE_OPTION_HELP, deviceChoice)
    .option('--threads <n>', THREADS_OPTION_HELP, cpuThreads)
    .option('--adapter <file.gguf>', ADAPTER_OPTION_HELP)
    .option('--concurrency <n>', CONCURRENCY_OPTION_HELP, concurrencyLimit);
  addSamplingOptions(command).action((opts: ExpandFlags) =>
    withCore({ workspace: { path: opts.workspace }, model: opts.model ?? null, device: opts.device, threads: opts.threads, concurrency: opts.concurrency, adapter: opts.adapter }, async (core) => {
      const jobId = 'cli-expand';
      core.cancelOnInterrupt(jobId);
      core.on('job.progress', (p) => {
        if (p.jobId === jobId && !p.finished) process.stderr.write(`${p.label} (${p.done}/${p.total ?? '?'})\n`);
      });
      const result = await core.call('agents.expand', {
        jobId,
        nodeId: opts.node,
        policy: policyOf(opts),
        actions: opts.actions,
        samples: opts.samples,
        depth: opts.depth,
        tokenBudget: opts.tokenBudget,
        timeBudgetSeconds: opts.timeBudget,
        sampling: samplingOverrides(opts),
      });
      const { nodes, ...rest } = result;
      process.stdout.write(JSON.stringify({ nodes: nodes.map((n) => n.id), ...rest }) + '\n');
    }),
  );
}
