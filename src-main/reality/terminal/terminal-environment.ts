// A real shell in the bubblewrap sandbox, driven through a pty (node-pty) so interactive
// programs behave as they would for a person. Inside the sandbox `script` gives the shell
// a terminal of its own: bwrap's --new-session detaches it from ours, and job control and
// Ctrl-C need a controlling terminal. A command is finished when the prompt comes back;
// the prompt ends with an invisible marker (an OSC escape carrying a per-session nonce and
// the exit status) that is found in the raw output and never reaches the observation.
// Printing that marker does not end a step: it counts only once the host sees, from outside
// the sandbox, that the shell holds the terminal again and waits in readline (shellState).
// Observations read like the asciinema importer's: the output, then the next prompt.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type IPty } from 'node-pty';
import { TerminalScreen } from '../../parsing/terminal-screen';
import { recordStep, RealEnvironmentError, type RealEnvironment, type RealLogEntry, type RealStep } from '../environment';
import {
  BASHRC_IN_SANDBOX,
  checkBubblewrap,
  DEFAULT_SANDBOX_LIMITS,
  SANDBOX_HOST,
  SANDBOX_USER,
  sandboxDescription,
  sandboxedCommand,
  writeSandboxFiles,
  type SandboxFiles,
  type SandboxLimits,
} from '../bubblewrap';
import { killForegroundGroup, killStartedSince, processesBelow, shellState } from './process-group';
import { DEFAULT_COMMAND_TIMEOUT_SECONDS, timedOutNote } from '../../common/terminal-timeout';

export interface TerminalLimits extends SandboxLimits {
  /** How long one command may run before it is stopped. */
  commandTimeoutMs: number;
  /** Output kept per command; the rest is dropped and the observation says so. */
  maxOutputBytes: number;
  cols: number;
  rows: number;
}

export const DEFAULT_TERMINAL_LIMITS: TerminalLimits = {
  ...DEFAULT_SANDBOX_LIMITS,
  commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_SECONDS * 1000,
  maxOutputBytes: 256 * 1024,
  cols: 120,
  rows: 40,
};

/** How long a printed marker may wait for the shell to be seen back at its prompt. */
const CONFIRM_MS = 3000;
const CONFIRM_POLL_MS = 5;

/** Raw output kept after the limit is reached, enough to hold the prompt that follows. */
const TAIL_BYTES = 4096;
/** Grace after Ctrl-C, then after SIGKILL, for the prompt to come back. */
const GRACE_MS = 1500;

interface Waiter {
  resolve: (exitStatus: number | null) => void;
  timer: NodeJS.Timeout;
}

export class TerminalEnvironment implements RealEnvironment {
  readonly domain = 'terminal' as const;
  readonly sandbox: string;
  readonly log: RealLogEntry[] = [];
  readonly limits: TerminalLimits;
  private readonly nonce = randomBytes(12).toString('hex');
  private readonly marker: RegExp;
  private dir: string | null = null;
  private pty: IPty | null = null;
  private readonly screen: TerminalScreen;
  private disposed = false;
  private pending = '';
  private outputBytes = 0;
  private truncated = false;
  private tail = '';
  private waiter: Waiter | null = null;
  private exited = false;
  private promptLine = '';
  private files: SandboxFiles | null = null;
  /** Lines handed out by the emulator before the step ended (long output), in order. */
  private flushed: string[] = [];
  /** A marker is being checked against the shell's state; output waits in `pending` meanwhile. */
  private confirming = false;

  constructor(limits: Partial<TerminalLimits> = {}) {
    this.limits = { ...DEFAULT_TERMINAL_LIMITS, ...limits };
    this.sandbox = sandboxDescription(this.limits, ' as working directory');
    this.screen = new TerminalScreen(this.limits.cols, this.limits.rows);
    this.marker = new RegExp(`\\x1b\\]777;worldloom;${this.nonce};(\\d+)\\x07`);
  }

