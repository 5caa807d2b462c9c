// Which real environment serves which domain, found by domain name. Adding one is a new
// file plus one line here; nothing else switches on the domain.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealDomain, RealEnvironmentSettings, SandboxState } from '../common/contract/reality';
import { REAL_DOMAINS } from '../common/contract/reality';
import type { Domain } from '../common/trajectory/model';
import { RealEnvironmentError, type RealEnvironment } from './environment';
import { McpEnvironment } from './mcp-environment';
import { mcpSandboxDescription } from './mcp-sandbox';
import { checkBubblewrap, SANDBOX_DESCRIPTION, writeSandboxFiles } from './bubblewrap';
import { TerminalEnvironment } from './terminal/terminal-environment';
import { chromiumPath, DEFAULT_WEB_LIMITS, WebEnvironment } from './web-environment';

interface RealEnvironmentKind {
  open(settings: RealEnvironmentSettings): RealEnvironment;
  /** Whether it can run on this machine, and the sandbox it would use. */
  check(settings: RealEnvironmentSettings): Omit<SandboxState, 'domain'>;
}

/** Why bubblewrap cannot run here, or null when it can. */
function bubblewrapProblem(): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'worldloom-probe-'));
  try {
    const files = writeSandboxFiles(dir, '');
    checkBubblewrap(files);
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const KINDS: Record<RealDomain, RealEnvironmentKind> = {
  terminal: {
    open: (s) =>
      new TerminalEnvironment({
        ...(s.terminal?.commandTimeoutSeconds ? { commandTimeoutMs: s.terminal.commandTimeoutSeconds * 1000 } : {}),
        ...(s.terminal?.maxOutputBytes ? { maxOutputBytes: s.terminal.maxOutputBytes } : {}),
        ...(s.terminal?.maxProcesses ? { maxProcesses: s.terminal.maxProcesses } : {}),
      }),
    check: () => {
      const problem = bubblewrapProblem();
      return { available: problem === null, sandbox: problem === null ? SANDBOX_DESCRIPTION : 'none available: real terminals are refused', problem };
    },
  },
  mcp: {
    open: (s) => {
      if (!s.mcp) throw new RealEnvironmentError('Give the command that starts the MCP server (for example `mcp-server-memory` after `npm install -g @modelcontextprotocol/server-memory`, or `node` with the script of the server; the sandbox has no network, so `npx -y` cannot download it there).', 'start-failed');
      return new McpEnvironment({ command: s.mcp.command, args: s.mcp.args, cwd: s.mcp.cwd, env: s.mcp.env });
    },
    check: (s) => {
      // Off Linux there is no bubblewrap and the description says the server runs unsandboxed.
      const problem = process.platform === 'linux' ? bubblewrapProblem() : null;
      return { available: problem === null, sandbox: problem === null ? mcpSandboxDescription(s.mcp) : 'none available: MCP servers are refused', problem };
    },
  },
  web: {
    open: (s) => new WebEnvironment({ ...DEFAULT_WEB_LIMITS, ...(s.web?.actionTimeoutSeconds ? { actionTimeoutMs: s.web.actionTimeoutSeconds * 1000 } : {}) }),
    check: () => {
      const found = existsSync(chromiumPath());
      return {
        available: found,
        sandbox: new WebEnvironment().sandbox,
        problem: found ? null : `No Chromium at ${chromiumPath()}: install it (Debian: sudo apt-get install chromium) or set WORLDLOOM_CHROMIUM.`,
      };
    },
  },
};

/**
 * How many real environments this process runs at once (every recording, Run real, MCP
 * server and browser holds one from start to dispose). Each sandbox may hold 384 MiB of files
 * in RAM and 256 processes, so the cap bounds what they take together. WORLDLOOM_MAX_SANDBOXES
 * changes it; it is read when an environment starts.
 */
export const DEFAULT_MAX_SANDBOXES = 4;
let running = 0;

export function maxSandboxes(): number {
  const set = process.env.WORLDLOOM_MAX_SANDBOXES;
  if (set === undefined || set === '') return DEFAULT_MAX_SANDBOXES;
  const n = Number(set);
  if (!Number.isInteger(n) || n < 1) {
    throw new RealEnvironmentError(`WORLDLOOM_MAX_SANDBOXES must be a whole number of at least 1 (it is "${set}"); unset it for the default, ${DEFAULT_MAX_SANDBOXES}.`, 'bad-action');
  }
  return n;
}

/** Real environments running now in this process. */
export function runningSandboxes(): number {
  return running;
}

/** Makes `env` hold one of the process's sandbox slots from start() until dispose(); a start past the cap is refused, never queued forever. */
function holdSlot(env: RealEnvironment): RealEnvironment {
  const start = env.start.bind(env);
  const dispose = env.dispose.bind(env);
  let held = false;
  const release = () => {
    if (held) running--;
    held = false;
  };
  env.start = async () => {
    const max = maxSandboxes();
    if (running >= max) {
      throw new RealEnvironmentError(
        `Busy: ${running} real environment${running === 1 ? ' is' : 's are'} already running here, the most at once (${max}). ` +
          'Wait for a recording or a Run real to finish and try again, or set WORLDLOOM_MAX_SANDBOXES to allow more.',
        'busy',
      );
    }
    running++;
    held = true;
    try {
      return await start();
    } catch (err) {
      release();
      throw err;
    }
  };
  env.dispose = async () => {
    try {
      await dispose();
    } finally {
      release();
    }
  };
  return env;
}

export function isRealDomain(domain: Domain): domain is RealDomain {
  return (REAL_DOMAINS as readonly string[]).includes(domain);
}

/** A fresh, not yet started environment for the domain. */
export function openRealEnvironment(domain: Domain, settings: RealEnvironmentSettings = {}): RealEnvironment {
  if (!isRealDomain(domain)) {
    throw new RealEnvironmentError(`There is no real ${domain} environment; real runs exist for ${REAL_DOMAINS.join(', ')}.`, 'not-supported');
  }
  return holdSlot(KINDS[domain].open(settings));
}

export function sandboxStates(settings: RealEnvironmentSettings = {}): SandboxState[] {
  return REAL_DOMAINS.map((domain) => ({ domain, ...KINDS[domain].check(settings) }));
}
