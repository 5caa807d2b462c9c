// Terminal perturbations: the shell and the programs it runs fail in the ways a real
// machine does. Output uses the exact wording of bash, coreutils, sudo, apt and ssh, so a
// model trained on these observations learns the real thing.
import { z } from 'zod';
import { defineKind } from '../kind';
import { DEFAULT_COMMAND_TIMEOUT_SECONDS, timedOutNote } from '../../terminal-timeout';
import { commandOf, isShellBuiltin, pathOf } from './action-hints';
import { joinOutput, keepLines, reshapeShellOutput } from './shell-output';

const commandNotFound = defineKind({
  id: 'terminal.command-not-found',
  domain: 'terminal',
  label: 'Command not found',
  description: 'The program the action runs is not installed; the shell answers with its not-found error and status 127.',
  params: z.object({
    command: z.string().default('').describe('Program that is missing; empty = the one the action runs'),
    shell: z.enum(['bash', 'zsh', 'sh']).default('bash'),
    installHint: z.string().default('').describe('Package Ubuntu suggests installing; empty = no hint'),
  }),
  instruction: (p, ctx) =>
    `The program \`${p.command || commandOf(ctx.action)}\` is not installed on this machine and is not on PATH. ` +
    `The ${p.shell} shell reports that the command was not found, prints nothing else, and the exit status is 127.` +
    (p.installHint ? ` Ubuntu's command-not-found helper suggests installing the package \`${p.installHint}\`.` : ''),
  transform(observation, p, _rng, ctx) {
    const cmd = p.command || commandOf(ctx.action);
    const message =
      p.installHint !== ''
        ? `Command '${cmd}' not found, but can be installed with:\nsudo apt install ${p.installHint}`
        : p.shell === 'zsh'
          ? `zsh: command not found: ${cmd}`
          : p.shell === 'sh'
            ? `sh: 1: ${cmd}: not found`
            : `bash: ${cmd}: command not found`;
    return reshapeShellOutput(observation, () => message, 127);
  },
  impossibleAt: (p, ctx) => {
    const cmd = p.command || commandOf(ctx.action, '');
    return cmd !== '' && isShellBuiltin(cmd) ? `\`${cmd}\` is a shell builtin: the shell runs it itself and never looks it up, so it cannot be "not found".` : null;
  },
});

// How coreutils programs word a refused open; other programs use the generic form.
const DENIED_WORDING: Record<string, (path: string) => string> = {
  ls: (path) => `ls: cannot open directory '${path}': Permission denied`,
  mkdir: (path) => `mkdir: cannot create directory '${path}': Permission denied`,
  touch: (path) => `touch: cannot touch '${path}': Permission denied`,
  rm: (path) => `rm: cannot remove '${path}': Permission denied`,
  cp: (path) => `cp: cannot create regular file '${path}': Permission denied`,
};

const permissionDenied = defineKind({
  id: 'terminal.permission-denied',
  domain: 'terminal',
  label: 'Permission denied',
  description: 'The user lacks permission on the file or directory the action touches.',
  params: z.object({
    path: z.string().default('').describe('Path that is refused; empty = the path in the action'),
    owner: z.string().default('root').describe('Owner of the path, for the instruction'),
  }),
  instruction: (p, ctx) =>
    `The current user has no permission on \`${p.path || pathOf(ctx.action, 'the target path')}\`, which is owned by ${p.owner}. ` +
    `The command fails with the program's usual "Permission denied" message and a non-zero exit status; no other output appears.`,
  transform(observation, p, _rng, ctx) {
    const cmd = commandOf(ctx.action);
    const path = p.path || pathOf(ctx.action, '/root');
    const wording = DENIED_WORDING[cmd];
    const message = wording ? wording(path) : `${cmd}: ${path}: Permission denied`;
    // ls exits 2 on a directory it cannot open ("serious trouble"); the rest exit 1.
    return reshapeShellOutput(observation, () => message, cmd === 'ls' ? 2 : 1);
  },
});

const diskFull = defineKind({
  id: 'terminal.disk-full',
  domain: 'terminal',
  label: 'Disk full (ENOSPC)',
  description: 'The filesystem fills up while the command writes: part of the output appears, then "No space left on device".',
  params: z.object({
    path: z.string().default('').describe('File being written; empty = the path in the action'),
    keepFraction: z.number().min(0).max(1).default(0.5).describe('Share of the output produced before the disk filled'),
  }),
  instruction: (p, ctx) =>
    `The filesystem holding \`${p.path || pathOf(ctx.action, 'the output file')}\` is full (0 bytes available). ` +
    `The command gets about ${Math.round(p.keepFraction * 100)}% through its work, then fails writing with ` +
    `"No space left on device" (ENOSPC) and exits with status 1.`,
  transform(observation, p, _rng, ctx) {
    const cmd = commandOf(ctx.action);
    const path = p.path || pathOf(ctx.action, '/tmp/output');
    return reshapeShellOutput(
      observation,
      (body) => joinOutput(keepLines(body, p.keepFraction), `${cmd}: error writing '${path}': No space left on device`),
      1,
    );
  },
});

