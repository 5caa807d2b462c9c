// The sandbox every real environment runs in on Linux: bubblewrap (Debian package
// `bubblewrap`). Fresh namespaces for everything, a user namespace included (no network,
// own PIDs and hostname), a read-only view of the system's programs and libraries only,
// and a throwaway home. passwd/group/hostname are written for the sandbox, so the host's
// accounts and secrets stay out of sight.
//
// Limits must hold for root too. Root is exempt from RLIMIT_NPROC, and bubblewrap maps the
// sandbox user onto the caller, so a root caller first becomes `nobody` (setpriv): inside,
// the sandbox user is an unprivileged uid, its process count is its own, and files only root
// may read stay unreadable. The limits are set inside (bash's ulimit sets soft and hard
// limits, which no process there may raise again): processes, address space, file size.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, lstatSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RealEnvironmentError } from './environment';

export const SANDBOX_USER = 'agent';
export const SANDBOX_HOST = 'sandbox';
export const SANDBOX_HOME = `/home/${SANDBOX_USER}`;
export const SANDBOX_UID = 1000;
/** Who a root caller becomes before it starts the sandbox, and the program that makes it so. */
export const NOBODY = 65534;
const SETPRIV = '/usr/bin/setpriv';

/** What a shell and its programs need: programs and libraries, not /opt or /srv. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** /etc entries programs need to run (dynamic loader, Debian alternatives, terminfo, TLS roots, not TLS keys). */
const ETC_ENTRIES = [
  'alternatives', 'ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'nsswitch.conf', 'localtime', 'terminfo', 'inputrc',
  'ssl/certs', 'os-release', 'debian_version', 'mime.types', 'magic', 'protocols', 'services',
];

export interface SandboxLimits {
  /** Processes the sandbox user may have at once. */
  maxProcesses: number;
  /** Address space of each process (RLIMIT_AS). */
  maxMemoryBytes: number;
  /** The largest file a command may write. */
  maxFileBytes: number;
  /** All of the home folder together: a RAM-backed tmpfs of this size, never the host's disk. */
  maxHomeBytes: number;
  /** All of /tmp together (RAM-backed tmpfs). */
  maxTmpBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  maxProcesses: 256,
  maxMemoryBytes: 2 * 1024 * 1024 * 1024,
  maxFileBytes: 256 * 1024 * 1024,
  // Both are RAM: 384 MiB per sandbox at most, and at most MAX_SANDBOXES sandboxes at once
  // (registry.ts), so files written in sandboxes hold at most 1.5 GiB of the host's memory.
  maxHomeBytes: 256 * 1024 * 1024,
  maxTmpBytes: 128 * 1024 * 1024,
};

export interface SandboxFiles {
  /** The host folder that holds the files below; given to the sandbox user when the caller is root. */
  dir: string;
  /** The seccomp filter (classic BPF) bwrap loads from a file descriptor: no TIOCSTI. */
  seccomp: string;
  passwd: string;
  group: string;
  hostname: string;
  bashrc: string;
}

export const BASHRC_IN_SANDBOX = '/etc/worldloom/bashrc';

export interface SandboxMounts {
  /** Host paths visible read-only at the same place (a program's own folder). */
  readOnly?: readonly string[];
  /** Host paths visible read-write at the same place (folders the user shared). */
  readWrite?: readonly string[];
  /** Working directory inside (default: the throwaway home). */
  chdir?: string;
}

function bindSystemPath(path: string): string[] {
  if (!existsSync(path)) return [];
  // Merged-/usr systems have /bin -> usr/bin: keep the link rather than binding twice.
  if (lstatSync(path).isSymbolicLink()) return ['--symlink', readlinkSync(path), path];
  return ['--ro-bind', path, path];
}

export const runsAsRoot = () => process.getuid?.() === 0;

