// Runs commands in a real, throwaway bash session and returns what each one printed.
// The shell is interactive (so errors read "bash: foo: command not found", as a user
// sees them) but has no profile, no rc file, no line editing, an empty prompt and a
// minimal environment; HOME is a fresh temporary directory, removed afterwards. That
// directory's real path is written as /home/user in the recorded text, so recordings do
// not depend on where the temporary directory happened to be.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SHOWN_HOME = '/home/user';
const COMMAND_TIMEOUT_MS = 10_000;

export interface CommandResult {
  command: string;
  output: string;
}

export async function runBashSession(commands: readonly string[]): Promise<CommandResult[]> {
  const home = mkdtempSync(join(tmpdir(), 'worldloom-term-'));
  // stderr joins stdout before the interactive shell starts, so its messages keep their
  // order relative to output (two pipes would not) and its startup warnings come first.
  const shell = spawn('bash', ['--noprofile', '--norc', '-c', 'exec 2>&1; PS1= PS2= exec bash --noprofile --norc --noediting -i'], {
    cwd: home,
    env: { HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'dumb', PS1: '', PS2: '', USER: 'user', TZ: 'UTC' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let buffer = '';
  let waiting: (() => void) | null = null;
  const onData = (chunk: Buffer): void => {
    buffer += chunk.toString('utf8');
    waiting?.();
  };
  shell.stdout.on('data', onData);
  shell.stderr.on('data', onData);

  const until = (marker: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bash did not finish within ${COMMAND_TIMEOUT_MS} ms`)), COMMAND_TIMEOUT_MS);
      const check = (): void => {
        const at = buffer.indexOf(marker);
        if (at < 0) return;
        const text = buffer.slice(0, at);
        buffer = buffer.slice(at + marker.length);
        clearTimeout(timer);
        waiting = null;
        resolve(text);
      };
      waiting = check;
      check();
    });

  const results: CommandResult[] = [];
  try {
    // Everything printed before this marker (job-control warnings) is not part of the session.
    shell.stdin.write(`set +H; exec 2>&1; printf '__WL_READY__\\n'\n`);
    await until('__WL_READY__\n');
    for (let i = 0; i < commands.length; i++) {
      const command = commands[i]!;
      // The command runs in the current shell (a brace group, not a subshell) so cd and
      // variables carry over; stdin is /dev/null so nothing can read the script's own input.
      shell.stdin.write(`{ ${command}\n} </dev/null; printf '\\n__WL_DONE_${i}_%s__\\n' "$?"\n`);
      const raw = await until(`__WL_DONE_${i}_`);
      await until('__\n'); // past the exit status: an observation is what the agent sees, the output
      const output = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
      results.push({ command, output: output.split(home).join(SHOWN_HOME) });
    }
  } finally {
    shell.stdin.end('exit\n');
    await new Promise<void>((resolve) => {
      if (shell.exitCode !== null) resolve();
      else shell.once('exit', () => resolve());
      setTimeout(() => {
        shell.kill('SIGKILL');
        resolve();
      }, 2000).unref();
    });
    rmSync(home, { recursive: true, force: true });
  }
  return results;
}
