// One recorded session per call, through the app's own real environments (the code behind
// `worldloom record` and Run real): the bubblewrap terminal with its prompt lines and home,
// the MCP recorder on the official reference servers, and the Playwright web recorder. The
// actions come from the seeded generators; every observation is what the environment really
// returned, exactly as the app would store it.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealEnvironment } from '../../src-main/reality/environment';
import { McpEnvironment } from '../../src-main/reality/mcp-environment';
import { TerminalEnvironment } from '../../src-main/reality/terminal/terminal-environment';
import { WebEnvironment } from '../../src-main/reality/web-environment';
import { mcpCalls, type McpServerName } from './mcp-actions';
import type { RecordedSession, RecordedStep } from './paths';
import type { Rng } from './rng';
import { terminalCommands, type Vocabulary } from './terminal-actions';
import { nextWebAction } from './web-actions';

const require = createRequire(import.meta.url);
const SERVER_ENTRY: Record<McpServerName, string> = {
  filesystem: require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
  memory: require.resolve('@modelcontextprotocol/server-memory/dist/index.js'),
};

/** The filesystem server's directory: one fixed path, so the same seed gives the same actions and texts. */
export const MCP_FILESYSTEM_ROOT = join(tmpdir(), 'worldloom-mcp', 'workspace');

type Session = Omit<RecordedSession, 'id' | 'split'>;

let holdsFilesystemRoot = false;

/**
 * The fixed filesystem root serves one recording process at a time: a second one would wipe
 * it under the first one's server mid-session. Held by a lock file naming our pid until we exit;
 * a lock whose process is gone is taken over.
 */
function holdFilesystemRoot(): void {
  if (holdsFilesystemRoot) return;
  const lock = `${MCP_FILESYSTEM_ROOT}.lock`;
  mkdirSync(join(MCP_FILESYSTEM_ROOT, '..'), { recursive: true });
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lock, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && processAlive(owner)) {
        throw new Error(
          `Another recording (process ${owner}) is using ${MCP_FILESYSTEM_ROOT}; MCP filesystem sessions share that fixed folder ` +
            'so a seed gives the same texts. Wait for it to finish (or stop it), then run this again.',
        );
      }
      rmSync(lock, { force: true });
    }
  }
  holdsFilesystemRoot = true;
  process.once('exit', () => rmSync(lock, { force: true }));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function run(env: RealEnvironment, domain: RecordedSession['domain'], act: (last: string, i: number) => string | null): Promise<Session> {
  try {
    const initialState = await env.start();
    const steps: RecordedStep[] = [];
    let last = initialState;
    for (let i = 0; ; i++) {
      const action = act(last, i);
      if (action === null) break;
      const step = await env.step(action);
      steps.push({ action, observation: step.observation });
      last = step.observation;
    }
    return { domain, systemPrompt: env.description(), initialState, steps };
  } finally {
    await env.dispose();
  }
}

export function recordTerminalSession(rng: Rng, vocab?: Vocabulary): Promise<Session> {
  return recordTerminalCommands(terminalCommands(rng, vocab));
}

/** Runs fixed command lines in a fresh sandboxed terminal (the hand-written evaluation sessions). */
export function recordTerminalCommands(commands: readonly string[]): Promise<Session> {
  // The app's default limits: they are written into the description the model reads.
  return run(new TerminalEnvironment(), 'terminal', (_last, i) => commands[i] ?? null);
}

/**
 * A session on a reference server started fresh for it, as the app's MCP recorder starts
 * one: an empty filesystem root, or an empty knowledge graph in `scratch`.
 */
export async function recordMcpSession(rng: Rng, server: McpServerName, scratch: string): Promise<Session> {
  const calls = mcpCalls(rng, server, MCP_FILESYSTEM_ROOT);
  if (server === 'filesystem') holdFilesystemRoot();
  const root = server === 'filesystem' ? MCP_FILESYSTEM_ROOT : scratch;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  // The app's MCP sandbox runs the server as an unprivileged user: it must be able to write here.
  chmodSync(root, 0o777);
  const env = new McpEnvironment({
    command: process.execPath,
    // The memory server ignores its arguments; naming the folder shares it with the sandboxed server.
    args: server === 'filesystem' ? [SERVER_ENTRY.filesystem, root] : [SERVER_ENTRY.memory, root],
    cwd: root,
    env: server === 'memory' ? { MEMORY_FILE_PATH: join(root, 'memory.jsonl') } : {},
  });
  try {
    const session = await run(env, 'mcp', (_last, i) => (calls[i] ? JSON.stringify(calls[i]) : null));
    return { ...session, server };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A browsing session of 3–7 actions on one of the local stores (web-site.ts). */
export function recordWebSession(rng: Rng, origin: string, store: number): Promise<Session> {
  const count = rng.int(3, 7);
  let typed = new Set<string>();
  let url = '';
  return run(new WebEnvironment(), 'web', (last, i) => {
    if (i >= count) return null;
    if (i === 0) return `goto ${origin}/store/${store}${rng.pick(['/', '/', '/products', '/search', '/login', '/contact'])}`;
    const shown = /^URL: (.*)$/m.exec(last)?.[1] ?? '';
    if (shown !== url) typed = new Set();
    url = shown;
    return nextWebAction(rng, origin, store, last, typed);
  });
}
