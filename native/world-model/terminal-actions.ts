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
  | 'pwd' | 'env' | 'rm' | 'copy' | 'isDir' | 'typo' | 'script' | 'misc' | 'system' | 'project' | 'table' | 'columns' | 'tree';

/** The classic kinds; the column kinds are only for coined sessions (their files are name-and-number lines). */
const WEIGHTS: Record<Exclude<Kind, 'table' | 'columns' | 'tree'>, number> = {
  create: 10, append: 3, read: 8, readMissing: 9, count: 5, grep: 5, sort: 4, pipe: 5, ls: 6, mkdir: 4, cd: 5,
  pwd: 3, env: 5, rm: 4, copy: 4, isDir: 2, typo: 3, script: 2, misc: 4, system: 4, project: 2,
};
/** Coined sessions also write and query column files (name and number per line) and list trees. */
const COINED_WEIGHTS: Record<Kind, number> = { ...WEIGHTS, table: 5, columns: 6, tree: 2 };

/** Questions an agent asks a fresh machine; the answers are the sandbox's own. */
const SYSTEM = ['whoami', 'hostname', 'id', 'uname -s', 'uname -m', 'python3 --version', 'bash --version | head -n 1',
  'echo $HOME', 'echo $SHELL', 'echo $USER', 'ls /', 'ls -la', 'ls -l', 'cat /etc/os-release | head -n 2', 'which python3',
  'which ls', 'type cd', 'echo $PWD', 'ls ~', 'du -sh .', 'printenv HOME', 'nproc --version | head -n 1', 'git --version',
  'node --version', 'pip --version', 'curl --version | head -n 1', 'ping -c 1 example.com'];

/** One command, updating the tracked state as the real shell will. */
function nextCommand(rng: Rng, s: State): string {
  const files = local(s, s.files);
  const dirs = local(s, s.dirs);
  let kind: Kind = s.vocab.coined ? rng.weighted(COINED_WEIGHTS) : rng.weighted(WEIGHTS);
  if (files.length === 0 && ['append', 'read', 'count', 'grep', 'sort', 'pipe', 'rm', 'copy'].includes(kind)) kind = 'create';
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
  }
}

/** The commands of one trajectory (3 to 10 of them), with the classic names unless told otherwise. */
export function terminalCommands(rng: Rng, vocab: Vocabulary = CLASSIC_VOCABULARY): string[] {
  const s: State = { vocab, cwd: [], files: new Map(), dirs: new Set(['']), vars: new Map(), scripts: new Map() };
  const n = rng.int(3, 10);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(nextCommand(rng, s));
  return out;
}
