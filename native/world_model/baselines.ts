// Baselines the nano model is measured against on the same held-out steps:
// - the prompt line: the terminal shows its prompt again and nothing else (what most
//   commands that print nothing do); empty for MCP and web, which have no prompt;
// - the previous observation, repeated;
// - a rule-based guess: for the terminal, the next prompt (with the directory a `cd`
//   moves to) after the messages real tools print (silent commands, echo with variables,
//   cat of a file it saw written, "No such file or directory" for files never mentioned,
//   "command not found", who/where am I); the MCP servers' usual success and error texts;
//   for the web, the page as last seen with the typed text filled in.
import type { RecordedStep, SessionDomain } from './paths';

export type Baseline = (domain: SessionDomain, initialState: string, history: readonly RecordedStep[], action: string) => string;

const lastObservation = (initialState: string, history: readonly RecordedStep[]): string => history.at(-1)?.observation ?? initialState;
const lastLine = (text: string): string => text.split('\n').at(-1) ?? '';

export const promptLineBaseline: Baseline = (domain, initialState, history) => (domain === 'terminal' ? lastLine(lastObservation(initialState, history)) : '');
export const previousBaseline: Baseline = (_domain, initialState, history) => lastObservation(initialState, history);

const HOME = '/home/agent';
const KNOWN_COMMANDS = new Set(['cat', 'head', 'tail', 'wc', 'grep', 'sort', 'uniq', 'ls', 'rm', 'cp', 'mv', 'cd', 'mkdir', 'touch',
  'echo', 'printf', 'pwd', 'export', 'unset', 'chmod', 'seq', 'tr', 'cut', 'nl', 'basename', 'test', 'expr', 'true', 'false',
  'env', 'rmdir', 'whoami', 'hostname', 'id', 'uname', 'python3', 'bash', 'which', 'type', 'du', 'printenv', 'nproc', 'date']);
const FIXED: Record<string, string> = {
  whoami: 'agent', hostname: 'sandbox', 'uname -s': 'Linux', 'uname -m': 'x86_64', 'echo $HOME': HOME, 'echo $USER': 'agent',
  'echo $SHELL': '/bin/bash', 'printenv HOME': HOME, id: 'uid=1000(agent) gid=1000(agent) groups=1000(agent)',
  'which python3': '/usr/bin/python3', 'which ls': '/usr/bin/ls', 'type cd': 'cd is a shell builtin',
};

const NOT_FOUND: Record<string, (f: string) => string> = {
  cat: (f) => `cat: ${f}: No such file or directory`,
  head: (f) => `head: cannot open '${f}' for reading: No such file or directory`,
  tail: (f) => `tail: cannot open '${f}' for reading: No such file or directory`,
  wc: (f) => `wc: ${f}: No such file or directory`,
  grep: (f) => `grep: ${f}: No such file or directory`,
  sort: (f) => `sort: cannot read: ${f}: No such file or directory`,
  ls: (f) => `ls: cannot access '${f}': No such file or directory`,
  rm: (f) => `rm: cannot remove '${f}': No such file or directory`,
  cp: (f) => `cp: cannot stat '${f}': No such file or directory`,
  mv: (f) => `mv: cannot stat '${f}': No such file or directory`,
  cd: (f) => `bash: cd: ${f}: No such file or directory`,
};

