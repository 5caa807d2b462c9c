// Where an MCP server runs: inside the same bubblewrap sandbox as the terminal on Linux
// (no network, throwaway home, limits that bind root too), seeing only the system's
// programs, the folder of its own program (or the node_modules it sits in), its working
// directory (read-only, when the user gave one) and the folders named in its arguments
// (read-write: what the user shares with it). Elsewhere no such sandbox exists, and the environment says so in words.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import {
  checkBubblewrap,
  DEFAULT_SANDBOX_LIMITS,
  sandboxDescription,
  sandboxedCommand,
  writeSandboxFiles,
  type SandboxLimits,
  type SandboxMounts,
} from './bubblewrap';
import { RealEnvironmentError } from './environment';

export interface McpServerCommand {
  command: string;
  args: string[];
  cwd?: string;
  /** Extra environment variables for the server (the SDK passes only a safe default set otherwise). */
  env?: Record<string, string>;
}

/** How to start the server: the program, its arguments and environment, and where it runs. */
export interface McpLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** The throwaway folder of the sandbox, removed with the environment. */
  dir: string | null;
}

const SYSTEM_PREFIXES = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/'];

/** The folder a program file needs: its own, or the whole node_modules it sits in, so its packages resolve. */
function programFolder(file: string): string {
  const at = file.lastIndexOf(`${sep}node_modules${sep}`);
  return at >= 0 ? file.slice(0, at + `${sep}node_modules`.length) : dirname(file);
}

/** Folders the sandbox shows the server, read-only and read-write, judged from its command line. */
export function mcpMounts(server: McpServerCommand): SandboxMounts {
  const cwd = server.cwd ? resolve(server.cwd) : undefined;
  const readOnly = new Set<string>();
  const readWrite = new Set<string>();
  if (cwd) readOnly.add(cwd);
  // A program installed outside the system (nvm, a virtual environment): its whole installation.
  if (isAbsolute(server.command) && !SYSTEM_PREFIXES.some((p) => server.command.startsWith(p)) && existsSync(server.command)) {
    readOnly.add(dirname(dirname(server.command)));
  }
  for (const arg of server.args) {
    if (arg.startsWith('-') || arg.includes('\n')) continue;
    const path = resolve(cwd ?? process.cwd(), arg);
    if (!(isAbsolute(arg) || cwd) || !existsSync(path)) continue;
    if (statSync(path).isDirectory()) {
      // Sharing the whole system or the home folder would undo the sandbox: name a folder inside it.
      if (path === '/' || homedir().startsWith(path) || SYSTEM_PREFIXES.some((p) => `${path}/`.startsWith(p))) {
        throw new RealEnvironmentError(`The MCP server's arguments name ${path}; a sandboxed server may be given a folder of your own, not ${path === '/' ? 'the whole system' : homedir().startsWith(path) ? 'your whole home folder' : 'a system folder'}. Name a folder inside it.`, 'start-failed');
      }
      readWrite.add(path);
    }
    else readOnly.add(programFolder(path));
  }
  return { readOnly: [...readOnly], readWrite: [...readWrite], ...(cwd ? { chdir: cwd } : {}) };
}

export function mcpSandboxDescription(server: McpServerCommand | undefined, limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): string {
  if (process.platform !== 'linux') {
    return 'none: this platform has no bubblewrap, so the MCP server runs as your user, with a minimal environment';
  }
  if (!server) return sandboxDescription(limits, '; the server sees its working directory read-only and the folders named in its arguments');
  let mounts: SandboxMounts;
  try {
    mounts = mcpMounts(server);
  } catch (err) {
    return `refused: ${(err as Error).message}`;
  }
  const { readOnly = [], readWrite = [] } = mounts;
  const shown = [
    ...(readOnly.length ? [`read-only ${readOnly.join(', ')}`] : []),
    ...(readWrite.length ? [`read-write ${readWrite.join(', ')}`] : []),
  ];
  return sandboxDescription(limits, shown.length ? `; the server also sees ${shown.join('; ')}` : '; the server sees none of your files');
}

/** How to start `server` here: inside bubblewrap on Linux (refused without it), as is elsewhere. */
export function mcpLaunch(server: McpServerCommand, limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): McpLaunch {
  if (process.platform !== 'linux') {
    return { command: server.command, args: server.args, env: server.env ?? {}, ...(server.cwd ? { cwd: server.cwd } : {}), dir: null };
  }
  const dir = mkdtempSync(join(tmpdir(), 'worldloom-mcp-'));
  try {
    const files = writeSandboxFiles(dir, '');
    checkBubblewrap(files, 'an MCP server', 'a server');
    const mounts = mcpMounts(server);
    const env = Object.entries(server.env ?? {}).flatMap(([k, v]) => ['--setenv', k, v]);
    const launch = sandboxedCommand(files, limits, [server.command, ...server.args], mounts, env);
    // bwrap clears the environment for the server; it needs only a PATH to be found itself.
    return { command: launch.file, args: launch.args, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cwd: dir, dir };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
