// Picks the commands of one terminal trajectory: a plausible agent working in an empty
// home directory (files, text tools, pipes, variables, cd/pwd, a look at the system) that
// now and then runs a command that fails. The generator only tracks enough state to choose
// sensible commands; what they print always comes from the app's real terminal
// environment (record-terminal.ts).
import type { Rng } from './rng';

const FILES = ['notes.txt', 'todo.txt', 'data.csv', 'log.txt', 'names.txt', 'config.ini', 'report.md', 'readme.txt',
  'list.txt', 'words.txt', 'fruits.txt', 'cities.txt', 'numbers.txt', 'hosts.txt', 'errors.log', 'access.log',
  'items.txt', 'users.txt', 'colors.txt', 'summary.md', 'input.txt', 'output.txt', 'draft.txt', 'tasks.md'];
const DIRS = ['src', 'docs', 'tmp', 'data', 'logs', 'backup', 'project', 'build', 'notes', 'archive', 'reports', 'bin'];
const WORDS = ['apple', 'banana', 'cherry', 'grape', 'lemon', 'mango', 'kiwi', 'peach', 'plum', 'melon', 'paris',
  'london', 'berlin', 'tokyo', 'oslo', 'rome', 'alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'red', 'green',
  'blue', 'yellow', 'error', 'warning', 'info', 'debug', 'start', 'stop', 'ready', 'done', 'todo', 'alpha', 'beta',
  'gamma', 'delta', 'server', 'client', 'cache', 'disk', 'queue'];
const VARS = ['NAME', 'GREETING', 'COLOR', 'CITY', 'MODE', 'LEVEL', 'TARGET', 'USER_ID', 'APP_ENV', 'COUNT'];
const TYPOS = ['gti status', 'pyhton3 main.py', 'sl', 'cta notes.txt', 'grpe error log.txt', 'lss', 'ecoh hello',
  'mkdri src', 'tocuh file.txt', 'clar', 'whcih bash', 'nodee app.js', 'car todo.txt', 'suod ls', 'pwdd', 'cd..'];

/**
 * The names one session works with. The classic lists are short, so a model trained on them
 * alone can recall a name from the list instead of copying it from the action; a coined
 * vocabulary (made up per session from syllables and a larger word list) forces copying and
 * adds column-wise text tools (sort -k, awk, cut -d, ls -R, seq with a step).
 */
export interface Vocabulary {
  files: readonly string[];
  dirs: readonly string[];
  words: readonly string[];
  vars: readonly string[];
  coined: boolean;
  /** Also python3, sed, diff, sh scripts, loops and conditions, logs and JSON (wideVocabulary). */
  wide?: boolean;
}

export const CLASSIC_VOCABULARY: Vocabulary = { files: FILES, dirs: DIRS, words: WORDS, vars: VARS, coined: false };

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'br', 'cr', 'dr',
  'fl', 'gr', 'kl', 'pl', 'pr', 'sh', 'st', 'tr', 'ch', 'th', 'sp', 'sk', 'bl', 'gl', 'qu', 'sn', 'wh'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'o', 'ai', 'ea', 'io', 'ou', 'y', 'ee'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'm', 'k', 'x', 'nd', 'st', 'rk', 'ng', 'sh', 'th', 'll', 'p', 'ck'];
const MORE_WORDS = ['window', 'rocket', 'silver', 'orange', 'pepper', 'harbor', 'forest', 'river', 'castle', 'engine',
  'market', 'pencil', 'planet', 'yellow', 'summer', 'winter', 'autumn', 'spring', 'bridge', 'button', 'candle', 'copper',
  'dragon', 'falcon', 'ginger', 'hammer', 'island', 'jungle', 'kettle', 'ladder', 'meadow', 'needle', 'oyster', 'parrot',
  'quartz', 'rabbit', 'saddle', 'tomato', 'violet', 'walnut', 'zipper', 'anchor', 'basket', 'cactus', 'donkey', 'ember',
  'fabric', 'glacier', 'helmet', 'invoice', 'jacket', 'kernel', 'lantern', 'mirror', 'nectar', 'olive', 'pixel', 'quiver',
  'radar', 'socket', 'ticket', 'umbrella', 'vector', 'wagon', 'yogurt', 'zebra', 'metric', 'budget', 'sensor', 'widget',
  'payload', 'cluster', 'shard', 'token', 'tenant', 'ledger', 'batch', 'signal', 'beacon', 'thread', 'worker', 'router'];
const EXTENSIONS = ['txt', 'txt', 'txt', 'md', 'csv', 'log', 'json', 'yaml', 'ini', 'conf', 'dat', 'tsv', 'list', 'out', 'cfg'];

