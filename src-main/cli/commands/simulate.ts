// `worldloom simulate`: predict the observation of an action at a node, K samples.
import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { generationParameters } from '../../simulation/generation-parameters';
import { simulateStep } from '../../simulation/simulate-step';
import { WorkspaceStore } from '../../store/workspace-store';
import { openModelForCli } from '../model-argument';
import { wholeNumber } from '../option-parsers';
import { RESOURCES_DIR } from '../paths';
import { addSamplingOptions, incompleteReport, samplingOverrides, type SamplingFlags } from '../sampling-options';

export function registerSimulate(program: Command): void {
  const command = program
    .command('simulate')
    .description('simulate an action at a node; prints the new node ids as JSON (exits 1 when a sample ran out of tokens)')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('-n, --node <id>', 'node to act from')
    .requiredOption('-a, --action <text>', 'the action to simulate')
    .option('-k, --samples <k>', 'samples, run as one batch', wholeNumber(1, 64), 1)
    .option('-m, --model <dir|url>', 'model folder or OpenAI-compatible endpoint (default: the embedded model)');
  addSamplingOptions(command).action(
    async (opts: SamplingFlags & { workspace: string; node: string; action: string; samples: number; model?: string }) => {
      const { models, engine } = await openModelForCli(opts.model);
      const store = WorkspaceStore.open(resolve(opts.workspace));
      try {
        const parameters = generationParameters(engine, store);
        const sampling = parameters.resolve(samplingOverrides(opts));
        const controller = new AbortController();
        process.once('SIGINT', () => controller.abort());
        const result = await simulateStep(
          store,
          engine,
          { builtinDir: join(RESOURCES_DIR, 'prompts') },
          { nodeId: opts.node, action: opts.action, samples: opts.samples, sampling },
          () => {},
          controller.signal,
        );
        const incomplete = result.incomplete.map(({ sample, seed, reason, message, completionTokens }) => ({ sample, seed, reason, message, completionTokens }));
        process.stdout.write(JSON.stringify({ nodes: result.nodes.map((n) => n.id), incomplete, cancelled: result.cancelled }) + '\n');
        if (result.incomplete.length > 0) {
          process.stderr.write(`worldloom: ${incompleteReport(result.incomplete, parameters.maxTokensLimit)}\n`);
          process.exitCode = 1;
        }
      } finally {
        store.close();
        await models.unload();
      }
    },
  );
}
