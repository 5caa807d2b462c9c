// `worldloom info`: one JSON object summarizing a workspace.
import type { Command } from 'commander';
import { withCore } from '../core';

export function registerInfo(program: Command): void {
  program
    .command('info')
    .description('print a JSON summary of a workspace')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .action((opts: { workspace: string }) =>
      withCore({ workspace: { path: opts.workspace } }, async (core) => {
        const { trajectories, steps, byDomain, byOrigin } = await core.call('workspace.info', {});
        process.stdout.write(JSON.stringify({ trajectories, steps, byDomain, byOrigin }) + '\n');
      }),
    );
}