function coinedWord(rng: Rng): string {
  let word = '';
  for (let i = rng.pick([1, 2, 2, 2, 3]); i > 0; i--) word += rng.pick(ONSETS) + rng.pick(VOWELS) + rng.pick(CODAS);
  return word.length < 3 ? word + rng.pick(VOWELS) + rng.pick(['n', 'x', 'r']) : word;
}

/** A word for names and file contents: coined, from the larger list, or now and then with a number. */
function freshWord(rng: Rng): string {
  const base = rng.chance(0.55) ? coinedWord(rng) : rng.pick(MORE_WORDS);
  return rng.chance(0.12) ? `${base}${rng.int(1, 99)}` : base;
}

/** A session's own vocabulary; about a fifth of each list still comes from the classic one. */
export function coinedVocabulary(rng: Rng): Vocabulary {
  const unique = (n: number, make: () => string): string[] => {
    const out = new Set<string>();
    for (let tries = 0; out.size < n && tries < n * 10; tries++) out.add(make());
    return [...out];
  };
  const fileName = (): string => {
    if (rng.chance(0.2)) return rng.pick(FILES);
    const stem = rng.chance(0.25) ? `${freshWord(rng)}${rng.pick(['_', '-'])}${freshWord(rng)}` : freshWord(rng);
    return `${stem}.${rng.pick(EXTENSIONS)}`;
  };
  return {
    files: unique(14, fileName),
    dirs: unique(8, () => (rng.chance(0.2) ? rng.pick(DIRS) : freshWord(rng))),
    words: unique(24, () => (rng.chance(0.2) ? rng.pick(WORDS) : freshWord(rng))),
    vars: unique(6, () => (rng.chance(0.3) ? rng.pick(VARS) : freshWord(rng).toUpperCase().replace(/[^A-Z0-9]/g, '_'))),
    coined: true,
  };
}

/**
 * A coined vocabulary whose session also reaches for the tools people and agents use beyond
 * the generator's first lists: python3 (one-liners, scripts, tracebacks), sed, diff and cmp,
 * sh and bash scripts, for loops and if tests, key=value configs, access logs and JSON.
 */
export function wideVocabulary(rng: Rng): Vocabulary {
  return { ...coinedVocabulary(rng), wide: true };
}

interface State {
  vocab: Vocabulary;
  cwd: string[];
  /** Relative path from home → lines. */
  files: Map<string, string[]>;
  dirs: Set<string>;
  vars: Map<string, string>;
  scripts: Map<string, boolean>;
}

const path = (s: State, name: string): string => [...s.cwd, name].join('/');
const local = <T>(s: State, m: Map<string, T> | Set<string>): string[] => {
  const prefix = s.cwd.length ? s.cwd.join('/') + '/' : '';
  return [...m.keys()].filter((k) => k.startsWith(prefix) && k !== '' && !k.slice(prefix.length).includes('/')).map((k) => k.slice(prefix.length));
};
const words = (rng: Rng, s: State, n: number): string[] => Array.from({ length: n }, () => rng.pick(s.vocab.words));

function missingName(rng: Rng, s: State): string {
  const taken = new Set([...local(s, s.files), ...local(s, s.dirs)]);
  const pool = rng.chance(0.7) ? s.vocab.files : [...s.vocab.files.map((f) => f.replace(/\.\w+$/, '.bak')), ...s.vocab.dirs.map((d) => d + '/' + rng.pick(s.vocab.files))];
  for (let i = 0; i < 20; i++) {
    const name = rng.pick(pool);
    if (!taken.has(name) && !taken.has(name.split('/')[0]!)) return name;
  }
  return 'missing-' + rng.int(1, 99) + '.txt';
}

function newFile(rng: Rng, s: State): string {
  const taken = new Set([...local(s, s.files), ...local(s, s.dirs)]);
  const free = s.vocab.files.filter((f) => !taken.has(f));
  return free.length ? rng.pick(free) : `file${rng.int(1, 99)}.txt`;
}

type Kind = 'create' | 'append' | 'read' | 'readMissing' | 'count' | 'grep' | 'sort' | 'pipe' | 'ls' | 'mkdir' | 'cd'
  | 'pwd' | 'env' | 'rm' | 'copy' | 'isDir' | 'typo' | 'script' | 'misc' | 'system' | 'project' | 'table' | 'columns' | 'tree'
  | WideKind;
type WideKind = 'python' | 'sed' | 'diff' | 'shell' | 'wrongTurn' | 'config' | 'log' | 'json';