const unquote = (s: string): string => s.replace(/^(["'])(.*)\1$/s, '$2');

/** Files the earlier commands wrote, with the content they wrote where it is easy to tell. */
function knownFiles(history: readonly RecordedStep[]): Map<string, string | null> {
  const files = new Map<string, string | null>();
  for (const { action } of history) {
    let m: RegExpMatchArray | null;
    if ((m = action.match(/^echo (.*) > (\S+)$/))) files.set(m[2]!, unquote(m[1]!));
    else if ((m = action.match(/^printf '(.*)' > (\S+)$/))) files.set(m[2]!, m[1]!.replace(/\\n/g, '\n').replace(/\n$/, ''));
    else if ((m = action.match(/^cat > (\S+) << 'EOF'\n([\s\S]*)\nEOF$/))) files.set(m[1]!, m[2]!);
    else if ((m = action.match(/^(?:cp|mv) \S+ (\S+)$/))) files.set(m[1]!, null);
    for (const w of action.matchAll(/(?:>>|>|touch|mkdir(?: -p)?) (\S+)/g)) if (!files.has(w[1]!)) files.set(w[1]!, null);
  }
  return files;
}

/** The prompt after `action`, moving its directory when the action is a plain `cd`. */
function nextPrompt(prompt: string, action: string, known: (name: string) => boolean): string {
  const m = /^(.*@[^:]+:)(.*)(\$)$/.exec(prompt);
  const cd = /^cd(?: (\S+))?(?: && .*)?$/.exec(action) ?? /&& cd (\S+)$/.exec(action);
  if (!m || !cd) return prompt;
  const target = cd[1];
  let dir = m[2]!;
  if (!target || target === '~') dir = '~';
  else if (target === '..') dir = dir === '~' ? '/home' : dir.replace(/\/[^/]+$/, '') || '/';
  else if (known(target) || action.includes('mkdir')) dir = `${dir}/${target}`;
  return `${m[1]}${dir}${m[3]}`;
}

function terminalGuess(initialState: string, history: readonly RecordedStep[], action: string): string {
  const prompt = lastLine(lastObservation(initialState, history));
  const files = knownFiles(history);
  const mentioned = (name: string): boolean => files.has(name) || history.some((s) => s.action.includes(name) || s.observation.includes(name));
  const next = nextPrompt(prompt, action, mentioned);
  const answer = (body: string) => (body === '' ? next : `${body}\n${next}`);
  if (FIXED[action]) return answer(FIXED[action]);
  const words = action.split(/\s+/);
  const command = words[0]!;
  if (!KNOWN_COMMANDS.has(command) && !command.startsWith('./')) return answer(`bash: ${command}: command not found`);
  if (/(^|\s)>{1,2}\s/.test(action) || ['mkdir', 'touch', 'export', 'unset', 'chmod', 'true'].includes(command)) return answer('');
  const target = words.filter((w) => !w.startsWith('-') && !/^\d+$/.test(w)).slice(command === 'grep' ? 2 : 1)[0];
  if (target && NOT_FOUND[command] && !action.includes('|') && !action.includes('&&') && !mentioned(target)) return answer(NOT_FOUND[command]!(target));
  if (['cd', 'rm', 'cp', 'mv'].includes(command) && !action.includes('&&')) return answer('');
  const cwd = /:(~?[^$]*)\$$/.exec(next)?.[1]?.replace(/^~/, HOME) ?? HOME;
  if (command === 'pwd' || action.endsWith('&& pwd')) return answer(cwd);
  if (command === 'echo' && !action.includes('|')) {
    const vars = new Map<string, string>();
    for (const { action: a } of history) for (const m of a.matchAll(/(?:export )?(\w+)=(\S+)/g)) vars.set(m[1]!, m[2]!.replace(/;$/, ''));
    return answer(unquote(action.slice(5)).replace(/\$\{?(\w+)\}?/g, (_all, name: string) => vars.get(name) ?? (name === 'HOME' ? HOME : '')));
  }
  if (command === 'cat' && target && files.get(target)) return answer(files.get(target)!);
  return answer('');
}

const result = (text: string, isError = false): string =>
  JSON.stringify(isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }], structuredContent: { content: text } }, null, 2);

function mcpGuess(history: readonly RecordedStep[], action: string): string {
  let call: { name?: string; arguments?: Record<string, unknown> };
  try {
    call = JSON.parse(action) as typeof call;
  } catch {
    return '';
  }
  const path = String(call.arguments?.path ?? '');
  switch (call.name) {
    case 'write_file':
      return result(`Successfully wrote to ${path}`);
    case 'create_directory':
      return result(`Successfully created directory ${path}`);
    case 'read_text_file':
      return history.some((s) => s.action.includes(path)) ? '' : result(`ENOENT: no such file or directory, open '${path}'`, true);
    default:
      return history.at(-1)?.observation ?? '';
  }
}

function webGuess(initialState: string, history: readonly RecordedStep[], action: string): string {
  const page = lastObservation(initialState, history);
  const typed = /^type (\S+) (.*)$/s.exec(action);
  if (!typed) return page;
  let text = typed[2]!;
  if (text.startsWith('"')) {
    try {
      text = JSON.parse(text) as string;
    } catch {
      // typed as written
    }
  }
  return page.replace(new RegExp(`^(\\s*- textbox "[^"]*")([^\\n]*\\[ref=${typed[1]}\\])(:.*)?$`, 'm'), `$1$2${text ? `: ${text}` : ''}`);
}

export const heuristicBaseline: Baseline = (domain, initialState, history, action) =>
  domain === 'terminal' ? terminalGuess(initialState, history, action) : domain === 'mcp' ? mcpGuess(history, action) : webGuess(initialState, history, action);

export const BASELINES: [string, Baseline][] = [
  ['prompt line', promptLineBaseline],
  ['previous observation', previousBaseline],
  ['heuristic', heuristicBaseline],
];