const timeoutPartialOutput = defineKind({
  id: 'terminal.timeout-partial-output',
  domain: 'terminal',
  label: 'Partial output after timeout',
  description: 'The command runs past its time limit and is stopped mid-output.',
  // 2: the limit defaults to the real terminal's, a one-line output is cut mid-line, and SIGTERM leaves the terminal's timeout note.
  version: 2,
  params: z.object({
    seconds: z.number().int().positive().default(DEFAULT_COMMAND_TIMEOUT_SECONDS).describe("The command's time limit; the default is the real terminal's"),
    keepFraction: z.number().min(0).max(1).default(0.4).describe('Roughly how much of the output appears before the stop'),
    signal: z.enum(['TERM', 'KILL']).default('TERM').describe('TERM = stopped at the limit, status 124; KILL = "Killed", status 137'),
  }),
  instruction: (p) =>
    `The command does not finish within its ${p.seconds}-second limit. Only the first part of its output ` +
    `(about ${Math.round(p.keepFraction * 100)}%) appears, cut off mid-stream, then it is stopped with SIG${p.signal}` +
    (p.signal === 'KILL' ? ': the shell prints "Killed" and the exit status is 137.' : `: the terminal adds the line "${timedOutNote(p.seconds)}" and the exit status is 124.`),
  transform(observation, p, rng) {
    // A little jitter in the cut point so different seeds give different, equally plausible cuts.
    const fraction = Math.max(0, Math.min(1, p.keepFraction + (rng.next() - 0.5) * 0.2));
    return reshapeShellOutput(
      observation,
      (body) => joinOutput(cutOutput(body, fraction), p.signal === 'KILL' ? 'Killed' : timedOutNote(p.seconds)),
      p.signal === 'KILL' ? 137 : 124,
    );
  },
});

/** The first `fraction` of an output as a stream stopped there: by lines, or mid-line when there is only one. */
function cutOutput(body: string, fraction: number): string {
  if (body.includes('\n')) return keepLines(body, fraction);
  return [...body].slice(0, Math.floor([...body].length * fraction)).join('');
}

const interactivePrompt = defineKind({
  id: 'terminal.interactive-prompt',
  domain: 'terminal',
  label: 'Interactive prompt blocks',
  description: 'The command stops to ask for input (a password, a confirmation, a host key) and waits.',
  params: z.object({
    prompt: z.enum(['sudo-password', 'apt-confirm', 'ssh-host-key', 'overwrite']).default('sudo-password'),
    user: z.string().default('agent'),
    host: z.string().default('build.internal'),
  }),
  instruction: (p, ctx) =>
    `The command stops at an interactive prompt and waits for input that never comes: ${
      {
        'sudo-password': `sudo asks for the password of ${p.user}`,
        'apt-confirm': 'apt lists what it will install and asks "Do you want to continue? [Y/n]"',
        'ssh-host-key': `ssh does not know the host key of ${p.host} and asks whether to continue connecting`,
        overwrite: `${commandOf(ctx.action, 'cp')} asks whether to overwrite the destination file`,
      }[p.prompt]
    }. ` +
    `The observation ends with the prompt itself and no newline after it; the command has not exited, so there is no exit status and no new shell prompt.`,
  transform(observation, p, rng, ctx) {
    const path = pathOf(ctx.action, 'output.txt');
    const ip = `10.${rng.int(256)}.${rng.int(256)}.${1 + rng.int(254)}`;
    const fingerprint = Array.from({ length: 43 }, () => rng.pick([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'])).join('');
    const prompts = {
      'sudo-password': () => `[sudo] password for ${p.user}: `,
      'apt-confirm': (body: string) =>
        joinOutput(keepLines(body, 0.6), `After this operation, ${(rng.between(12, 900) / 10).toFixed(1)} MB of additional disk space will be used.`, 'Do you want to continue? [Y/n] '),
      'ssh-host-key': () =>
        `The authenticity of host '${p.host} (${ip})' can't be established.\nED25519 key fingerprint is SHA256:${fingerprint}.\n` +
        `This key is not known by any other names.\nAre you sure you want to continue connecting (yes/no/[fingerprint])? `,
      overwrite: () => `${commandOf(ctx.action, 'cp')}: overwrite '${path}'? `,
    };
    return reshapeShellOutput(observation, prompts[p.prompt], 'running');
  },
});

// Each UTF-8 byte of a character read back as one Windows-1252/Latin-1 character: the
// classic mojibake of a UTF-8 file shown in a non-UTF-8 locale.
function mojibake(ch: string): string {
  return Array.from(new TextEncoder().encode(ch), (b) => String.fromCharCode(b)).join('');
}

const encodingMess = defineKind({
  id: 'terminal.encoding-mess',
  domain: 'terminal',
  label: 'Locale / encoding mess',
  description: 'The locale is broken: a setlocale warning appears and non-ASCII text is garbled or replaced.',
  params: z.object({
    style: z.enum(['mojibake', 'replacement']).default('mojibake').describe('mojibake = UTF-8 read as Latin-1; replacement = "?" for non-ASCII'),
    rate: z.number().min(0).max(1).default(1).describe('Share of non-ASCII characters affected'),
    locale: z.string().default('en_US.UTF-8').describe('Locale named in the setlocale warning; empty = no warning'),
  }),
  instruction: (p) =>
    (p.locale ? `The locale ${p.locale} is not installed: bash prints "bash: warning: setlocale: LC_ALL: cannot change locale (${p.locale})" first. ` : '') +
    (p.style === 'mojibake'
      ? 'Non-ASCII characters in the output appear as UTF-8 bytes read as Latin-1 (é shows as Ã©).'
      : 'Non-ASCII characters in the output are replaced by "?".'),
  transform(observation, p, rng) {
    return reshapeShellOutput(observation, (body) => {
      const garbled = body.replace(/\P{ASCII}/gu, (ch) => (rng.chance(p.rate) ? (p.style === 'mojibake' ? mojibake(ch) : '?') : ch));
      return joinOutput(p.locale ? `bash: warning: setlocale: LC_ALL: cannot change locale (${p.locale})` : '', garbled);
    });
  },
});

export const TERMINAL_KINDS = [commandNotFound, permissionDenied, diskFull, timeoutPartialOutput, interactivePrompt, encodingMess];