/** The classic kinds; the column kinds are only for coined sessions (their files are name-and-number lines). */
const WEIGHTS: Record<Exclude<Kind, 'table' | 'columns' | 'tree' | WideKind>, number> = {
  create: 10, append: 3, read: 8, readMissing: 9, count: 5, grep: 5, sort: 4, pipe: 5, ls: 6, mkdir: 4, cd: 5,
  pwd: 3, env: 5, rm: 4, copy: 4, isDir: 2, typo: 3, script: 2, misc: 4, system: 4, project: 2,
};
/** Coined sessions also write and query column files (name and number per line) and list trees. */
const COINED_WEIGHTS: Record<Exclude<Kind, WideKind>, number> = { ...WEIGHTS, table: 5, columns: 6, tree: 2 };
/** Wide sessions: the coined mix with the wide tools taking about a third of the commands. */
const WIDE_WEIGHTS: Record<Kind, number> = { ...COINED_WEIGHTS, python: 14, sed: 8, diff: 7, shell: 9, wrongTurn: 6, config: 5, log: 6, json: 4 };

/** Questions an agent asks a fresh machine; the answers are the sandbox's own. */
const SYSTEM = ['whoami', 'hostname', 'id', 'uname -s', 'uname -m', 'python3 --version', 'bash --version | head -n 1',
  'echo $HOME', 'echo $SHELL', 'echo $USER', 'ls /', 'ls -la', 'ls -l', 'cat /etc/os-release | head -n 2', 'which python3',
  'which ls', 'type cd', 'echo $PWD', 'ls ~', 'du -sh .', 'printenv HOME', 'nproc --version | head -n 1', 'git --version',
  'node --version', 'pip --version', 'curl --version | head -n 1', 'ping -c 1 example.com'];

