// `worldloom replay`: simulate every step of a recorded real trajectory from its real
// history, store the predictions beside the real steps, and print the metrics as JSON.
import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildReport, compareTrajectory } from '../../reality/comparison';
import { replayTrajectory } from '../../reality/replay';
import { reportHtml } from '../../reality/report-html';
import { generationParameters } from '../../simulation/generation-parameters';
import { WorkspaceStore } from '../../store/workspace-store';
import { openModelForCli } from '../model-argument';
import { RESOURCES_DIR } from '../paths';
import { addSamplingOptions, incompleteReport, samplingOverrides, type SamplingFlags } from '../sampling-options';

export function registerReplay(program: Command): void {
  const command = program
    .command('replay')
    .description('replay a recorded real trajectory through the world model; prints per-step metrics as JSON')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('--trajectory <id>', 'the recorded trajectory')
    .option('-m, --model <dir|url>', 'model folder or OpenAI-compatible endpoint (default: the embedded model)')
    .option('--report <file>', 'also write the report (.html, else JSON)');
  addSamplingOptions(command).action(async (opts: SamplingFlags & { workspace: string; trajectory: string; model?: string; report?: string }) => {
      const { models, engine } = await openModelForCli(opts.model);
      const store = WorkspaceStore.open(resolve(opts.workspace));
      try {
        const controller = new AbortController();
        process.once('SIGINT', () => controller.abort());
        const result = await replayTrajectory(
          store,
          engine,
          { builtinDir: join(RESOURCES_DIR, 'prompts') },
          { trajectoryId: opts.trajectory, sampling: samplingOverrides(opts) },
          (done, total, label) => process.stderr.write(`[${done}/${total}] ${label}\n`),
          controller.signal,
        );
        const comparison = compareTrajectory(store.getTrajectory(opts.trajectory)!, store.getNodes(opts.trajectory));
        if (opts.report) {
          const report = buildReport([comparison]);
          writeFileSync(resolve(opts.report), /\.html?$/i.test(opts.report) ? reportHtml(report) : JSON.stringify(report, null, 2) + '\n');
        }
        const { steps, ...summary } = comparison;
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
          const limit = generationParameters(engine, store).maxTokensLimit;
          for (const cut of result.incomplete) process.stderr.write(`worldloom: step ${cut.step}, ${incompleteReport([cut], limit)}\n`);
          process.exitCode = 1;
        }
      } finally {
        store.close();
        await models.unload();
      }
    });
}
