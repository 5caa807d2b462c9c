// `worldloom replay`: simulate every step of recorded real trajectories from their real
// history (every step in flight at once, up to what the model takes), store the predictions
// beside the real steps, and print the metrics as JSON: one trajectory's steps, or a report
// over many (per domain, per step). With two or more `--model`s the same steps go through
// each model with the same seeds, and the report says which is closer to reality.
import type { Command } from 'commander';
import type { DeviceChoice } from '../../common/device';
import { UserError } from '../../common/user-error';
import { modelKeyOf } from '../../reality/comparison';
import { withCore, type CliCore } from '../core';
import { modelSpecFromArgument } from '../model-argument';
import { ADAPTER_OPTION_HELP, CONCURRENCY_OPTION_HELP, concurrencyLimit, cpuThreads, DEVICE_OPTION_HELP, deviceChoice, THREADS_OPTION_HELP } from '../option-parsers';
import { addSamplingOptions, incompleteReport, samplingOverrides, type SamplingFlags } from '../sampling-options';

const collect = (value: string, previous: string[] = []) => [...previous, value];

interface ReplayFlags extends SamplingFlags {
  workspace: string;
  trajectory?: string[];
  filter?: string;
  model?: string[];
  device?: DeviceChoice;
  threads?: number;
  concurrency?: number;
  adapter?: string[];
  report?: string;
}

export function registerReplay(program: Command): void {
  const command = program
    .command('replay')
    .description('replay recorded real trajectories through the world model (or two models side by side); prints metrics as JSON')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .option('--trajectory <id>', 'a recorded trajectory (repeat for more)', collect)
    .option('--filter <expr>', 'every recorded trajectory with a step this export filter selects, e.g. "domain = terminal"')
    .option('-m, --model <dir|file.gguf|url>', 'model folder, .gguf file or OpenAI-compatible endpoint (default: the embedded model); twice or more compares them', collect)
    .option('--device <device>', DEVICE_OPTION_HELP, deviceChoice)
    .option('--threads <n>', THREADS_OPTION_HELP, cpuThreads)
    .option('--adapter <file.gguf|none>', `${ADAPTER_OPTION_HELP}; with several --model, one --adapter for each in order (none for no adapter)`, collect)
    .option('--concurrency <n>', CONCURRENCY_OPTION_HELP, concurrencyLimit)
    .option('--report <file>', 'also write the report (.html, else JSON)');
  addSamplingOptions(command).action(async (opts: ReplayFlags) => {
    const trajectories = opts.trajectory ?? [];
    if ((trajectories.length > 0) === (opts.filter !== undefined)) {
      throw new UserError('Say what to replay: --trajectory ID (repeat for more) or --filter EXPR, not both.');
    }
    const models = opts.model ?? [];
    const placement = { device: opts.device, threads: opts.threads, concurrency: opts.concurrency };
    const adapters = (opts.adapter ?? []).map((adapter) => (adapter === 'none' ? undefined : adapter));
    if (adapters.length > 1 && adapters.length !== models.length) {
      throw new UserError(`${adapters.length} --adapter for ${models.length} --model: give one --adapter for each --model, in order (none for a model without one).`);
    }
    // One --adapter with several --models goes with each of them.
    const adapterOf = (i: number) => (adapters.length === 1 ? adapters[0] : adapters[i]);
    // One model loads as any verb's does; an A/B loads each in turn, so only one is in memory at a time.
    await withCore({ workspace: { path: opts.workspace }, ...(models.length > 1 ? {} : { model: models[0] ?? null, ...placement, adapter: adapterOf(0) }) }, async (core) => {
      const target = trajectories.length === 1 ? { trajectoryId: trajectories[0]! } : trajectories.length ? { trajectoryIds: trajectories } : { filter: opts.filter! };
      if (models.length > 1) return compare(core, opts, models.map((model, i) => ({ model, adapter: adapterOf(i) })), target, placement);
      const result = await replayOnce(core, opts, target);
      if (opts.report) {
        await core.call('reality.exportReport', { path: opts.report, format: /\.html?$/i.test(opts.report) ? 'html' : 'json', trajectoryIds: result.trajectoryIds });
      }
      const common = {
        cancelled: result.cancelled,
        tokensPerSecond: round(result.tokensPerSecond),
        simulatedNodes: result.nodes.map((n) => n.id),
        incomplete: result.incomplete.map(({ trajectoryId, step, realNodeId, message, completionTokens }) => ({ trajectoryId, step, realNodeId, message, completionTokens })),
        failures: result.failures,
      };
      if (result.trajectoryIds.length === 1) {
        const { steps, ...summary } = result.comparison;
        const shown = steps.map(({ depth, action, realNodeId, simulatedNodeId, metrics, diverged }) => ({ depth, action, realNodeId, simulatedNodeId, diverged, metrics }));
        process.stdout.write(JSON.stringify({ ...summary, ...common, steps: shown }) + '\n');
      } else {
        const { trajectories: compared, ...report } = result.report;
        const perTrajectory = compared.map(({ trajectoryId, title, domain, aggregate, firstDivergence, steps }) => ({ trajectoryId, title, domain, steps: steps.length, firstDivergence, aggregate }));
        process.stdout.write(JSON.stringify({ trajectories: perTrajectory, ...report, ...common }) + '\n');
      }
    });
  });
}

