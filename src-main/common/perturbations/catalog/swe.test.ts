import { describe, expect, it } from 'vitest';
import { fixture, perturb } from '../../../testing/perturbation-fixtures';
import { banner } from './pytest-output';

const run = fixture('swe-pytest.txt');
const source = fixture('swe-source.txt');
const failedIn = (text: string) => [...text.matchAll(/^(\S+::\S+) FAILED\b/gm)].map((m) => m[1]);

describe('swe perturbations', () => {
  it('pytest banners are centred in 80 columns like pytest draws them', () => {
    expect(banner('test session starts')).toBe(run.split('\n')[1]);
    expect(banner('6 passed in 0.42s')).toBe('============================== 6 passed in 0.42s ===============================');
    expect(banner('6 passed in 0.42s')).toHaveLength(80);
  });

  it('flaky test: exactly one passing test fails, with FAILURES, summary and recount', () => {
    const out = perturb('swe.flaky-test', { params: { test: 'tests/test_client.py::test_retry_on_502' } });
    expect(failedIn(out)).toEqual(['tests/test_client.py::test_retry_on_502']);
    expect(out).toContain('tests/test_client.py::test_retry_on_502 FAILED                           [ 33%]');
    expect(out).toMatch(/=+ FAILURES =+\ntests\/test_client\.py:\d+: ConnectionResetError: \[Errno 104\] Connection reset by peer\n/);
    expect(out).toContain(
      '=========================== short test summary info ============================\n' +
        'FAILED tests/test_client.py::test_retry_on_502 - ConnectionResetError: [Errno 104] Connection reset by peer\n' +
        '========================= 1 failed, 5 passed in 0.42s ==========================',
    );
    expect(out.split('\n')[0]).toBe('$ python -m pytest -v tests/');
    const picked = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => failedIn(perturb('swe.flaky-test', { seed }))[0]));
    expect(picked.size).toBeGreaterThan(1);
    expect(perturb('swe.flaky-test', { params: { error: 'port-in-use' } })).toContain('OSError: [Errno 98] Address already in use');
  });

  it('flaky test on output that is not a pytest run: a one-test pytest report', () => {
    const out = perturb('swe.flaky-test', { observation: 'Ran build in 2s\n', params: { test: 'tests/test_io.py::test_read' } });
    expect(out).toContain('tests/test_io.py::test_read FAILED');
    expect(out).toMatch(/=+ 1 failed in [\d.]+s =+\n$/);
    expect(out.split('\n').find((l) => l.includes('[100%]'))).toHaveLength(79);
  });

  it('test timeout: pytest-timeout failure and the run grows by the timeout', () => {
    const out = perturb('swe.test-timeout', { params: { seconds: 120, test: 'tests/test_parser.py::test_parse_nested' } });
    expect(failedIn(out)).toEqual(['tests/test_parser.py::test_parse_nested']);
    expect(out).toContain('FAILED tests/test_parser.py::test_parse_nested - Failed: Timeout >120.0s');
    expect(out).toContain(banner('1 failed, 5 passed in 120.42s (0:02:00)'));
  });

  it('merge conflict: git\'s CONFLICT report, exit status adjusted', () => {
    const merge = perturb('swe.merge-conflict', { action: 'git merge feature/retry-logic', observation: 'Updating 1a2b3c4..5d6e7f8\n[exit code: 0]', params: { file: 'src/client.py' } });
    expect(merge).toBe(
      'Auto-merging src/client.py\nCONFLICT (content): Merge conflict in src/client.py\nAutomatic merge failed; fix conflicts and then commit the result.\n[exit code: 1]',
    );
    const rebase = perturb('swe.merge-conflict', { action: 'git rebase main', params: { operation: 'rebase', file: 'src/client.py' } });
    expect(rebase).toMatch(/error: could not apply [0-9a-f]{7}\.\.\. .+\nhint: Resolve all conflicts manually/);
    expect(rebase).toMatch(/\nCould not apply [0-9a-f]{7}\.\.\. .+\n$/);
  });

  it('conflict markers: a seeded range of the file appears twice, each side different', () => {
    const out = perturb('swe.merge-conflict', { observation: source, action: 'cat src/client.py', params: { show: 'conflict-markers', branch: 'main' } });
    const [, ours, theirs] = /<<<<<<< HEAD\n([\s\S]*?)\n=======\n([\s\S]*?)\n?>>>>>>> main\n/.exec(out) ?? [];
    expect(ours).toBeDefined();
    expect(ours).not.toBe(theirs);
    expect(source).toContain(ours!);
    const placed = new Set([1, 2, 3, 4, 5, 6].map((seed) => perturb('swe.merge-conflict', { seed, observation: source, params: { show: 'conflict-markers' } })));
    expect(placed.size).toBeGreaterThan(1);
  });

  it('dependency install failure: pip and npm wording for the package the action installs', () => {
    const pip = perturb('swe.dependency-install-failure', { action: 'pip install fastjsonx==2.0', observation: 'Collecting fastjsonx==2.0\n' });
    expect(pip).toBe(
      'ERROR: Could not find a version that satisfies the requirement fastjsonx==2.0 (from versions: none)\nERROR: No matching distribution found for fastjsonx==2.0\n',
    );
    const npm = perturb('swe.dependency-install-failure', { action: 'npm install left-padd', observation: '' });
    expect(npm).toMatch(/^npm error code E404\nnpm error 404 Not Found - GET https:\/\/registry\.npmjs\.org\/left-padd - Not found/);
    const offline = perturb('swe.dependency-install-failure', { action: 'python -m pip install requests', params: { reason: 'network' } });
    expect(offline.match(/^WARNING: Retrying \(Retry\(total=\d/gm)).toHaveLength(5);
    expect(offline).toContain('/simple/requests/');
    expect(perturb('swe.dependency-install-failure', { action: 'pip install httpx', params: { reason: 'version-conflict' } })).toContain('ERROR: ResolutionImpossible');
  });

  it('lint failure: ruff lines sorted by position with a count; eslint\'s stylish report', () => {
    const ruff = perturb('swe.lint-failure', { action: 'ruff check src/client.py', observation: 'All checks passed!\n[exit code: 0]', params: { count: 3 } });
    const lines = ruff.split('\n');
    expect(lines.slice(0, 3).every((l) => /^src\/client\.py:\d+:\d+: [A-Z]+\d+ /.test(l))).toBe(true);
    const rows = lines.slice(0, 3).map((l) => Number(l.split(':')[1]));
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    expect(ruff).toMatch(/Found 3 errors\.\n(\[\*\] 1 fixable with the `--fix` option\.\n)?\[exit code: 1\]$/);
    const eslint = perturb('swe.lint-failure', { action: 'npx eslint src/index.ts', observation: '', params: { linter: 'eslint', count: 1 } });
    expect(eslint).toMatch(/^\n\/repo\/src\/index\.ts\n {2}\d+:\d+ +error {2}.+ {2}[a-z-]+\n\n✖ 1 problem \(1 error, 0 warnings\)$/);
    expect(perturb('swe.lint-failure', { seed: 1 })).not.toBe(perturb('swe.lint-failure', { seed: 2 }));
  });

  it('out of memory: partial output then Killed/137, MemoryError, or the V8 heap abort', () => {
    const killed = perturb('swe.out-of-memory', { params: { keepFraction: 0.5 } });
    expect(killed).toContain('collected 6 items');
    expect(killed).not.toContain('6 passed');
    expect(killed).toMatch(/\nKilled\n$/);
    const py = perturb('swe.out-of-memory', { observation: 'loading shards\n[exit code: 0]', action: 'python train.py', params: { style: 'python-memory-error' } });
    expect(py).toMatch(/^Traceback \(most recent call last\):\n {2}File "\/repo\/train\.py", line \d+, in <module>\nMemoryError\n\[exit code: 1\]$/);
    const node = perturb('swe.out-of-memory', { observation: '[exit code: 0]', action: 'node build.js', params: { style: 'node-heap' } });
    expect(node).toContain('FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\nAborted (core dumped)\n[exit code: 134]');
  });
});