/** bwrap's arguments, up to (not including) the program to run inside. */
export function bubblewrapArgs(files: SandboxFiles, mounts: SandboxMounts = {}, limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): string[] {
  return [
    '--die-with-parent',
    // setsid: a program inside cannot push keystrokes into the outer terminal (TIOCSTI).
    '--new-session',
    '--unshare-all',
    '--unshare-net',
    // Explicit: as root bwrap would otherwise skip the user namespace and run everything as root.
    '--unshare-user',
    '--uid', String(SANDBOX_UID),
    '--gid', String(SANDBOX_UID),
    '--hostname', SANDBOX_HOST,
    ...SYSTEM_DIRS.flatMap(bindSystemPath),
    ...ETC_ENTRIES.flatMap((e) => (existsSync(`/etc/${e}`) ? ['--ro-bind', `/etc/${e}`, `/etc/${e}`] : [])),
    '--ro-bind', files.passwd, '/etc/passwd',
    '--ro-bind', files.group, '/etc/group',
    '--ro-bind', files.hostname, '/etc/hostname',
    '--ro-bind', files.bashrc, BASHRC_IN_SANDBOX,
    '--proc', '/proc',
    '--dev', '/dev',
    // Home and /tmp are bounded in total, not only per file (bwrap 0.8's --size applies to the next --tmpfs).
    '--size', String(limits.maxTmpBytes), '--perms', '1777', '--tmpfs', '/tmp',
    '--size', String(limits.maxHomeBytes), '--perms', '0700', '--tmpfs', SANDBOX_HOME,
    ...(mounts.readOnly ?? []).flatMap((p) => ['--ro-bind', p, p]),
    ...(mounts.readWrite ?? []).flatMap((p) => ['--bind', p, p]),
    '--chdir', mounts.chdir ?? SANDBOX_HOME,
    // Everything outside home, /tmp and shared folders is read-only, including the sandbox's own root.
    '--remount-ro', '/',
    '--clearenv',
    '--setenv', 'HOME', SANDBOX_HOME,
    '--setenv', 'USER', SANDBOX_USER,
    '--setenv', 'LOGNAME', SANDBOX_USER,
    '--setenv', 'SHELL', '/bin/bash',
    '--setenv', 'PATH', '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin',
    '--setenv', 'TERM', 'xterm-256color',
    '--setenv', 'LANG', 'C.UTF-8',
  ];
}

/**
 * A bash line that sets the limits (soft and hard) and then runs the program given after it.
 * A limit bash cannot set is one the caller already holds lower: that stricter one stays.
 */
export function limitsPrefix(limits: Pick<SandboxLimits, 'maxProcesses' | 'maxMemoryBytes' | 'maxFileBytes'>): string {
  // bash's ulimit counts -v and -f in KiB (1024-byte blocks, not POSIX's 512 outside POSIX mode).
  const kib = (bytes: number) => Math.max(1, Math.floor(bytes / 1024));
  return [`ulimit -u ${limits.maxProcesses}`, `ulimit -v ${kib(limits.maxMemoryBytes)}`, `ulimit -f ${kib(limits.maxFileBytes)}`]
    .map((set) => `${set} 2>/dev/null;`)
    .concat('exec "$@"')
    .join(' ');
}

/**
 * The command that starts `program` in the sandbox under `limits`: a root caller becomes
 * nobody first; bash inside sets the limits and then becomes the program.
 */