type ReplayTarget = { trajectoryId: string } | { trajectoryIds: string[] } | { filter: string };

/** Replays with the loaded model, printing progress on stderr; says what failed or was cut off and sets the exit code. */
async function replayOnce(core: CliCore, opts: ReplayFlags, target: ReplayTarget, jobId = 'cli-replay') {
  core.cancelOnInterrupt(jobId);
  core.on('job.progress', (p) => {
    if (p.jobId === jobId && !p.finished && p.total !== null) process.stderr.write(`[${p.done}/${p.total}] ${p.label}\n`);
  });
  const result = await core.call('reality.replay', { jobId, ...target, sampling: samplingOverrides(opts) });
  for (const failure of result.failures) process.stderr.write(`worldloom: ${failure.step} failed: ${failure.message}\n`);
  if (result.incomplete.length > 0) {
    const { maxTokensLimit } = await core.call('sampling.get', {});
    for (const cut of result.incomplete) process.stderr.write(`worldloom: step ${cut.step}, ${incompleteReport([cut], maxTokensLimit)}\n`);
  }
  if (result.incomplete.length > 0 || result.failures.length > 0) process.exitCode = 1;
  return result;
}

/** `--model A --model B`: the same steps through each model with the same seeds, then which came closer. */
async function compare(core: CliCore, opts: ReplayFlags, models: { model: string; adapter?: string }[], target: ReplayTarget, placement: { device?: DeviceChoice; threads?: number; concurrency?: number }) {
  const runs: { model: string; key: string; tokensPerSecond: number; failures: number; trajectoryIds: string[] }[] = [];
  for (const [i, { model: path, adapter }] of models.entries()) {
    const model = adapter ? `${path} + ${adapter}` : path;
    process.stderr.write(`worldloom: model ${i + 1} of ${models.length}: ${model}\n`);
    await core.call('model.load', { spec: modelSpecFromArgument(path, { ...placement, adapter }) });
    const result = await replayOnce(core, opts, target, `cli-replay-${i + 1}`);
    if (result.cancelled) {
      process.stderr.write('worldloom: cancelled; the comparison covers what finished.\n');
      break;
    }
    // The key tells this model's predictions apart: every prediction carries it, a reused one too.
    const key = result.nodes[0] ? modelKeyOf(result.nodes[0]) : null;
    if (!key) throw new UserError(`${model} predicted no step, so there is nothing of it to compare: see the failures above.`);
    runs.push({ model, key, tokensPerSecond: result.tokensPerSecond, failures: result.failures.length, trajectoryIds: result.trajectoryIds });
  }
  if (runs.length < 2) return;
  const trajectoryIds = runs[0]!.trajectoryIds;
  const keys = runs.map((r) => r.key);
  if (new Set(keys).size < keys.length) throw new UserError('Two of the --model arguments are the same model (the same file or endpoint and model): give different ones.');
  const comparison = await core.call('reality.compareModels', { trajectoryIds, models: keys });
  if (opts.report) {
    await core.call('reality.exportReport', { path: opts.report, format: /\.html?$/i.test(opts.report) ? 'html' : 'json', trajectoryIds, models: keys });
  }
  process.stdout.write(
    JSON.stringify({
      models: comparison.models.map((m, i) => ({
        model: runs[i]!.model,
        label: m.label,
        tokensPerSecond: round(runs[i]!.tokensPerSecond),
        streamTokensPerSecond: round(m.streamTokensPerSecond),
        failures: runs[i]!.failures,
        overall: m.report.overall,
        byDomain: m.report.byDomain,
      })),
      score: comparison.score,
      mostDifferent: comparison.differences.map(({ title, depth, action, gap, predictions }) => ({ title, depth, action, gap: round(gap), scores: predictions.map((p) => round(p.score)) })),
    }) + '\n',
  );
}

const round = (v: number) => Math.round(v * 1000) / 1000;