/** One command, updating the tracked state as the real shell will. */
function nextCommand(rng: Rng, s: State): string {
  const files = local(s, s.files);
  const dirs = local(s, s.dirs);
  let kind: Kind = s.vocab.wide ? rng.weighted(WIDE_WEIGHTS) : s.vocab.coined ? rng.weighted(COINED_WEIGHTS) : rng.weighted(WEIGHTS);
  if (files.length === 0 && ['append', 'read', 'count', 'grep', 'sort', 'pipe', 'rm', 'copy', 'sed', 'diff'].includes(kind)) kind = 'create';
  const tables = files.filter((f) => (s.files.get(path(s, f)) ?? []).every((line) => /^\S+ \d+$/.test(line)));
  if (kind === 'columns' && tables.length === 0) kind = 'table';
  switch (kind) {
    case 'create': {
      const name = newFile(rng, s);
      const lines = rng.chance(0.35) ? [words(rng, s, rng.int(1, 3)).join(' ')] : Array.from({ length: rng.int(2, 6) }, () => words(rng, s, rng.int(1, 2)).join(' '));
      s.files.set(path(s, name), lines);
      if (lines.length === 1) return rng.chance(0.5) ? `echo "${lines[0]}" > ${name}` : `echo ${lines[0]} > ${name}`;
      if (rng.chance(0.25)) {
        return `cat > ${name} << 'EOF'\n${lines.join('\n')}\nEOF`;
      }
      return `printf '${lines.join('\\n')}\\n' > ${name}`;
    }
    case 'append': {
      const name = rng.pick(files);
      const line = words(rng, s, rng.int(1, 2)).join(' ');
      s.files.get(path(s, name))!.push(line);
      return `echo "${line}" >> ${name}`;
    }
    case 'read': {
      const name = rng.pick(files);
      const n = rng.int(1, 3);
      return rng.pick([`cat ${name}`, `cat ${name}`, `head -n ${n} ${name}`, `tail -n ${n} ${name}`, `cat -n ${name}`, `nl ${name}`]);
    }
    case 'readMissing': {
      const name = missingName(rng, s);
      const w = rng.pick(s.vocab.words);
      return rng.pick([`cat ${name}`, `cat ${name}`, `head -n 3 ${name}`, `tail -n 2 ${name}`, `wc -l ${name}`, `grep ${w} ${name}`,
        `ls ${name}`, `rm ${name}`, `cp ${name} ${newFile(rng, s)}`, `cd ${name.replace(/\.\w+$/, '')}`, `sort ${name}`,
        `mv ${name} ${newFile(rng, s)}`, `cat ${name} | wc -l`, `wc -w ${name}`]);
    }
    case 'count': {
      const name = rng.pick(files);
      return rng.pick([`wc -l ${name}`, `wc -w ${name}`, `wc -c ${name}`, `wc -l < ${name}`, `wc ${name}`]);
    }
    case 'grep': {
      const name = rng.pick(files);
      const lines = s.files.get(path(s, name)) ?? [];
      const present = lines.join(' ').split(' ').filter(Boolean);
      const w = present.length && rng.chance(0.7) ? rng.pick(present) : rng.pick(s.vocab.words);
      return rng.pick([`grep ${w} ${name}`, `grep -n ${w} ${name}`, `grep -c ${w} ${name}`, `grep -v ${w} ${name}`, `grep -i ${w.toUpperCase()} ${name}`]);
    }
    case 'sort': {
      const name = rng.pick(files);
      return rng.pick([`sort ${name}`, `sort -r ${name}`, `sort ${name} | uniq`, `sort ${name} | uniq -c`, `uniq ${name}`]);
    }
    case 'pipe': {
      const name = rng.pick(files);
      const w = rng.pick(s.vocab.words);
      return rng.pick([`cat ${name} | wc -l`, `cat ${name} | grep ${w}`, `cat ${name} | sort | head -n 2`, `grep ${w} ${name} | wc -l`,
        `cat ${name} | tr a-z A-Z`, `head -n 2 ${name} | tail -n 1`, `cat ${name} | sort -r | head -n 1`, `cut -c1-3 ${name}`]);
    }
    case 'ls': {
      if (dirs.length && rng.chance(0.3)) return `ls ${rng.pick(dirs)}`;
      return rng.pick(['ls', 'ls', 'ls -1', 'ls -a', 'ls -F']);
    }
    case 'mkdir': {
      if (dirs.length && rng.chance(0.2)) return `mkdir ${rng.pick(dirs)}`;
      const free = s.vocab.dirs.filter((d) => !dirs.includes(d) && !files.includes(d));
      const d = free.length ? rng.pick(free) : `dir${rng.int(1, 9)}`;
      s.dirs.add(path(s, d));
      if (rng.chance(0.3)) {
        const sub = rng.pick(s.vocab.dirs.filter((x) => x !== d));
        s.dirs.add(path(s, `${d}/${sub}`));
        return `mkdir -p ${d}/${sub}`;
      }
      return `mkdir ${d}`;
    }
    case 'cd': {
      const r = rng.next();
      if (r < 0.45 && dirs.length) {
        const d = rng.pick(dirs);
        s.cwd.push(d);
        return rng.chance(0.5) ? `cd ${d}` : `cd ${d} && pwd`;
      }
      if (r < 0.7 && s.cwd.length) {
        s.cwd.pop();
        return 'cd ..';
      }
      if (r < 0.8) {
        s.cwd = [];
        return rng.pick(['cd', 'cd ~', 'cd ~ && pwd']);
      }
      if (files.length && rng.chance(0.4)) return `cd ${rng.pick(files)}`;
      return `cd ${rng.pick(s.vocab.dirs.filter((d) => !dirs.includes(d)))}`;
    }
    case 'pwd':
      return 'pwd';
    case 'env': {
      const r = rng.next();
      const set = [...s.vars.keys()];
      if (r < 0.4 || set.length === 0) {
        const v = rng.pick(s.vocab.vars);
        const value = rng.pick(s.vocab.words);
        s.vars.set(v, value);
        return rng.chance(0.5) ? `export ${v}=${value}` : `${v}=${value}; echo $${v}`;
      }
      if (r < 0.8) {
        const v = rng.pick(set);
        return rng.pick([`echo $${v}`, `echo "value: $${v}"`, `echo "\${${v}}-${rng.pick(s.vocab.words)}"`, `printf '%s\\n' "$${v}"`, `env | grep ${v}=`]);
      }
      const unset = s.vocab.vars.filter((v) => !s.vars.has(v));
      return rng.pick([`echo $${rng.pick(unset)}`, `echo "[$${rng.pick(unset)}]"`, 'echo $HOME', `unset ${rng.pick(set)}`]);
    }
    case 'rm': {
      if (dirs.length && rng.chance(0.25)) return `rm ${rng.pick(dirs)}`;
      const name = rng.pick(files);
      s.files.delete(path(s, name));
      return `rm ${name}`;
    }
    case 'copy': {
      const name = rng.pick(files);
      const target = newFile(rng, s);
      const lines = s.files.get(path(s, name))!;
      if (rng.chance(0.5)) {
        s.files.set(path(s, target), [...lines]);
        return `cp ${name} ${target}`;
      }
      s.files.delete(path(s, name));
      s.files.set(path(s, target), lines);
      return `mv ${name} ${target}`;
    }
    case 'isDir': {
      if (!dirs.length) return `mkdir ${rng.pick(s.vocab.dirs)}`;
      const d = rng.pick(dirs);
      return rng.pick([`cat ${d}`, `head -n 1 ${d}`, `grep x ${d}`, `wc -l ${d}`, `rmdir ${d} && ls`]);
    }
    case 'typo':
      return rng.pick(TYPOS);
    case 'script': {
      const name = rng.pick(['run.sh', 'hello.sh', 'build.sh', 'greet.sh']);
      const key = path(s, name);
      if (!s.scripts.has(key)) {
        s.scripts.set(key, false);
        s.files.set(key, ['#!/bin/sh', 'echo ' + rng.pick(s.vocab.words)]);
        return `printf '#!/bin/sh\\necho ${rng.pick(s.vocab.words)} ${rng.pick(s.vocab.words)}\\n' > ${name}`;
      }
      if (!s.scripts.get(key) && rng.chance(0.5)) {
        s.scripts.set(key, true);
        return `chmod +x ${name}`;
      }
      return `./${name}`;
    }
    case 'system':
      return rng.pick(SYSTEM);
    case 'project': {
      const d = rng.pick(s.vocab.dirs.filter((x) => !dirs.includes(x)));
      const sub = rng.pick(s.vocab.dirs.filter((x) => x !== d));
      s.dirs.add(path(s, d));
      s.dirs.add(path(s, `${d}/${sub}`));
      if (rng.chance(0.5)) {
        s.cwd.push(d);
        return `mkdir -p ${d}/${sub} && cd ${d}`;
      }
      return `mkdir -p ${d}/${sub} && ls ${d}`;
    }
    case 'table': {
      const name = newFile(rng, s);
      const lines = Array.from({ length: rng.int(2, 6) }, () => `${rng.pick(s.vocab.words)} ${rng.int(0, 120)}`);
      s.files.set(path(s, name), lines);
      return rng.chance(0.7) ? `printf '${lines.join('\\n')}\\n' > ${name}` : `cat > ${name} << 'EOF'\n${lines.join('\n')}\nEOF`;
    }
    case 'columns': {
      const name = rng.pick(tables);
      return rng.pick([`sort -k2 -n ${name}`, `sort -k2 -nr ${name}`, `sort -k1 ${name}`, `awk '{print $1}' ${name}`, `awk '{print $2}' ${name}`,
        `awk '{s+=$2} END {print s}' ${name}`, `awk '$2 > ${rng.int(10, 90)}' ${name}`, `cut -d' ' -f1 ${name}`, `cut -d' ' -f2 ${name}`,
        `cut -d' ' -f1 ${name} | tr a-z A-Z`, `sort -k2 -n ${name} | head -n 1`, `sort -k2 -n ${name} | tail -n 1`, `awk '{print $2, $1}' ${name}`,
        `grep -c . ${name}`, `tac ${name}`, `rev ${name}`, `awk 'NR==${rng.int(1, 3)}' ${name}`, `paste -sd, ${name}`]);
    }
    case 'tree': {
      const a = rng.int(1, 9);
      const step = rng.int(2, 5);
      return rng.pick(['ls -R', 'ls -R', `seq ${a} ${step} ${a + step * rng.int(2, 5)}`, `seq -s ' ' ${rng.int(1, 4)} ${rng.int(5, 12)}`,
        'find . -type f | sort', 'find . -type d | sort', `ls -1 | wc -l`, dirs.length ? `ls -R ${rng.pick(dirs)}` : 'ls -1']);
    }
    case 'misc': {
      const a = rng.int(1, 50);
      const b = rng.int(1, 20);
      const w = words(rng, s, rng.int(1, 3)).join(' ');
      return rng.pick([`echo $((${a} + ${b}))`, `echo $((${a} * ${b}))`, `seq 1 ${rng.int(2, 6)}`, `echo "${w}" | tr a-z A-Z`,
        `echo ${w}`, `printf '%s-%s\\n' ${rng.pick(s.vocab.words)} ${rng.pick(s.vocab.words)}`, `echo "${w}" | wc -w`, `basename /home/agent/${rng.pick(s.vocab.files)}`,
        `test -f ${rng.pick([...files, ...s.vocab.files])} && echo yes || echo no`, `touch ${newFile(rng, s)} && ls`, `echo -n ${rng.pick(s.vocab.words)}`,
        `expr ${a} + ${b}`, 'true', 'false; echo $?']);
    }
    default:
      return wideCommand(rng, s, kind, files, dirs);
  }
}