  async start(): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'worldloom-terminal-'));
    this.dir = dir;
    const files = writeSandboxFiles(dir, this.bashrc());
    try {
      checkBubblewrap(files);
    } catch (err) {
      await this.dispose();
      throw err;
    }
    this.files = files;
    const { commandTimeoutMs } = this.limits;
    const shell = `exec /bin/bash --noprofile --rcfile ${BASHRC_IN_SANDBOX} -i`;
    const launch = sandboxedCommand(files, this.limits, ['/usr/bin/script', '-qfec', shell, '/dev/null']);
    this.pty = spawn(launch.file, launch.args, {
      name: 'xterm-256color',
      cols: this.limits.cols,
      rows: this.limits.rows,
      cwd: dir,
      env: { TERM: 'xterm-256color' },
    });
    this.pty.onData((data) => this.receive(data));
    this.pty.onExit(() => {
      this.exited = true;
      this.finishWait(null);
    });
    const status = await this.waitForPrompt(Math.max(commandTimeoutMs, 10_000));
    if (status === undefined) {
      const seen = this.screen.take().join('\n').trim();
      await this.dispose();
      throw new RealEnvironmentError(`The sandboxed shell did not show its prompt${seen ? `; it printed: ${seen.slice(0, 500)}` : ''}.`);
    }
    // The shell has read its startup file: empty it, so no command can read the marker's nonce there.
    writeFileSync(files.bashrc, '');
    const initial = this.takeLines().join('\n').replace(/\n+$/, '');
    this.promptLine = initial.split('\n').pop() ?? '';
    return initial;
  }

  description(): string {
    const { cols, rows, commandTimeoutMs } = this.limits;
    return (
      `Terminal environment recorded by Worldloom: bash as user ${SANDBOX_USER} on host ${SANDBOX_HOST} in a ${cols}×${rows} ` +
      `xterm-256color terminal, home /home/${SANDBOX_USER} (empty at the start), no network. Each action is a command line typed at ` +
      `the prompt; each observation is the screen text it printed, ending with the next prompt. Commands running longer than ` +
      `${commandTimeoutMs / 1000}s are stopped.`
    );
  }

  private bashrc(): string {
    // The prompt is the Debian default shape (user@host:cwd$), which the metrics and the
    // asciinema importer parse; the marker sits inside \[ \] so readline counts it as zero-width.
    return [
      `PS1='${SANDBOX_USER}@${SANDBOX_HOST}:\\w\\$ \\[\\e]777;worldloom;${this.nonce};$?\\a\\]'`,
      'unset PROMPT_COMMAND HISTFILE',
      'export COLUMNS LINES',
      '',
    ].join('\n');
  }

  step(action: string): Promise<RealStep> {
    return recordStep(this.log, action, () => this.run(action));
  }

  private async run(action: string): Promise<RealStep> {
    if (!this.pty || this.exited) throw new RealEnvironmentError('The sandboxed shell has exited; start a new real environment.');
    this.outputBytes = 0;
    this.truncated = false;
    this.tail = '';
    this.flushed = [];
    const command = action.replace(/\r?\n$/, '');
    // What runs before the step (the shell, jobs earlier steps left running) is not this step's to stop.
    const before = processesBelow(this.pty.pid);
    this.pty.write(command.replace(/\r?\n/g, '\r') + '\r');
    const seconds = Math.round(this.limits.commandTimeoutMs / 100) / 10;
    let status = await this.waitForPrompt(this.limits.commandTimeoutMs);
    let timedOut = false;
    let stoppedInBackground = 0;
    if (status === undefined && !this.exited) {
      timedOut = true;
      this.pty.write('\x03');
      status = await this.waitForPrompt(GRACE_MS);
      if (status === undefined && !this.exited) {
        killForegroundGroup(this.pty.pid);
        status = await this.waitForPrompt(GRACE_MS);
      }
      // Everything else the step started goes too: background jobs, nohup and setsid children.
      if (!this.exited && this.pty) stoppedInBackground = killStartedSince(this.pty.pid, before);
    }
    const lines = this.takeLines();
    // When the echoed command line wrapped, its continuation rows come first (joined into one line).
    const firstLine = command.split('\n')[0] ?? '';
    if (this.promptLine.length + 1 + firstLine.length > this.limits.cols) lines.shift();
    while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const prompt = status !== undefined && status !== null ? lines.pop() : undefined;
    const notes: string[] = [];
    if (this.truncated) notes.push(`[output truncated: only the first ${this.limits.maxOutputBytes} bytes of ${this.outputBytes} are shown]`);
    if (timedOut) notes.push(timedOutNote(seconds));
    if (stoppedInBackground > 0) notes.push(`[also stopped ${stoppedInBackground} background process${stoppedInBackground === 1 ? '' : 'es'} this command started]`);
    if (status === undefined || status === null) {
      notes.push('[the shell stopped responding and was closed]');
      await this.dispose();
    }
    if (prompt !== undefined) this.promptLine = prompt;
    const observation = [...lines, ...notes, ...(prompt !== undefined ? [prompt] : [])].join('\n');
    return {
      observation,
      details: {
        exitStatus: status ?? null,
        timedOut,
        truncated: this.truncated,
        outputBytes: this.outputBytes,
        ...(timedOut ? { timeoutSeconds: seconds, stoppedInBackground } : {}),
      },
    };
  }

  private receive(data: string): void {
    this.pending += data;
    if (this.confirming) return;
    const match = this.marker.exec(this.pending);
    let end = match ? match.index : this.pending.length;
    if (!match) {
      // An escape sequence still open at the end may be the start of the marker: keep it for the next chunk.
      const esc = this.pending.lastIndexOf('\x1b');
      if (esc >= 0 && this.pending.length - esc < 80 && !this.pending.includes('\x07', esc)) end = esc;
    }
    const text = this.pending.slice(0, end);
    this.pending = match ? this.pending.slice(match.index + match[0].length) : this.pending.slice(end);
    this.show(text);
    if (match) void this.confirmPrompt(Number(match[1]));
  }

  /**
   * A marker was printed: the step ends only if the shell really is back at its prompt. A
   * program that printed the marker itself is still the terminal's foreground job, so its
   * marker is dropped and the output after it is read on.
   */
  private async confirmPrompt(status: number): Promise<void> {
    const pid = this.pty?.pid;
    this.confirming = true;
    let state: ReturnType<typeof shellState> = 'gone';
    for (let waited = 0; pid !== undefined && waited < CONFIRM_MS; waited += CONFIRM_POLL_MS) {
      state = shellState(pid);
      if (state !== 'busy') break;
      await new Promise((r) => setTimeout(r, CONFIRM_POLL_MS));
    }
    this.confirming = false;
    if (state === 'prompt') {
      if (this.truncated) {
        // The prompt came after the dropped output: show the line it is on.
        this.screen.write('\r\n' + this.tail.slice(this.tail.lastIndexOf('\n') + 1));
      }
      this.finishWait(status);
    }
    if (this.pending) this.receive('');
  }

  /** The lines the emulator handed out during the step, then the rest of its screen. */
  private takeLines(): string[] {
    const lines = [...this.flushed, ...this.screen.takeShown()];
    this.flushed = [];
    return lines;
  }

  private show(text: string): void {
    if (!text) return;
    const bytes = Buffer.byteLength(text);
    const room = this.limits.maxOutputBytes - this.outputBytes;
    this.outputBytes += bytes;
    if (this.truncated || bytes > room) {
      if (!this.truncated && room > 0) this.write(text.slice(0, room));
      this.truncated = true;
      this.tail = (this.tail + text).slice(-TAIL_BYTES);
      return;
    }
    this.write(text);
  }

  /** Writes to the emulator, taking finished lines out before its scrollback would drop the oldest. */
  private write(text: string): void {
    this.screen.write(text);
    for (const line of this.screen.flushIfLarge()) this.flushed.push(line);
  }

  /** Resolves with the exit status when the prompt returns, null if the shell exited, undefined on time-out. */
  private waitForPrompt(ms: number): Promise<number | null | undefined> {
    if (this.exited) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve(undefined);
      }, ms);
      this.waiter = { resolve, timer };
    });
  }

  private finishWait(status: number | null): void {
    const w = this.waiter;
    if (!w) return;
    this.waiter = null;
    clearTimeout(w.timer);
    w.resolve(status);
  }

  async dispose(): Promise<void> {
    const pty = this.pty;
    this.pty = null;
    if (pty && !this.exited) {
      const exited = new Promise<void>((resolve) => pty.onExit(() => resolve()));
      pty.kill('SIGKILL');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    }
    if (!this.disposed) this.screen.dispose();
    this.disposed = true;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}
