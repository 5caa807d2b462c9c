// `worldloom sessions`: the sessions coding agents left in their own folders on this machine
// (newest first, with agent, project, date, tool calls and size), and the folders looked in;
// `--import` brings the ones listed into a workspace, `--scrub` first taking secrets and
// personal data out. Nothing is read before it is run, and nothing is sent anywhere.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { FoundSession, SessionSearch } from '../../common/contract/sessions';
import { describeNotes, describeProblems, describeSkipped } from '../../formats/import-trajectories';
import { UserError } from '../../common/user-error';
import { withCore } from '../core';
import { table } from './ls';

interface SessionsOptions {
  json?: boolean;
  agent?: string[];
  project?: string;
  path?: string[];
  newest?: number;
  import?: boolean;
  workspace?: string;
  scrub?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} B`;
}

/** The sessions the options select, newest first. */
export function selectSessions(found: readonly FoundSession[], opts: Pick<SessionsOptions, 'agent' | 'project' | 'path' | 'newest'>): FoundSession[] {
  const paths = opts.path?.map((p) => resolve(p));
  const project = opts.project?.replace(/[\\/]+$/, '');
  const selected = found.filter(
    (s) =>
      (!opts.agent?.length || opts.agent.some((a) => a === s.format || a.toLowerCase() === s.agent.toLowerCase())) &&
      (project === undefined || s.project === project || (project !== '' && (s.project ?? '').includes(project))) &&
      (!paths || paths.includes(s.path)),
  );
  return opts.newest ? selected.slice(0, opts.newest) : selected;
}

function describeSearch(search: SessionSearch, shown: readonly FoundSession[]): string {
  const folders = search.folders.map((f) => `  ${f.exists ? `${f.sessions} session${f.sessions === 1 ? '' : 's'}` : 'not there'}  ${f.agent}: ${f.path}${f.from === 'default' ? '' : ` (from ${f.from})`}`);
  const rows = shown.map((s) => [s.modified.slice(0, 16).replace('T', ' '), s.agent, String(s.toolCalls), size(s.bytes), s.project ?? '-', s.path]);
  return `Looked in:\n${folders.join('\n')}\n\n${shown.length ? table(['DATE', 'AGENT', 'TOOL CALLS', 'SIZE', 'PROJECT', 'FILE'], rows) : 'No sessions found there.\n'}`;
}

export function registerSessions(program: Command): void {
  program
    .command('sessions')
    .description("list the sessions coding agents (Claude Code, Codex, Gemini CLI…) keep in their own folders on this machine, and import them")
    .option('--json', 'print the folders looked in and the sessions as JSON')
    .option('--agent <agent>', 'only this agent (its name or import format, e.g. codex-rollout); repeat for more', collect)
    .option('--project <dir>', 'only sessions whose project (the folder the agent worked in) is or contains this')
    .option('--path <file>', 'only this session file; repeat for more', collect)
    .option('--newest <n>', 'only the newest N of those selected', (v) => Number.parseInt(v, 10))
    .option('--import', 'import the selected sessions into --workspace')
    .option('-w, --workspace <file>', 'workspace to import into (created if missing)')
    .option('--scrub', 'with --import: replace API keys, passwords, e-mail addresses and IPs before anything is written')
    .action((opts: SessionsOptions) =>
      withCore(opts.import ? { workspace: { path: requireWorkspace(opts), create: true } } : {}, async (core) => {
        const search = await core.call('sessions.list', {});
        const selected = selectSessions(search.sessions, opts);
        for (const p of search.problems) process.stderr.write(`${p.path}: ${p.reason}\n`);
        if (!opts.import) {
          process.stdout.write(opts.json ? `${JSON.stringify({ folders: search.folders, sessions: selected, problems: search.problems }, null, 2)}\n` : describeSearch(search, selected));
          return;
        }
        if (selected.length === 0) {
          process.stderr.write(describeSearch(search, selected));
          process.stderr.write('Nothing to import: no session matched.\n');
          process.exitCode = 1;
          return;
        }
        const jobId = 'cli-sessions-import';
        core.cancelOnInterrupt(jobId);
        let failed = 0;
        // Files go in chunks the contract takes at once; one scrubber per chunk keeps stand-ins consistent within it.
        for (let i = 0; i < selected.length; i += 1000) {
          const chunk = selected.slice(i, i + 1000);
          const reports = await core.call('import.files', { paths: chunk.map((s) => s.path), format: 'auto', jobId, scrub: Boolean(opts.scrub) });
          for (const report of reports) {
            for (const line of [...describeProblems(report), ...describeSkipped(report), ...describeNotes(report)]) process.stderr.write(`${line}\n`);
            const { file, format, imported, alreadyPresent, problems, skipped, scrubbed, continued } = report;
            process.stdout.write(JSON.stringify({ file, format, imported, alreadyPresent, problems: problems.length, skipped: skipped.length, ...(scrubbed ? { scrubbed } : {}), ...(continued ? { continued } : {}) }) + '\n');
            if (imported === 0 && alreadyPresent === 0 && !continued && problems.length > 0) failed++;
          }
        }
        if (failed) process.exitCode = 1;
      }),
    );
}

function requireWorkspace(opts: SessionsOptions): string {
  if (!opts.workspace) throw new UserError('--import needs --workspace FILE: the workspace the sessions go into.', 'invalid');
  return opts.workspace;
}
