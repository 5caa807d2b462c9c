// `worldloom simulate`: predict the observation of an action at a node, K samples.
import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { simulateStep } from '../../simulation/simulate-step';
import { WorkspaceStore } from '../../store/workspace-store';
import { openModelForCli } from '../model-argument';
import { temperature, wholeNumber } from '../option-parsers';
import { RESOURCES_DIR } from '../paths';

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('simulate an action at a node; prints the new node ids as JSON')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('-n, --node <id>', 'node to act from')
    .requiredOption('-a, --action <text>', 'the action to simulate')
    .option('-k, --samples <k>', 'samples, run as one batch', wholeNumber(1, 64), 1)
    .option('-m, --model <dir|url>', 'model folder or OpenAI-compatible endpoint (default: the embedded model)')
    .option('-s, --seed <n>', 'seed of the first sample (sample i uses seed + i)', wholeNumber(0, 2 ** 31 - 1), 0)
    .option('-t, --temperature <t>', '0 = greedy', temperature, 0.7)
    .option('--max-tokens <n>', 'longest observation in tokens', wholeNumber(1, 32768), 512)
    .action(
      async (opts: { workspace: string; node: string; action: string; samples: number; model?: string; seed: number; temperature: number; maxTokens: number }) => {
        const { models, engine } = await openModelForCli(opts.model);
        const store = WorkspaceStore.open(resolve(opts.workspace));
        try {
          const controller = new AbortController();
          process.once('SIGINT', () => controller.abort());
          const result = await simulateStep(
            store,
            engine,
            { builtinDir: join(RESOURCES_DIR, 'prompts') },
            {
              nodeId: opts.node,
              action: opts.action,
              samples: opts.samples,
              sampling: { seed: opts.seed, temperature: opts.temperature, maxTokens: opts.maxTokens },
            },
            () => {},
            controller.signal,
          );
          process.stdout.write(JSON.stringify({ nodes: result.nodes.map((n) => n.id), cancelled: result.cancelled }) + '\n');
        } finally {
          store.close();
          await models.unload();
        }
      },
    );
}
