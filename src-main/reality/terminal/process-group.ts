// Stopping what runs in the sandboxed terminal's foreground. The sandbox has its own PID
// namespace, but the host's /proc still lists its processes under host PIDs, and the
// shell's `tpgid` (the terminal's foreground process group) is reported in host PIDs too.
import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  pgrp: number;
  tpgid: number;
  /** Clock ticks after boot when it started: with the PID, names one process even if the PID is reused. */
  starttime: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may itself contain spaces or ')'.
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const f = text.slice(close + 2).split(' ');
    return { pid, comm, ppid: Number(f[1]), pgrp: Number(f[2]), tpgid: Number(f[5]), starttime: Number(f[19]) };
  } catch {
    return undefined; // the process ended while we looked
  }
}

/** Every process below `rootPid`, in host PIDs. */
export function descendants(rootPid: number): ProcStat[] {
  const all = readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .flatMap((n) => readStat(Number(n)) ?? []);
  const below = new Set([rootPid]);
  const found: ProcStat[] = [];
  // Parents may be listed after their children, so repeat until nothing new is found.
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!below.has(p.pid) && below.has(p.ppid)) {
        below.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

/**
 * Kills the foreground process group of the interactive shell below `rootPid` (the
 * command that overran its time), leaving the shell itself alive. Returns whether one was killed.
 */
export function killForegroundGroup(rootPid: number, shellName = 'bash'): boolean {
  const shell = interactiveShell(descendants(rootPid), shellName);
  if (!shell || shell.tpgid <= 0 || shell.tpgid === shell.pgrp) return false;
  try {
    process.kill(-shell.tpgid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

/** The PIDs below `rootPid` now: taken when a step starts, so a time-out stops only what came after. */
export function processesBelow(rootPid: number): Set<string> {
  return new Set(descendants(rootPid).map(processKey));
}

const processKey = (p: ProcStat) => `${p.pid}:${p.starttime}`;

/**
 * Kills every process below `rootPid` that was not there before (`before`) except the
 * interactive shell and what it runs inside of (bwrap, script). A background job (`cmd &`),
 * `nohup` or `setsid` has left the shell's process group, and once its parent ends it is
 * reparented to the sandbox's init (bwrap, PID 1 of its PID namespace), still below
 * `rootPid`: so the sweep goes by descent, not by group. A job may fork while it is swept,
 * so it repeats until nothing new is left. Returns how many processes were killed.
 */
export function killStartedSince(rootPid: number, before: ReadonlySet<string>, shellName = 'bash'): number {
  let killed = 0;
  for (let round = 0; round < 50; round++) {
    const procs = descendants(rootPid);
    const shell = interactiveShell(procs, shellName);
    // The shell and its ancestors up to rootPid are the environment itself, never swept.
    const keep = new Set<number>();
    for (let p = shell; p; p = procs.find((q) => q.pid === p!.ppid)) keep.add(p.pid);
    const targets = procs.filter((p) => !keep.has(p.pid) && !before.has(processKey(p)));
    if (targets.length === 0) break;
    for (const p of targets) {
      try {
        // SIGSTOP first everywhere would be tidier, but SIGKILL cannot be caught, and the loop catches forks.
        process.kill(p.pid, 'SIGKILL');
        killed++;
      } catch {
        // already gone
      }
    }
  }
  return killed;
}

/** The interactive shell below `rootPid`: the outermost bash (a bash run by a command sits below it). */
function interactiveShell(procs: readonly ProcStat[], shellName: string): ProcStat | undefined {
  // script runs it: a bash that a setsid job left behind, reparented to the sandbox's init, is not it.
  const comm = (pid: number) => procs.find((q) => q.pid === pid)?.comm;
  const underScript = procs.find((p) => p.comm === shellName && comm(p.ppid) === 'script' && comm(procs.find((q) => q.pid === p.ppid)!.ppid) !== shellName);
  if (underScript) return underScript;
  return procs.find((p) => p.comm === shellName && procs.every((q) => q.pid !== p.ppid || q.comm !== shellName));
}

/** System calls readline waits in at a prompt (x86-64 and aarch64 numbers: pselect6, ppoll, poll). */
const READLINE_WAITS = new Set([270, 271, 7, 72, 73]);

/**
 * Where the interactive shell is, judged from outside the sandbox where nothing inside can
 * forge it: `prompt` when it holds the terminal and waits in readline, `job` while a
 * program runs in the foreground, `busy` while the shell itself works, `gone` without a shell.
 */
export function shellState(rootPid: number, shellName = 'bash'): 'prompt' | 'job' | 'busy' | 'gone' {
  const shell = interactiveShell(descendants(rootPid), shellName);
  if (!shell) return 'gone';
  const now = readStat(shell.pid);
  if (!now) return 'gone';
  if (now.tpgid !== now.pgrp) return 'job';
  let syscall: string;
  try {
    syscall = readFileSync(`/proc/${shell.pid}/syscall`, 'utf8');
  } catch {
    // Kernels that hide the system call: holding the terminal is the best sign left.
    return 'prompt';
  }
  const nr = Number(syscall.split(' ')[0]);
  return READLINE_WAITS.has(nr) ? 'prompt' : 'busy';
}
