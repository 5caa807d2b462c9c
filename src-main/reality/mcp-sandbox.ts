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
  NOBODY,
  runsAsRoot,
  SANDBOX_HOME,
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
  /** The folders shared read-write with the server, as bound when it started. */
  shared: string[];
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
    return { command: server.command, args: server.args, env: server.env ?? {}, ...(server.cwd ? { cwd: server.cwd } : {}), dir: null, shared: [] };
  }
  const dir = mkdtempSync(join(tmpdir(), 'worldloom-mcp-'));
  try {
    const files = writeSandboxFiles(dir, '');
    checkBubblewrap(files, 'an MCP server', 'a server');
    const mounts = mcpMounts(server);
    checkReachable(mounts);
    checkEnvironmentPaths(server, mounts);
    const env = Object.entries(server.env ?? {}).flatMap(([k, v]) => ['--setenv', k, v]);
    const launch = sandboxedCommand(files, limits, [server.command, ...server.args], mounts, env);
    // bwrap clears the environment for the server; it needs only a PATH to be found itself.
    return { command: launch.file, args: launch.args, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cwd: dir, dir, shared: [...(mounts.readWrite ?? [])] };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Whether `path` is `folder` or inside it. */
const within = (path: string, folder: string) => path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);

/**
 * A root caller's sandbox runs as nobody, which must pass through every folder above a
 * shared one and read (and, when shared read-write, write) the folder itself. A private
 * temporary folder (0700, as mkdtemp makes them) would otherwise start a server that sees
 * nothing, or a bubblewrap that cannot bind it.
 */
function checkReachable(mounts: SandboxMounts): void {
  if (!runsAsRoot()) return;
  const allowed = (path: string, bits: number) => {
    const st = statSync(path);
    const shift = st.uid === NOBODY ? 6 : st.gid === NOBODY ? 3 : 0;
    return ((st.mode >> shift) & bits) === bits;
  };
  const folders = [...(mounts.readOnly ?? []).map((p) => [p, 0o5] as const), ...(mounts.readWrite ?? []).map((p) => [p, 0o7] as const)];
  for (const [folder, bits] of folders) {
    const blocked = [...ancestors(folder).map((p) => [p, 0o1] as const), [folder, bits] as const].find(([p, b]) => !allowed(p, b));
    if (!blocked) continue;
    const [path, need] = blocked;
    const mode = (statSync(path).mode & 0o777).toString(8).padStart(4, '0');
    throw new RealEnvironmentError(
      `The sandboxed MCP server cannot reach ${folder}: Worldloom runs as root, so the sandbox runs as nobody (uid ${NOBODY}), and ${path} (mode ${mode}) ` +
        `does not let others ${need === 0o1 ? 'pass through it' : need === 0o5 ? 'read it' : 'read and write it'}. ` +
        `Share a folder nobody may use (\`chmod o+${need === 0o1 ? 'x' : need === 0o5 ? 'rx' : 'rwx'} ${path}\`, or \`chown ${NOBODY} ${path}\`), or run Worldloom as a normal user.`,
      'start-failed',
    );
  }
}

function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let p = dirname(path); ; p = dirname(p)) {
    out.unshift(p);
    if (p === dirname(p)) return out;
  }
}

/**
 * An environment variable that names a file (MEMORY_FILE_PATH…) must name a place the
 * sandbox shows the server; elsewhere the server fails on its first write with a bare ENOENT.
 */
function checkEnvironmentPaths(server: McpServerCommand, mounts: SandboxMounts): void {
  const seen = ['/dev', '/proc', ...SYSTEM_PREFIXES.map((p) => p.slice(0, -1)), ...(mounts.readOnly ?? []), ...(mounts.readWrite ?? [])];
  for (const [name, value] of Object.entries(server.env ?? {})) {
    if (!value.startsWith('/') || value.includes(':') || value.includes('\n')) continue;
    const path = resolve(value);
    // The sandbox's /tmp and home are fresh and empty: a file directly in them can be made, one in a host subfolder cannot.
    if (seen.some((folder) => within(path, folder)) || [path, dirname(path)].some((p) => p === '/tmp' || p === SANDBOX_HOME)) continue;
    const shared = mounts.readWrite?.length ? mounts.readWrite.join(', ') : 'none: name a folder in its arguments to share it';
    throw new RealEnvironmentError(
      `${name} names ${value}, which the sandboxed MCP server cannot see: it sees the system's programs, its own program, the folders named in its arguments ` +
        `(read-write: ${shared}), and its own empty /tmp and home (${SANDBOX_HOME}), thrown away with the session. Put ${name} inside a shared folder to keep what the server writes, ` +
        `or directly in /tmp or ${SANDBOX_HOME} to keep it for this session only.`,
      'start-failed',
    );
  }
}
