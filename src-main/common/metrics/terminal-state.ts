// Shell prompts and working directories in terminal screen text. A simulated terminal
// that prints the wrong directory in its prompt, or a `pwd` that disagrees with the real
// one, has lost track of the environment's state even when the rest of the text is close.
// The prompt grammar is shared with the asciinema importer, which splits casts on it. Pure.

export type PromptFamily = 'user@host' | 'bracket' | 'path' | 'bare';

export interface ShellPrompt {
  family: PromptFamily;
  /** The prompt as printed, up to and including its sigil ($, #, %, ❯). */
  prompt: string;
  /** What was typed after the prompt ('' for a bare prompt). */
  command: string;
  user?: string;
  host?: string;
  cwd?: string;
  sigil: string;
}

// An optional "(venv) " or "(base) " prefix, as Python environments add.
const ENV = String.raw`(?:\([^()\s]{1,40}\)\s+)?`;
const REST = String.raw`(?: (?<command>.*))?$`;
const PATTERNS: [PromptFamily, RegExp][] = [
  // Debian/Ubuntu bash `user@host:~/dir$ ` and zsh's `user@host dir % `.
  ['user@host', new RegExp(String.raw`^(?<prompt>${ENV}(?<user>[\w.-]+)@(?<host>[\w.-]+)(?::|\s+)(?<cwd>[^\s$#%]*)\s?(?<sigil>[$#%]))${REST}`, 'u')],
  // RHEL/Fedora bash `[user@host dir]$ `.
  ['bracket', new RegExp(String.raw`^(?<prompt>${ENV}\[(?<user>[\w.-]+)@(?<host>[\w.-]+)\s+(?<cwd>[^\]]*)\]\s?(?<sigil>[$#%]))${REST}`, 'u')],
  // A bare directory prompt `/app# ` or `~/src$ `.
  ['path', new RegExp(String.raw`^(?<prompt>${ENV}(?<cwd>[~/][^\s$#%]*)\s?(?<sigil>[$#%]))${REST}`, 'u')],
  // A sigil alone: `$ `, `# `, `% `, `❯ `.
  ['bare', new RegExp(String.raw`^(?<prompt>${ENV}(?<sigil>[$#%❯]))${REST}`, 'u')],
];

/** The prompt at the start of a screen line, if the line looks like one. */
export function parsePrompt(line: string): ShellPrompt | undefined {
  const text = line.replace(/\s+$/, '');
  for (const [family, re] of PATTERNS) {
    const g = re.exec(text)?.groups;
    if (!g) continue;
    const prompt: ShellPrompt = { family, prompt: g.prompt!, command: g.command ?? '', sigil: g.sigil! };
    if (g.user) prompt.user = g.user;
    if (g.host) prompt.host = g.host;
    if (g.cwd) prompt.cwd = g.cwd.trim();
    return prompt;
  }
  return undefined;
}

/** The last prompt in a screen text: the state the terminal was left in. */
export function lastPrompt(screen: string): ShellPrompt | undefined {
  const lines = screen.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const p = parsePrompt(lines[i]!);
    if (p && p.family !== 'bare') return p;
  }
  return undefined;
}

/** A working directory in one spelling: `~` expanded when the user is known, no trailing slash. */
export function normalizeCwd(cwd: string, user?: string): string {
  let path = cwd.trim();
  if (user && (path === '~' || path.startsWith('~/'))) path = (user === 'root' ? '/root' : `/home/${user}`) + path.slice(1);
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** What `pwd` printed: the first line of its output when it is an absolute path. */
export function pwdOutput(observation: string): string | undefined {
  const first = observation.replace(/^\s*\n/, '').split('\n', 1)[0]?.trim() ?? '';
  return /^\/\S*$/.test(first) ? first : undefined;
}

export interface TerminalConsistency {
  /** Share of the prompt's parts (user, host, directory, sigil) that agree; absent when the real text has no prompt. */
  prompt?: number;
  /** 1 when the working directories agree, 0 when not; absent when the real side shows none. */
  cwd?: number;
}

/**
 * Compares the state shown by the last prompt (and, when the action was `pwd`, its
 * output) of a simulated and a real terminal observation.
 */
export function terminalConsistency(simulated: string, real: string, action?: string): TerminalConsistency {
  const result: TerminalConsistency = {};
  const realPrompt = lastPrompt(real);
  const simPrompt = lastPrompt(simulated);
  if (realPrompt) {
    if (!simPrompt) result.prompt = 0;
    else {
      const parts = ['user', 'host', 'cwd', 'sigil'] as const;
      const present = parts.filter((p) => realPrompt[p] !== undefined);
      const same = present.filter((p) =>
        p === 'cwd'
          ? simPrompt.cwd !== undefined && normalizeCwd(simPrompt.cwd, simPrompt.user) === normalizeCwd(realPrompt.cwd!, realPrompt.user)
          : simPrompt[p] === realPrompt[p],
      );
      result.prompt = same.length / present.length;
    }
  }
  const isPwd = action !== undefined && /^\s*pwd\s*$/.test(action);
  const realCwd = (isPwd ? pwdOutput(real) : undefined) ?? (realPrompt?.cwd ? normalizeCwd(realPrompt.cwd, realPrompt.user) : undefined);
  if (realCwd !== undefined) {
    const simCwd = (isPwd ? pwdOutput(simulated) : undefined) ?? (simPrompt?.cwd ? normalizeCwd(simPrompt.cwd, simPrompt.user) : undefined);
    result.cwd = simCwd === realCwd ? 1 : 0;
  }
  return result;
}
