// What an action's text tells a perturbation: the command it runs, the path it touches,
// the element it targets, the tool it calls, the query it searches. Parameters left empty
// fall back to these, so a kind applied without configuration still names the right
// thing ("bash: ripgrep: command not found" for an action that ran ripgrep).

/** The action without surrounding code fences or a leading shell prompt. */
function unfenced(action: string): string {
  const fenced = /```[\w-]*\n([\s\S]*?)```/.exec(action);
  return (fenced ? fenced[1]! : action).trim();
}

/** The first command line of a shell action, without a prompt marker. */
export function shellLineOf(action: string): string {
  const line = unfenced(action).split('\n').find((l) => l.trim() !== '') ?? '';
  return line.trim().replace(/^(?:\$|#|>)\s+/, '');
}

const WRAPPERS = new Set(['sudo', 'time', 'nohup', 'exec', 'command', 'env', 'nice']);

/** Words of a shell line, honouring simple quotes; enough for naming things in messages. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

/** The program a shell action runs, skipping `sudo`, `time`, `VAR=value` and the like. */
export function commandOf(action: string, fallback = 'cmd'): string {
  const words = shellWords(shellLineOf(action).split(/\s*(?:\|\||&&|[|;])\s*/)[0] ?? '');
  const cmd = words.find((w) => !WRAPPERS.has(w) && !/^\w+=/.test(w) && !w.startsWith('-'));
  return cmd ?? fallback;
}

// Shell builtins and keywords (bash's `help` list, POSIX special builtins included): the
// shell runs them itself and never looks them up on PATH, so they can never be "not found".
const SHELL_BUILTINS = new Set(
  (
    '. : [ [[ alias bg bind break builtin caller case cd command compgen complete compopt continue coproc declare dirs disown ' +
    'echo enable eval exec exit export false fc fg for function getopts hash help history if jobs kill let local logout ' +
    'mapfile popd printf pushd pwd read readarray readonly return select set shift shopt source suspend test time times ' +
    'trap true type typeset ulimit umask unalias unset until wait while'
  ).split(' '),
);

/** Whether the shell runs `command` itself (a builtin or keyword) rather than a program on PATH. */
export function isShellBuiltin(command: string): boolean {
  return SHELL_BUILTINS.has(command);
}

/** Arguments of the program a shell action runs (after `commandOf`). */
export function commandArgs(action: string): string[] {
  const words = shellWords(shellLineOf(action).split(/\s*(?:\|\||&&|[|;])\s*/)[0] ?? '');
  const at = words.indexOf(commandOf(action, ''));
  return at < 0 ? [] : words.slice(at + 1);
}

const PATHISH = /^(?:~?\/|\.{1,2}\/)|\/|\.[A-Za-z0-9]{1,6}$/;

/** The last path-like argument of a shell action (the target of cp, the file of cat). */
export function pathOf(action: string, fallback: string): string {
  const args = commandArgs(action).filter((a) => !a.startsWith('-') && !a.startsWith('>') && PATHISH.test(a));
  return args[args.length - 1] ?? fallback;
}

/** The first quoted string of an action: `click "Place order"` → `Place order`. */
export function quotedOf(action: string): string | undefined {
  const m = /"([^"\n]+)"|'([^'\n]+)'|“([^”\n]+)”/.exec(action);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/** An action parsed as JSON when it is an object, else undefined. */
function jsonObjectOf(action: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(unfenced(action));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The tool an MCP action calls: `{"name": …}`, a JSON-RPC `tools/call`, or `tool_name(…)`. */
export function toolNameOf(action: string, fallback = 'tool'): string {
  const json = jsonObjectOf(action);
  if (json) {
    const params = json['params'] as Record<string, unknown> | undefined;
    for (const candidate of [json['name'], json['tool'], json['tool_name'], params?.['name']]) {
      if (typeof candidate === 'string' && candidate) return candidate;
    }
  }
  return /([A-Za-z_][\w.-]*)\s*\(/.exec(action)?.[1] ?? fallback;
}

/** What a search action searches for: a JSON `query`, `search("…")`, a quoted string, else the text. */
export function queryOf(action: string): string {
  const json = jsonObjectOf(action);
  const args = (json?.['arguments'] ?? json) as Record<string, unknown> | undefined;
  for (const key of ['query', 'q', 'search_query']) {
    const v = args?.[key];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  const quoted = quotedOf(action);
  if (quoted) return quoted;
  return unfenced(action).replace(/^\s*(?:search|query)\s*[:(]?\s*/i, '').replace(/\)\s*$/, '').trim();
}

/** The element an action targets: a quoted name, or a `[ref=…]`/`#id` reference. */
export function targetOf(action: string): string | undefined {
  return quotedOf(action) ?? /\bref=([\w-]+)/.exec(action)?.[1];
}
