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

interface State {
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
const words = (rng: Rng, n: number): string[] => Array.from({ length: n }, () => rng.pick(WORDS));

function missingName(rng: Rng, s: State): string {
  const taken = new Set([...local(s, s.files), ...local(s, s.dirs)]);
  const pool = rng.chance(0.7) ? FILES : [...FILES.map((f) => f.replace(/\.\w+$/, '.bak')), ...DIRS.map((d) => d + '/' + rng.pick(FILES))];
  for (let i = 0; i < 20; i++) {
    const name = rng.pick(pool);
    if (!taken.has(name) && !taken.has(name.split('/')[0]!)) return name;
  }
  return 'missing-' + rng.int(1, 99) + '.txt';
}

function newFile(rng: Rng, s: State): string {
  const taken = new Set([...local(s, s.files), ...local(s, s.dirs)]);
  const free = FILES.filter((f) => !taken.has(f));
  return free.length ? rng.pick(free) : `file${rng.int(1, 99)}.txt`;
}

type Kind = 'create' | 'append' | 'read' | 'readMissing' | 'count' | 'grep' | 'sort' | 'pipe' | 'ls' | 'mkdir' | 'cd'
  | 'pwd' | 'env' | 'rm' | 'copy' | 'isDir' | 'typo' | 'script' | 'misc' | 'system' | 'project';

const WEIGHTS: Record<Kind, number> = {
  create: 10, append: 3, read: 8, readMissing: 9, count: 5, grep: 5, sort: 4, pipe: 5, ls: 6, mkdir: 4, cd: 5,
  pwd: 3, env: 5, rm: 4, copy: 4, isDir: 2, typo: 3, script: 2, misc: 4, system: 4, project: 2,
};

/** Questions an agent asks a fresh machine; the answers are the sandbox's own. */
const SYSTEM = ['whoami', 'hostname', 'id', 'uname -s', 'uname -m', 'python3 --version', 'bash --version | head -n 1',
  'echo $HOME', 'echo $SHELL', 'echo $USER', 'ls /', 'ls -la', 'ls -l', 'cat /etc/os-release | head -n 2', 'which python3',
  'which ls', 'type cd', 'echo $PWD', 'ls ~', 'du -sh .', 'printenv HOME', 'nproc --version | head -n 1', 'git --version',
  'node --version', 'pip --version', 'curl --version | head -n 1', 'ping -c 1 example.com'];

/** One command, updating the tracked state as the real shell will. */
function nextCommand(rng: Rng, s: State): string {
  const files = local(s, s.files);
  const dirs = local(s, s.dirs);
  let kind = rng.weighted(WEIGHTS);
  if (files.length === 0 && ['append', 'read', 'count', 'grep', 'sort', 'pipe', 'rm', 'copy'].includes(kind)) kind = 'create';
  switch (kind) {
    case 'create': {
      const name = newFile(rng, s);
      const lines = rng.chance(0.35) ? [words(rng, rng.int(1, 3)).join(' ')] : Array.from({ length: rng.int(2, 6) }, () => words(rng, rng.int(1, 2)).join(' '));
      s.files.set(path(s, name), lines);
      if (lines.length === 1) return rng.chance(0.5) ? `echo "${lines[0]}" > ${name}` : `echo ${lines[0]} > ${name}`;
      if (rng.chance(0.25)) {
        return `cat > ${name} << 'EOF'\n${lines.join('\n')}\nEOF`;
      }
      return `printf '${lines.join('\\n')}\\n' > ${name}`;
    }
    case 'append': {
      const name = rng.pick(files);
      const line = words(rng, rng.int(1, 2)).join(' ');
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
      const w = rng.pick(WORDS);
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
      const w = present.length && rng.chance(0.7) ? rng.pick(present) : rng.pick(WORDS);
      return rng.pick([`grep ${w} ${name}`, `grep -n ${w} ${name}`, `grep -c ${w} ${name}`, `grep -v ${w} ${name}`, `grep -i ${w.toUpperCase()} ${name}`]);
    }
    case 'sort': {
      const name = rng.pick(files);
      return rng.pick([`sort ${name}`, `sort -r ${name}`, `sort ${name} | uniq`, `sort ${name} | uniq -c`, `uniq ${name}`]);
    }
    case 'pipe': {
      const name = rng.pick(files);
      const w = rng.pick(WORDS);
      return rng.pick([`cat ${name} | wc -l`, `cat ${name} | grep ${w}`, `cat ${name} | sort | head -n 2`, `grep ${w} ${name} | wc -l`,
        `cat ${name} | tr a-z A-Z`, `head -n 2 ${name} | tail -n 1`, `cat ${name} | sort -r | head -n 1`, `cut -c1-3 ${name}`]);
    }
    case 'ls': {
      if (dirs.length && rng.chance(0.3)) return `ls ${rng.pick(dirs)}`;
      return rng.pick(['ls', 'ls', 'ls -1', 'ls -a', 'ls -F']);
    }
    case 'mkdir': {
      if (dirs.length && rng.chance(0.2)) return `mkdir ${rng.pick(dirs)}`;
      const free = DIRS.filter((d) => !dirs.includes(d) && !files.includes(d));
      const d = free.length ? rng.pick(free) : `dir${rng.int(1, 9)}`;
      s.dirs.add(path(s, d));
      if (rng.chance(0.3)) {
        const sub = rng.pick(DIRS.filter((x) => x !== d));
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
      return `cd ${rng.pick(DIRS.filter((d) => !dirs.includes(d)))}`;
    }
    case 'pwd':
      return 'pwd';
    case 'env': {
      const r = rng.next();
      const set = [...s.vars.keys()];
      if (r < 0.4 || set.length === 0) {
        const v = rng.pick(VARS);
        const value = rng.pick(WORDS);
        s.vars.set(v, value);
        return rng.chance(0.5) ? `export ${v}=${value}` : `${v}=${value}; echo $${v}`;
      }
      if (r < 0.8) {
        const v = rng.pick(set);
        return rng.pick([`echo $${v}`, `echo "value: $${v}"`, `echo "\${${v}}-${rng.pick(WORDS)}"`, `printf '%s\\n' "$${v}"`, `env | grep ${v}=`]);
      }
      const unset = VARS.filter((v) => !s.vars.has(v));
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
      if (!dirs.length) return `mkdir ${rng.pick(DIRS)}`;
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
        s.files.set(key, ['#!/bin/sh', 'echo ' + rng.pick(WORDS)]);
        return `printf '#!/bin/sh\\necho ${rng.pick(WORDS)} ${rng.pick(WORDS)}\\n' > ${name}`;
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
      const d = rng.pick(DIRS.filter((x) => !dirs.includes(x)));
      const sub = rng.pick(DIRS.filter((x) => x !== d));
      s.dirs.add(path(s, d));
      s.dirs.add(path(s, `${d}/${sub}`));
      if (rng.chance(0.5)) {
        s.cwd.push(d);
        return `mkdir -p ${d}/${sub} && cd ${d}`;
      }
      return `mkdir -p ${d}/${sub} && ls ${d}`;
    }
    case 'misc': {
      const a = rng.int(1, 50);
      const b = rng.int(1, 20);
      const w = words(rng, rng.int(1, 3)).join(' ');
      return rng.pick([`echo $((${a} + ${b}))`, `echo $((${a} * ${b}))`, `seq 1 ${rng.int(2, 6)}`, `echo "${w}" | tr a-z A-Z`,
        `echo ${w}`, `printf '%s-%s\\n' ${rng.pick(WORDS)} ${rng.pick(WORDS)}`, `echo "${w}" | wc -w`, `basename /home/agent/${rng.pick(FILES)}`,
        `test -f ${rng.pick([...files, ...FILES])} && echo yes || echo no`, `touch ${newFile(rng, s)} && ls`, `echo -n ${rng.pick(WORDS)}`,
        `expr ${a} + ${b}`, 'true', 'false; echo $?']);
    }
  }
}

/** The commands of one trajectory (3 to 10 of them). */
export function terminalCommands(rng: Rng): string[] {
  const s: State = { cwd: [], files: new Map(), dirs: new Set(['']), vars: new Map(), scripts: new Map() };
  const n = rng.int(3, 10);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(nextCommand(rng, s));
  return out;
}
