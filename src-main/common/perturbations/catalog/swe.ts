// SWE perturbations: a software repository's tools fail the way they do in real projects:
// tests that flake or hang, merges that conflict, installs that cannot resolve, linters
// that object, processes that run out of memory. Output uses each tool's own wording.
import { z } from 'zod';
import { defineKind } from '../kind';
import { randomHex, type Rng } from '../rng';
import { commandArgs, commandOf, pathOf } from './action-hints';
import { failTest, passedTests, singleFailureReport } from './pytest-output';
import { joinOutput, keepLines, reshapeShellOutput, shellBody } from './shell-output';

/** The test to break: the one asked for, else one the run passed, else a plausible id. */
function pickTest(observation: string, wanted: string, rng: Rng): { id: string; ran: boolean } {
  const passed = passedTests(observation);
  if (wanted) return { id: wanted, ran: passed.includes(wanted) };
  return passed.length > 0 ? { id: rng.pick(passed), ran: true } : { id: 'tests/test_app.py::test_main', ran: false };
}

const FLAKY_ERRORS = {
  'connection-reset': () => 'ConnectionResetError: [Errno 104] Connection reset by peer',
  'port-in-use': () => 'OSError: [Errno 98] Address already in use',
  'timing-assertion': (rng: Rng) => `AssertionError: assert ${(1 + rng.between(1, 99) / 1000).toFixed(3)} < 1.0`,
};

const flakyTest = defineKind({
  id: 'swe.flaky-test',
  domain: 'swe',
  label: 'Flaky test',
  description: 'One test that normally passes fails this time for a reason unrelated to the change (network, ports, timing).',
  params: z.object({
    test: z.string().default('').describe('pytest id of the test that flakes; empty = one of the passing tests, chosen by the seed'),
    error: z.enum(['connection-reset', 'port-in-use', 'timing-assertion']).default('connection-reset'),
  }),
  instruction: (p) =>
    `${p.test ? `The test ${p.test}` : 'One test that normally passes'} fails this run with a ${p.error.replace(/-/g, ' ')} error that has nothing ` +
    'to do with the code change; every other test passes, and the report (FAILURES, short summary, final counts) reflects exactly one failure.',
  transform(observation, p, rng) {
    const test = pickTest(observation, p.test, rng);
    const error = FLAKY_ERRORS[p.error](rng);
    const line = rng.between(12, 180);
    return reshapeShellOutput(observation, (body) => (test.ran ? failTest(body, test.id, error, line) : singleFailureReport(test.id, error, line, 0.3 + rng.next())), 1);
  },
});

const testTimeout = defineKind({
  id: 'swe.test-timeout',
  domain: 'swe',
  label: 'Test timeout',
  description: 'One test hangs until pytest-timeout stops it; the run fails and takes the whole timeout longer.',
  params: z.object({
    seconds: z.number().positive().default(300),
    test: z.string().default('').describe('pytest id of the test that hangs; empty = chosen by the seed'),
  }),
  instruction: (p) =>
    `${p.test ? `The test ${p.test}` : 'One of the tests'} hangs and is stopped by pytest-timeout after ${p.seconds} seconds ` +
    `("Failed: Timeout >${p.seconds.toFixed(1)}s"). The other tests pass; the run's total time grows by the timeout.`,
  transform(observation, p, rng) {
    const test = pickTest(observation, p.test, rng);
    const error = `Failed: Timeout >${p.seconds.toFixed(1)}s`;
    const line = rng.between(12, 180);
    return reshapeShellOutput(observation, (body) => (test.ran ? failTest(body, test.id, error, line, p.seconds) : singleFailureReport(test.id, error, line, p.seconds)), 1);
  },
});

/** A file the action or its output names, for messages about "the file". */
function fileOf(action: string, observation: string, fallback: string): string {
  const fromAction = pathOf(action, '');
  if (/\.\w{1,5}$/.test(fromAction)) return fromAction;
  return /(?:^|\s)((?:[\w.-]+\/)*[\w-]+\.(?:py|ts|js|tsx|go|rs|java|rb|c|cc|h))\b/m.exec(observation)?.[1] ?? fallback;
}

