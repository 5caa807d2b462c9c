// `npm run bench -- cli`: how long `worldloom --version` and `worldloom ls` take to start and
// finish, built (package.json's bin, out/cli/) against `node -e 0` in the same run: the goal
// is at most 0.4 s on a quiet machine, where Node 20 itself starts in about 40 ms, so at most
// 10× `node -e 0` measured beside it (this machine's load slows both alike). The CLI run from
// source through tsx (src-main/cli/worldloom.mjs, what the bin was before) is measured too.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../src-main/cli/build-cli.mjs';
import { generatedAwb } from '../src-main/testing/awb-fixtures';
import { CLI_BIN } from '../src-main/testing/cli-bin';
import { median, type BenchSuite, type Figure } from './bench';

const SOURCE_CLI = fileURLToPath(new URL('../src-main/cli/worldloom.mjs', import.meta.url));
const ROUNDS = 9;
/** Node 20's own start (`node -e 0`) on a quiet machine, in ms: what turns 0.4 s into a ratio. */
const QUIET_NODE_MS = 40;
const GOAL_MS = 400;

function timed(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${run.stderr}`);
  return ms;
}

export const cliSuite: BenchSuite = {
  name: 'cli',
  async run(): Promise<Figure[]> {
    await buildCli();
    const dir = mkdtempSync(join(tmpdir(), 'wl-bench-cli-'));
    try {
      const awb = join(dir, 'bench_terminal.jsonl');
      writeFileSync(awb, generatedAwb(50, 5).join('\n') + '\n');
      const workspace = join(dir, 'bench.worldloom');
      execFileSync(process.execPath, [CLI_BIN, 'import', awb, '--workspace', workspace], { encoding: 'utf8' });

      const runs: Record<'node' | 'version' | 'ls' | 'sourceLs', number[]> = { node: [], version: [], ls: [], sourceLs: [] };
      // Alternating rounds, so a burst of load on the shared machine touches every figure alike.
      for (let round = 0; round < ROUNDS; round++) {
        runs.node.push(timed(['-e', '0']));
        runs.version.push(timed([CLI_BIN, '--version']));
        runs.ls.push(timed([CLI_BIN, 'ls', '--workspace', workspace]));
        if (round < 3) runs.sourceLs.push(timed([SOURCE_CLI, 'ls', '--workspace', workspace]));
      }
      const node = median(runs.node);
      const figure = (name: string, values: number[]): Figure => {
        const ms = median(values);
        return {
          name,
          value: ms,
          unit: 'ms',
          ratio: ms / node,
          goal: GOAL_MS / QUIET_NODE_MS,
          note:
            `node -e 0 took ${node.toFixed(0)} ms in the same run (median of ${ROUNDS}); at ${QUIET_NODE_MS} ms for node, as on a quiet machine, ` +
            `this reads ${((ms / node) * QUIET_NODE_MS).toFixed(0)} ms against the ${GOAL_MS} ms goal`,
        };
      };
      const sourceLs = median(runs.sourceLs);
      return [
        figure('worldloom --version (built), × node -e 0', runs.version),
        figure('worldloom ls, 50 trajectories (built), × node -e 0', runs.ls),
        {
          name: 'worldloom ls from source through tsx, × the built one',
          value: sourceLs,
          unit: 'ms',
          ratio: sourceLs / median(runs.ls),
          note: 'what every verb cost before the CLI was built (median of 3); no goal, for comparison',
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