const METHODS = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE'];
const STATUS = [200, 200, 200, 201, 204, 301, 302, 400, 401, 403, 404, 404, 500, 503];
const CONFIG_KEYS = ['port', 'host', 'debug', 'workers', 'timeout', 'level', 'mode', 'retries', 'name', 'path'];

/** A value a config or JSON file might hold: a number, a flag or a word of the session. */
function configValue(rng: Rng, s: State, key: string): string {
  if (key === 'port') return String(rng.pick([80, 443, 3000, 5000, 8000, 8080, 8443, 9090]));
  if (key === 'debug') return rng.pick(['true', 'false']);
  if (['workers', 'timeout', 'retries'].includes(key)) return String(rng.int(1, 64));
  return rng.pick(s.vocab.words);
}

/** A file name with another extension (a python script, a config, a log, a JSON file). */
function fileWith(rng: Rng, s: State, extension: string): string {
  const taken = new Set([...local(s, s.files), ...local(s, s.dirs)]);
  for (let i = 0; i < 10; i++) {
    const name = `${rng.pick(s.vocab.words)}.${extension}`;
    if (!taken.has(name)) return name;
  }
  return `${rng.pick(s.vocab.words)}${rng.int(1, 99)}.${extension}`;
}

/** One command of the wide tools (wideVocabulary), tracking files as the shell will change them. */
function wideCommand(rng: Rng, s: State, kind: WideKind, files: string[], dirs: string[]): string {
  const w = (): string => rng.pick(s.vocab.words);
  const ofKind = (extension: string) => files.filter((f) => f.endsWith(`.${extension}`));
  switch (kind) {
    case 'python': {
      const scripts = ofKind('py');
      const r = rng.next();
      const a = rng.int(2, 40);
      const b = rng.int(2, 12);
      if (r < 0.35) {
        const word = w();
        return `python3 -c '${rng.pick([`print(${a} * ${b})`, `print(${a} ** ${rng.int(2, 4)})`, `print(${a} + ${b}, ${a} - ${b})`, `print(${a} // ${b}, ${a} % ${b})`,
          `print("${word}".upper())`, `print(len("${word}"))`, `print("${word}"[::-1])`, `print(sum(range(${b})))`, `print(list(range(${rng.int(2, 6)})))`,
          `for i in range(${rng.int(2, 5)}): print(i)`, `print("${word}", ${a})`, `print(", ".join(["${word}", "${w()}"]))`, `print(round(${a} / ${b}, 2))`,
          `import sys; print(sys.argv)`, `print(max(${a}, ${b}, ${rng.int(1, 50)}))`, `print(sorted(["${word}", "${w()}", "${w()}"]))`])}'`;
      }
      if (r < 0.55 || scripts.length === 0) {
        const name = fileWith(rng, s, 'py');
        s.files.set(path(s, name), ['print']);
        return rng.pick([`echo 'print("${w()} ${w()}")' > ${name}`, `printf 'x = ${a}\\nprint(x * ${b})\\n' > ${name}`,
          `printf 'for n in range(${rng.int(2, 4)}):\\n    print("${w()}", n)\\n' > ${name}`, `printf 'import sys\\nprint(len(sys.argv))\\n' > ${name}`,
          `echo 'print(${w()})' > ${name}`, `printf 'def f(x):\\n    return x * ${b}\\n\\nprint(f(${a}))\\n' > ${name}`]);
      }
      if (r < 0.75) return `python3 ${rng.pick(scripts)}${rng.chance(0.2) ? ` ${w()}` : ''}`;
      if (r < 0.85) return `python3 ${fileWith(rng, s, 'py')}`;
      if (files.length && rng.chance(0.5)) return `python3 -c 'print(open("${rng.pick(files)}").read(), end="")'`;
      return `python3 -c '${rng.pick(['1/0', `print(${w()})`, `import ${w()}`, `print(int("${w()}"))`, `[1, 2][${rng.int(2, 5)}]`])}'`;
    }
    case 'sed': {
      const name = rng.pick(files);
      const lines = s.files.get(path(s, name)) ?? [];
      const present = lines.join(' ').split(/[ =]/).filter(Boolean);
      const from = present.length && rng.chance(0.8) ? rng.pick(present) : w();
      const to = w();
      if (rng.chance(0.3)) {
        s.files.set(path(s, name), lines.map((line) => line.replace(from, to)));
        return `sed -i 's/${from}/${to}/' ${name}`;
      }
      return rng.pick([`sed 's/${from}/${to}/' ${name}`, `sed 's/${from}/${to}/g' ${name}`, `sed -n '${rng.int(1, 3)}p' ${name}`, `sed '1d' ${name}`,
        `sed -n '/${from}/p' ${name}`, `sed -n '$p' ${name}`, `sed 's/^/> /' ${name}`, `sed '/${from}/d' ${name}`]);
    }
    case 'diff': {
      const name = rng.pick(files);
      const others = files.filter((f) => f !== name);
      if (others.length === 0 || rng.chance(0.3)) {
        const copy = newFile(rng, s);
        const lines = [...(s.files.get(path(s, name)) ?? [])];
        s.files.set(path(s, copy), lines);
        if (rng.chance(0.5)) return `cp ${name} ${copy}`;
        const line = `${w()} ${w()}`;
        lines.push(line);
        return `cp ${name} ${copy} && echo "${line}" >> ${copy}`;
      }
      const other = rng.pick(others);
      return rng.pick([`diff ${name} ${other}`, `diff ${name} ${other}`, `diff -q ${name} ${other}`, `cmp ${name} ${other}`, `cat ${name} ${other}`,
        `diff ${name} ${other} && echo same || echo different`, `diff ${name} ${missingName(rng, s)}`]);
    }
    case 'shell': {
      const name = `${rng.pick(s.vocab.words)}.sh`;
      const key = path(s, name);
      const r = rng.next();
      if (r < 0.3) {
        s.files.set(key, ['#!/bin/sh']);
        s.scripts.set(key, false);
        const steps = Array.from({ length: rng.int(1, 3) }, () => `echo ${w()} ${w()}`);
        return `printf '#!/bin/sh\\n${steps.join('\\n')}\\n' > ${name}`;
      }
      const scripts = local(s, s.scripts);
      if (r < 0.55 && scripts.length) {
        const script = rng.pick(scripts);
        const mode = rng.next();
        if (mode < 0.3) return `sh ${script}`;
        if (mode < 0.5) return `bash ${script}`;
        if (mode < 0.7) return `./${script}`;
        s.scripts.set(path(s, script), true);
        return `chmod +x ${script} && ./${script}`;
      }
      const pool = files.length ? files : s.vocab.files;
      const v = rng.pick(s.vocab.vars);
      const value = w();
      return rng.pick([`for i in ${rng.int(1, 3)} ${rng.int(4, 6)} ${rng.int(7, 9)}; do echo "${w()} $i"; done`, `for f in *; do echo "$f"; done`,
        `for w in ${w()} ${w()} ${w()}; do echo $w | tr a-z A-Z; done`, `if [ -f ${rng.pick(pool)} ]; then echo found; else echo missing; fi`,
        `if [ -d ${rng.pick([...dirs, ...s.vocab.dirs])} ]; then echo dir; else echo "no dir"; fi`, `[ -e ${rng.pick(pool)} ] && echo exists`,
        `bash -c 'echo $((${rng.int(1, 30)} * ${rng.int(1, 9)}))'`, `sh -c 'echo ${w()}; exit ${rng.int(0, 3)}'; echo "exit $?"`,
        `export ${v}=${value} && echo "building $${v}"`, `n=${rng.int(1, 9)}; echo $((n * ${rng.int(2, 9)}))`, `echo ${w()} && echo ${w()}`,
        `ls ${rng.pick(pool)} || echo "no such file"`, `x=${value}; echo "\${x}s"`, `echo $(( ${rng.int(10, 99)} % ${rng.int(2, 9)} ))`]);
    }
    case 'wrongTurn': {
      const ghost = rng.pick([...s.vocab.dirs, ...s.vocab.words]);
      const made = dirs.length ? rng.pick(dirs) : null;
      return rng.pick([`cd /${rng.pick(['nonexistent', 'opt/' + ghost, 'data', 'srv/' + ghost])}`, `rm -r ${ghost}-old`, `ls -l ${ghost}-missing`, `rmdir ${ghost}-gone`,
        made ? `mkdir ${made}` : `mkdir ${ghost}/${w()}`, `touch ${ghost}-none/${rng.pick(s.vocab.files)}`, `cp -r ${ghost}-none ${w()}`,
        made ? `rm ${made}` : `cat /etc/${ghost}.conf`, `cat ~/.${ghost}rc`, `chmod +x ${ghost}-missing.sh`, `ln -s ${ghost} ${ghost} 2>&1 | head -n 1`,
        `./${ghost}.sh`, `${ghost} --help`, `sudo ls`, `cd ${ghost}-missing && ls`]);
    }
    case 'config': {
      const configs = ofKind('conf').concat(ofKind('ini'), ofKind('env'));
      if (configs.length === 0 || rng.chance(0.35)) {
        const name = fileWith(rng, s, rng.pick(['conf', 'ini', 'env', 'conf']));
        const keys = [...new Set(Array.from({ length: rng.int(1, 4) }, () => rng.pick(CONFIG_KEYS)))];
        const lines = keys.map((k) => `${k}=${configValue(rng, s, k)}`);
        s.files.set(path(s, name), lines);
        return lines.length === 1 ? `echo '${lines[0]}' > ${name}` : `printf '${lines.join('\\n')}\\n' > ${name}`;
      }
      const name = rng.pick(configs);
      const lines = s.files.get(path(s, name))!;
      const key = rng.pick(CONFIG_KEYS);
      const r = rng.next();
      if (r < 0.25) {
        const line = `${key}=${configValue(rng, s, key)}`;
        lines.push(line);
        return `echo '${line}' >> ${name}`;
      }
      if (r < 0.45) {
        const [k, v] = rng.pick(lines).split('=') as [string, string];
        const next = configValue(rng, s, k);
        s.files.set(path(s, name), lines.map((line) => (line === `${k}=${v}` ? `${k}=${next}` : line)));
        return `sed -i 's/${k}=${v}/${k}=${next}/' ${name}`;
      }
      return rng.pick([`cat ${name}`, `grep ${key} ${name}`, `grep ^${key}= ${name} | cut -d= -f2`, `cut -d= -f1 ${name}`, `sort ${name}`, `wc -l ${name}`,
        `awk -F= '{print $2}' ${name}`, `grep -v debug ${name}`]);
    }
    case 'log': {
      const logs = ofKind('log').filter((f) => (s.files.get(path(s, f)) ?? []).every((line) => /^\w+ \S+ \d+$/.test(line)));
      if (logs.length === 0 || rng.chance(0.3)) {
        const name = fileWith(rng, s, 'log');
        const lines = Array.from({ length: rng.int(2, 6) }, () => `${rng.pick(METHODS)} /${w()} ${rng.pick(STATUS)}`);
        s.files.set(path(s, name), lines);
        return `printf '${lines.join('\\n')}\\n' > ${name}`;
      }
      const name = rng.pick(logs);
      const code = rng.pick(STATUS);
      return rng.pick([`grep -c ${code} ${name}`, `grep ${rng.pick(METHODS)} ${name}`, `awk '$3 >= 400' ${name}`, `awk '$3 == ${code}' ${name}`, `awk '{print $2}' ${name}`,
        `cut -d' ' -f2 ${name} | sort`, `cut -d' ' -f3 ${name} | sort | uniq -c`, `awk '{print $1}' ${name} | sort | uniq -c`, `grep -v ' 200$' ${name}`,
        `wc -l ${name}`, `tail -n 1 ${name}`, `sort -k3 -n ${name}`, `grep -n ${code} ${name}`]);
    }
    case 'json': {
      const jsons = ofKind('json').filter((f) => (s.files.get(path(s, f)) ?? [])[0]?.startsWith('{'));
      if (jsons.length === 0 || rng.chance(0.35)) {
        const name = fileWith(rng, s, 'json');
        const keys = [...new Set([rng.pick(CONFIG_KEYS), rng.pick(CONFIG_KEYS), 'name'])];
        const body = `{${keys.map((k) => (/^\d+$|^true$|^false$/.test(configValue(rng, s, k)) ? `"${k}": ${rng.int(1, 99)}` : `"${k}": "${w()}"`)).join(', ')}}`;
        s.files.set(path(s, name), [body]);
        return `echo '${body}' > ${name}`;
      }
      const name = rng.pick(jsons);
      const body = s.files.get(path(s, name))![0]!;
      const key = rng.pick([...body.matchAll(/"(\w+)":/g)].map((m) => m[1]!));
      return rng.pick([`cat ${name}`, `python3 -c 'import json; print(json.load(open("${name}"))["${key}"])'`, `python3 -m json.tool ${name}`, `wc -c ${name}`,
        `grep -o '"${key}": [^,}]*' ${name}`, `python3 -c 'import json; print(sorted(json.load(open("${name}"))))'`, `python3 -c 'import json; print(json.load(open("${name}"))["${w()}"])'`]);
    }
  }
}

/**
 * The commands of one trajectory (3 to 10 of them; 4 to 12 with the wide tools, whose
 * files are read back later), with the classic names unless told otherwise.
 */
export function terminalCommands(rng: Rng, vocab: Vocabulary = CLASSIC_VOCABULARY): string[] {
  const s: State = { vocab, cwd: [], files: new Map(), dirs: new Set(['']), vars: new Map(), scripts: new Map() };
  const n = vocab.wide ? rng.int(4, 12) : rng.int(3, 10);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(nextCommand(rng, s));
  return out;
}