/** A different version of some lines, for the "theirs" side of a conflict. */
function theirs(lines: string[], rng: Rng): string[] {
  const changed = lines.map((l) => l.replace(/\b\d+\b/g, (n) => String(Number(n) + rng.between(1, 9))).replace(/(["'])([^"'\n]*)\1/, (_m, q: string, s: string) => `${q}${s}_v2${q}`));
  return changed.join('\n') !== lines.join('\n') ? changed : lines.slice(0, -1);
}

const mergeConflict = defineKind({
  id: 'swe.merge-conflict',
  domain: 'swe',
  label: 'Merge conflict',
  description: 'A merge or rebase stops on a content conflict, or the file shows conflict markers.',
  params: z.object({
    show: z.enum(['git-output', 'conflict-markers']).default('git-output').describe('git-output = the merge/rebase command fails; conflict-markers = the file content has markers'),
    operation: z.enum(['merge', 'rebase']).default('merge'),
    file: z.string().default('').describe('Conflicting file; empty = the file the step names'),
    branch: z.string().default('feature/retry-logic'),
  }),
  instruction: (p) =>
    p.show === 'conflict-markers'
      ? `The file contains unresolved conflict markers: a few lines appear twice, between "<<<<<<< HEAD", "=======" and ">>>>>>> ${p.branch}", with a different version on each side.`
      : `The git ${p.operation} with ${p.branch} stops on a content conflict in ${p.file || 'the file being changed'}: git prints CONFLICT (content) and ` +
        `${p.operation === 'merge' ? '"Automatic merge failed; fix conflicts and then commit the result."' : 'its hints to resolve and run "git rebase --continue"'}, exit status 1.`,
  transform(observation, p, rng, ctx) {
    if (p.show === 'conflict-markers') {
      const lines = observation.split('\n');
      const nonEmpty = lines.flatMap((l, i) => (l.trim() ? [i] : []));
      if (nonEmpty.length === 0) return observation;
      const start = rng.pick(nonEmpty.slice(0, Math.max(1, nonEmpty.length - 1)));
      const end = Math.min(lines.length, start + rng.between(1, 3));
      const ours = lines.slice(start, end);
      return [...lines.slice(0, start), '<<<<<<< HEAD', ...ours, '=======', ...theirs(ours, rng), `>>>>>>> ${p.branch}`, ...lines.slice(end)].join('\n');
    }
    const file = p.file || fileOf(ctx.action, observation, 'src/app.py');
    const conflict = `Auto-merging ${file}\nCONFLICT (content): Merge conflict in ${file}`;
    const commit = `${randomHex(rng, 7)}... ${rng.pick(['Add retry logic', 'Refactor client setup', 'Fix timeout handling'])}`;
    const message =
      p.operation === 'merge'
        ? `${conflict}\nAutomatic merge failed; fix conflicts and then commit the result.`
        : `${conflict}\nerror: could not apply ${commit}\nhint: Resolve all conflicts manually, mark them as resolved with\n` +
          'hint: "git add/rm <conflicted_files>", then run "git rebase --continue".\nhint: You can instead skip this commit: run "git rebase --skip".\n' +
          `hint: To abort and get back to the state before "git rebase", run "git rebase --abort".\nCould not apply ${commit}`;
    return reshapeShellOutput(observation, () => message, 1);
  },
});

function installMessages(ecosystem: 'pip' | 'npm', pkg: string, reason: string, rng: Rng): string {
  if (ecosystem === 'npm') {
    const log = `npm error A complete log of this run can be found in: /root/.npm/_logs/2025-0${rng.between(1, 9)}-1${rng.int(10)}T0${rng.int(10)}_${rng.between(10, 59)}_${rng.between(10, 59)}_${rng.between(100, 999)}Z-debug-0.log`;
    if (reason === 'not-found') return `npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/${pkg} - Not found\nnpm error 404\nnpm error 404  '${pkg}@*' is not in this registry.\n${log}`;
    if (reason === 'network') return `npm error code ENOTFOUND\nnpm error syscall getaddrinfo\nnpm error errno ENOTFOUND\nnpm error network request to https://registry.npmjs.org/${pkg} failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org\n${log}`;
    return `npm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree\nnpm error\nnpm error While resolving: app@1.0.0\nnpm error Found: react@18.3.1\nnpm error Could not resolve dependency:\nnpm error peer react@"^17.0.0" from ${pkg}@2.1.0\n${log}`;
  }
  const notFound = `ERROR: Could not find a version that satisfies the requirement ${pkg} (from versions: none)\nERROR: No matching distribution found for ${pkg}`;
  if (reason === 'not-found') return notFound;
  if (reason === 'network') {
    const address = `0x7f${randomHex(rng, 10)}`;
    const retries = [4, 3, 2, 1, 0].map(
      (total) => `WARNING: Retrying (Retry(total=${total}, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at ${address}>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/${pkg}/`,
    );
    return [...retries, notFound].join('\n');
  }
  return (
    `ERROR: Cannot install ${pkg}==2.1.0 and urllib3>=2.0 because these package versions have conflicting dependencies.\n\nThe conflict is caused by:\n` +
    `    The user requested urllib3>=2.0\n    ${pkg} 2.1.0 depends on urllib3<2\n\nTo fix this you could try to:\n1. loosen the range of package versions you've specified\n` +
    '2. remove package versions to allow pip to attempt to solve the dependency conflict\n\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts'
  );
}

const dependencyInstallFailure = defineKind({
  id: 'swe.dependency-install-failure',
  domain: 'swe',
  label: 'Dependency install failure',
  description: 'Installing a dependency fails: the package does not exist, versions conflict, or the registry is unreachable.',
  params: z.object({
    ecosystem: z.enum(['auto', 'pip', 'npm']).default('auto').describe('auto = npm for npm/yarn/pnpm actions, else pip'),
    package: z.string().default('').describe('Package that fails; empty = the one the action installs'),
    reason: z.enum(['not-found', 'version-conflict', 'network']).default('not-found'),
  }),
  instruction: (p, ctx) =>
    `Installing ${p.package || 'the dependency'} with ${ecosystemOf(p.ecosystem, ctx.action)} fails: ` +
    { 'not-found': 'no matching version exists in the registry', 'version-conflict': 'its version requirements conflict with another dependency', network: 'the package registry cannot be reached (DNS failure)' }[p.reason] +
    '. The installer prints its usual error and exits with status 1; nothing is installed.',
  transform(observation, p, rng, ctx) {
    const ecosystem = ecosystemOf(p.ecosystem, ctx.action);
    const args = commandArgs(ctx.action);
    const verb = args.findIndex((a) => ['install', 'add', 'i'].includes(a));
    const named = verb >= 0 ? args.slice(verb + 1).find((a) => !a.startsWith('-')) : undefined;
    const pkg = p.package || named || (ecosystem === 'npm' ? 'left-pad-utils' : 'requests');
    return reshapeShellOutput(observation, () => installMessages(ecosystem, pkg, p.reason, rng), 1);
  },
});

function ecosystemOf(choice: 'auto' | 'pip' | 'npm', action: string): 'pip' | 'npm' {
  if (choice !== 'auto') return choice;
  return ['npm', 'yarn', 'pnpm', 'npx'].includes(commandOf(action)) ? 'npm' : 'pip';
}

const LINT_RULES = {
  ruff: [
    ['F401', '`os` imported but unused'],
    ['F841', 'Local variable `result` is assigned to but never used'],
    ['E501', 'Line too long (104 > 88)'],
    ['E711', 'Comparison to `None` should be `cond is None`'],
    ['B006', 'Do not use mutable data structures for argument defaults'],
  ],
  eslint: [
    ['no-unused-vars', "'result' is assigned a value but never used"],
    ['eqeqeq', "Expected '===' and instead saw '=='"],
    ['no-undef', "'process' is not defined"],
    ['prefer-const', "'count' is never reassigned. Use 'const' instead"],
  ],
};

const lintFailure = defineKind({
  id: 'swe.lint-failure',
  domain: 'swe',
  label: 'Lint failure',
  description: 'The linter (alone or in a pre-commit hook) reports violations and fails the step.',
  params: z.object({
    linter: z.enum(['ruff', 'eslint']).default('ruff'),
    count: z.number().int().min(1).max(4).default(2),
    file: z.string().default('').describe('File with the violations; empty = the file the step names'),
  }),
  instruction: (p) =>
    `${p.linter} reports ${p.count} violation${p.count === 1 ? '' : 's'} in ${p.file || 'the changed file'} (unused variables, style rules) ` +
    `in its usual output format and exits with status 1.`,
  transform(observation, p, rng, ctx) {
    const file = p.file || fileOf(ctx.action, observation, p.linter === 'ruff' ? 'src/app.py' : 'src/index.ts');
    const rules = rng.sample(LINT_RULES[p.linter].length, p.count).map((i) => LINT_RULES[p.linter][i]!);
    const places = rules.map(() => [rng.between(3, 240), rng.between(1, 30)] as const).sort((a, b) => a[0] - b[0]);
    let report: string;
    if (p.linter === 'ruff') {
      const rows = rules.map(([code, msg], i) => `${file}:${places[i]![0]}:${places[i]![1]}: ${code} ${msg}`);
      const fixable = rules.some(([code]) => code === 'F401') ? '\n[*] 1 fixable with the `--fix` option.' : '';
      report = `${rows.join('\n')}\nFound ${rules.length} error${rules.length === 1 ? '' : 's'}.${fixable}`;
    } else {
      const rows = rules.map(([rule, msg], i) => `  ${`${places[i]![0]}:${places[i]![1]}`.padEnd(7)} error  ${msg}  ${rule}`);
      report = `\n/repo/${file}\n${rows.join('\n')}\n\n✖ ${rules.length} problem${rules.length === 1 ? '' : 's'} (${rules.length} error${rules.length === 1 ? '' : 's'}, 0 warnings)`;
    }
    return reshapeShellOutput(observation, () => report, 1);
  },
});

const outOfMemory = defineKind({
  id: 'swe.out-of-memory',
  domain: 'swe',
  label: 'Out of memory',
  description: 'The process runs out of memory part-way: killed by the kernel, a Python MemoryError, or a Node heap crash.',
  params: z.object({
    style: z.enum(['killed', 'python-memory-error', 'node-heap']).default('killed'),
    keepFraction: z.number().min(0).max(1).default(0.6).describe('Share of the output produced before memory ran out'),
  }),
  instruction: (p) =>
    `The process runs out of memory after producing about ${Math.round(p.keepFraction * 100)}% of its output. ` +
    {
      killed: 'The kernel OOM killer ends it: the shell prints "Killed" and the exit status is 137.',
      'python-memory-error': 'Python raises MemoryError with a traceback and exits with status 1.',
      'node-heap': 'Node aborts with "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory", exit status 134.',
    }[p.style],
  transform(observation, p, rng, ctx) {
    const file = fileOf(ctx.action, shellBody(observation), 'src/app.py');
    const pid = rng.between(1000, 60000);
    const tails = {
      killed: 'Killed',
      'python-memory-error': `Traceback (most recent call last):\n  File "/repo/${file}", line ${rng.between(10, 300)}, in <module>\nMemoryError`,
      'node-heap':
        `\n<--- Last few GCs --->\n\n[${pid}:0x${randomHex(rng, 7)}]    ${rng.between(20000, 90000)} ms: Mark-Compact 4046.1 (4138.7) -> 4032.3 (4139.2) MB, ` +
        `${rng.between(1000, 3000)}.4 / 0.0 ms  (average mu = 0.112, current mu = 0.021) allocation failure; scavenge might not succeed\n\n` +
        '<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\nAborted (core dumped)',
    };
    const code = { killed: 137, 'python-memory-error': 1, 'node-heap': 134 }[p.style];
    return reshapeShellOutput(observation, (body) => joinOutput(keepLines(body, p.keepFraction), tails[p.style]), code);
  },
});

export const SWE_KINDS = [flakyTest, mergeConflict, dependencyInstallFailure, lintFailure, testTimeout, outOfMemory];
