// `worldloom record <domain>`: run a script of actions in a fresh real environment (a
// sandboxed shell, an MCP server, a browser) and store it as a new real trajectory.
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REAL_DOMAINS, type RealDomain, type RealEnvironmentSettings } from '../../common/contract/reality';
import { withCore } from '../core';
import { numberBetween, oneOf } from '../option-parsers';

export function registerRecord(program: Command): void {
  program
    .command('record')
    .description('record a real session from a script (one action per line); prints the new trajectory id as JSON')
    .argument('<domain>', REAL_DOMAINS.join(' | '), oneOf(REAL_DOMAINS))
    .requiredOption('-w, --workspace <file>', 'workspace file (created if missing)')
    .requiredOption('-s, --script <file>', 'actions, one per line (terminal: commands; mcp: {"name","arguments"} JSON; web: goto/click/type/scroll)')
    .option('--title <text>', 'trajectory title')
    .option('--timeout <seconds>', 'terminal: time limit per command', numberBetween(1, 3600))
    .option('--server <command>', 'mcp: the command that starts the server')
    .option('--server-arg <arg>', 'mcp: an argument for the server (repeat for more); folders named here are shared with it read-write', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--server-cwd <dir>', "mcp: the server's working directory, visible to it read-only (relative arguments resolve against it)")
    .action(async (domain: RealDomain, opts: { workspace: string; script: string; title?: string; timeout?: number; server?: string; serverArg: string[]; serverCwd?: string }) => {
      const actions = readFileSync(resolve(opts.script), 'utf8')
        .split(/\r?\n/)
        .filter((line) => line.trim() !== '');
      if (actions.length === 0) throw new Error(`${opts.script} has no actions: write one per line.`);
      const settings: RealEnvironmentSettings = {
        ...(opts.timeout ? { terminal: { commandTimeoutSeconds: opts.timeout } } : {}),
        ...(opts.server ? { mcp: { command: opts.server, args: opts.serverArg, ...(opts.serverCwd ? { cwd: resolve(opts.serverCwd) } : {}) } } : {}),
      };
      await withCore({ workspace: { path: opts.workspace, create: true } }, async (core) => {
        const jobId = 'cli-record';
        core.cancelOnInterrupt(jobId);
        core.on('job.progress', (p) => {
          if (p.jobId === jobId && !p.finished && p.total !== null) process.stderr.write(`[${p.done}/${p.total}] ${p.label}\n`);
        });
        const result = await core.call('reality.record', { jobId, domain, actions, title: opts.title, environment: settings });
        process.stdout.write(JSON.stringify(result) + '\n');
      });
    });
}