export function sandboxedCommand(
  files: SandboxFiles,
  limits: SandboxLimits,
  program: readonly string[],
  mounts: SandboxMounts = {},
  extraArgs: readonly string[] = [],
): { file: string; args: string[] } {
  // bwrap reads its seccomp filter from a descriptor; node-pty passes none but the terminal's,
  // so a shell opens the file on descriptor 3 and becomes bwrap.
  const bwrap = [
    '/bin/sh', '-c', `exec "$@" ${SECCOMP_FD}<"$0"`, files.seccomp,
    bubblewrapPath(), '--seccomp', String(SECCOMP_FD), ...bubblewrapArgs(files, mounts, limits), ...extraArgs,
    '/bin/bash', '-c', limitsPrefix(limits), 'worldloom-sandbox', ...program,
  ];
  if (!runsAsRoot()) return { file: bwrap[0]!, args: bwrap.slice(1) };
  return {
    file: SETPRIV,
    args: [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--no-new-privs', '--', ...bwrap],
  };
}

const SECCOMP_FD = 3;

/**
 * A seccomp filter that refuses ioctl(TIOCSTI) with EPERM and allows everything else.
 * TIOCSTI pushes bytes into a terminal's input as if typed; inside the sandbox that terminal
 * is the shell's own, so a program could type commands into the next prompt. The filter is
 * classic BPF over struct seccomp_data (nr at 0, arch at 4, args[1]'s low word at 24: ioctl's
 * request is 32 bits; little-endian hosts). It covers each ABI a process here could call ioctl through: x86-64,
 * x32 and i386 on an x86-64 host, aarch64 and arm on an arm64 one.
 */
export function noTiocstiFilter(): Buffer {
  const TIOCSTI = 0x5412;
  const ALLOW = 0x7fff0000;
  const EPERM = 0x00050000 | 1;
  const ioctlByArch: [number, number[]][] = [
    [0xc000003e, [16, 0x40000000 + 514]], // x86-64 and x32
    [0x40000003, [54]], // i386
    [0xc00000b7, [29]], // aarch64
    [0x40000028, [54]], // arm
  ];
  type Insn = { code: number; k: number; jt?: string; jf?: string; label?: string };
  const ld = (offset: number, label?: string): Insn => ({ code: 0x20, k: offset, label });
  const jeq = (k: number, jt: string, jf: string): Insn => ({ code: 0x15, k, jt, jf });
  const ret = (k: number, label?: string): Insn => ({ code: 0x06, k, label });
  const prog: Insn[] = [ld(4)];
  ioctlByArch.forEach(([arch], i) => prog.push(jeq(arch, `arch${i}`, i + 1 < ioctlByArch.length ? `+` : 'allow')));
  prog.push(ret(ALLOW, 'allow'));
  ioctlByArch.forEach(([, nrs], i) => {
    prog.push(ld(0, `arch${i}`));
    nrs.forEach((nr, j) => prog.push(jeq(nr, 'request', j + 1 < nrs.length ? '+' : 'allow-end')));
  });
  // Classic BPF jumps only forward, hence a second "allow" at the end.
  prog.push(ld(24, 'request'), jeq(TIOCSTI, 'deny', 'allow-end'), ret(EPERM, 'deny'), ret(ALLOW, 'allow-end'));
  const at = (label: string, from: number) => {
    if (label === '+') return 0;
    const to = prog.findIndex((insn) => insn.label === label);
    return to - from - 1;
  };
  const out = Buffer.alloc(prog.length * 8);
  prog.forEach((insn, i) => {
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(insn.jt ? at(insn.jt, i) : 0, i * 8 + 2);
    out.writeUInt8(insn.jf ? at(insn.jf, i) : 0, i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** Writes the sandbox's own passwd, group, hostname and bashrc under `dir` (a fresh temporary folder); its home is a tmpfs. */
export function writeSandboxFiles(dir: string, bashrc: string): SandboxFiles {
  const files: SandboxFiles = { dir, seccomp: join(dir, 'seccomp.bpf'), passwd: join(dir, 'passwd'), group: join(dir, 'group'), hostname: join(dir, 'hostname'), bashrc: join(dir, 'bashrc') };
  const accounts = sandboxAccountFiles();
  writeFileSync(files.passwd, accounts.passwd);
  writeFileSync(files.group, accounts.group);
  writeFileSync(files.hostname, accounts.hostname);
  writeFileSync(files.bashrc, bashrc, { mode: 0o600 });
  writeFileSync(files.seccomp, noTiocstiFilter());
  if (runsAsRoot()) {
    // The sandbox starts as nobody, which must reach these files.
    for (const p of [dir, ...readdirSync(dir).map((n) => join(dir, n))]) chownSync(p, NOBODY, NOBODY);
  }
  return files;
}

function sandboxAccountFiles(): { passwd: string; group: string; hostname: string } {
  return {
    passwd: `root:x:0:0:root:/root:/usr/sbin/nologin\n${SANDBOX_USER}:x:${SANDBOX_UID}:${SANDBOX_UID}:Worldloom sandbox:${SANDBOX_HOME}:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    group: `root:x:0:\n${SANDBOX_USER}:x:${SANDBOX_UID}:\nnogroup:x:65534:\n`,
    hostname: `${SANDBOX_HOST}\n`,
  };
}

const INSTALL_HINT =
  'Install bubblewrap 0.8 or later, which sizes its tmpfs mounts (Debian 12+/Ubuntu 23.04+: `sudo apt-get install bubblewrap`; Fedora: `sudo dnf install bubblewrap`) ' +
  'and allow unprivileged user namespaces (kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04 an AppArmor profile for bwrap).';

export function bubblewrapPath(): string {
  return process.env.WORLDLOOM_BWRAP ?? '/usr/bin/bwrap';
}

/**
 * Checks that bubblewrap exists and can create the namespaces the sandbox needs; throws
 * a RealEnvironmentError that says how to fix it. A real environment never runs without it.
 */
export function checkBubblewrap(files: SandboxFiles, what = 'a real terminal', thing = 'a shell'): void {
  const bwrap = bubblewrapPath();
  if (process.platform !== 'linux') {
    throw new RealEnvironmentError(`Running ${what} needs bubblewrap, which runs on Linux only; this is ${process.platform}. Record on a Linux machine, or import a recording.`, 'no-sandbox');
  }
  if (!existsSync(bwrap)) {
    throw new RealEnvironmentError(`Cannot run ${what}: bubblewrap (${bwrap}) is not installed, and Worldloom never runs ${thing} without a sandbox. ${INSTALL_HINT}`, 'no-sandbox');
  }
  if (runsAsRoot() && !existsSync(SETPRIV)) {
    throw new RealEnvironmentError(
      `Cannot run ${what} as root: the sandbox starts as nobody through setpriv (${SETPRIV}), which is missing. Install util-linux (Debian/Ubuntu: \`sudo apt-get install util-linux\`), or run Worldloom as a normal user.`,
      'no-sandbox',
    );
  }
  const probe = sandboxedCommand(files, DEFAULT_SANDBOX_LIMITS, ['/bin/true']);
  const run = spawnSync(probe.file, probe.args, { encoding: 'utf8', timeout: 10_000 });
  if (run.status !== 0) {
    const why = (run.stderr || run.error?.message || `exit status ${run.status}`).trim();
    throw new RealEnvironmentError(`Cannot run ${what}: bubblewrap could not create its sandbox (${why}). Worldloom never runs ${thing} without a sandbox. ${INSTALL_HINT}`, 'no-sandbox');
  }
}

export function sandboxDescription(limits: SandboxLimits, extra = ''): string {
  const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
  const gib = (limits.maxMemoryBytes / 2 ** 30).toFixed(limits.maxMemoryBytes % 2 ** 30 ? 1 : 0);
  return (
    `bubblewrap: no network, own user, process and hostname namespaces${runsAsRoot() ? ' (started as nobody, not root)' : ''}, ` +
    `read-only system, throwaway home${extra}; at most ${limits.maxProcesses} processes and ${gib} GiB of memory per process, ` +
    `${mib(limits.maxHomeBytes)} MiB in home and ${mib(limits.maxTmpBytes)} MiB in /tmp`
  );
}

export const SANDBOX_DESCRIPTION = sandboxDescription(DEFAULT_SANDBOX_LIMITS, ' as working directory');
