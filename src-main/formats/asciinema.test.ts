import { describe, expect, it } from 'vitest';
import { asciinemaImporter } from './asciinema';
import { LineEditor } from './keystrokes';
import { fixture, runImporter } from '../testing/importer-fixtures';

const run = (name: string, text: string) => runImporter(asciinemaImporter, name, text);

describe('asciinema importer', () => {
  it('splits a v2 cast without keystrokes on shell prompts and renders ANSI output', () => {
    const { bundles, problems } = run('build-session.cast', fixture('build-session.cast'));
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory.domain).toBe('terminal');
    expect(trajectory.title).toBe('Build the demo project');
    expect(trajectory.systemPrompt).toContain('/bin/bash in a 80×24 xterm-256color');
    const [root, ...steps] = nodes;
    expect(root!.observation).toBe('Linux box 6.1.0-18-amd64 #1 SMP x86_64\n\nLast login: Mon Jun 10 09:12:44 2024\ndev@box:~/proj$');
    expect(steps.map((s) => s.action)).toEqual(['ls', 'cd src', 'npm run build', 'cat missing.txt', 'exit']);
    expect(steps.every((s) => s.origin === 'real')).toBe(true);
    expect(steps[0]!.observation).toBe('src  README.md  package.json\ndev@box:~/proj$');
    // The carriage-return progress bar shows only its final state, colours are gone, and
    // the empty Enter stays inside the observation rather than making a turn of its own.
    expect(steps[2]!.observation).toBe(
      '\n> demo@1.0.0 build\n> tsc -p .\n\nBuilding [##########] 100%\ndone in 1.4s\ndev@box:~/proj/src$\ndev@box:~/proj/src$',
    );
    expect(steps[4]!.observation).toBe('logout');
    expect(root!.provenance.recording).toMatchObject({ castVersion: 2, splitBy: 'prompts' });
  });

  it('splits a v3 cast on recorded keystrokes, using the echo after Tab completion', () => {
    const { bundles, problems } = run('typed-session.cast', fixture('typed-session.cast'));
    expect(problems).toEqual([]);
    const [root, ...steps] = bundles[0]!.nodes;
    expect(root!.observation).toBe('root@c0ffee:/app#');
    expect(steps.map((s) => [s.action, s.observation])).toEqual([
      ['pwd', '/app\nroot@c0ffee:/app#'],
      ['cd /tmp/', 'root@c0ffee:/tmp#'],
      ['echo hello', 'hello\nroot@c0ffee:/tmp#'],
      ['sleep 10', ''],
      ['^C', 'root@c0ffee:/tmp#'],
      ['exit', 'exit'],
    ]);
    expect(root!.provenance.recording).toMatchObject({ castVersion: 3, cols: 60, rows: 10, splitBy: 'keystrokes', exitStatus: 0 });
    expect(steps[0]!.provenance.source?.line).toBe(10); // the Enter keystroke
    expect(steps[3]!.provenance.timings?.durationSeconds).toBeCloseTo(2.004, 3);
  });

  it('keeps lines that scrolled far off screen and output printed before `clear`', () => {
    const header = JSON.stringify({ version: 2, width: 40, height: 5 });
    const many = Array.from({ length: 2500 }, (_, i) => `line ${i}`).join('\r\n');
    const events = [
      [0.1, 'o', '$ '],
      [0.2, 'o', 'seq 2500\r\n'],
      [0.3, 'o', many + '\r\n$ '],
      [0.4, 'o', 'clear\r\n\x1b[H\x1b[2J$ '],
      [0.5, 'o', 'echo done\r\ndone\r\n$ '],
    ];
    const { bundles } = run('long.cast', [header, ...events.map((e) => JSON.stringify(e))].join('\n'));
    const steps = bundles[0]!.nodes.slice(1);
    expect(steps.map((s) => s.action)).toEqual(['seq 2500', 'clear', 'echo done']);
    const lines = steps[0]!.observation.split('\n');
    expect(lines).toHaveLength(2501);
    expect(lines[0]).toBe('line 0');
    expect(lines[2499]).toBe('line 2499');
    expect(steps[2]!.observation).toBe('done\n$');
  });

  it('shows a full-screen program\'s screen while it runs and the shell again after it exits', () => {
    const events: [number, string, string][] = [
      [0.1, 'o', 'u@h:~$ '],
      [0.1, 'i', 'vim notes.txt\r'],
      [0.0, 'o', 'vim notes.txt\r\n\x1b[?1049h\x1b[H\x1b[2Jfirst line\r\n~\r\n~\x1b[5;1H"notes.txt" 1L, 11B\x1b[1;1H'],
      [0.5, 'i', 'ddi'],
      [0.0, 'o', '\x1b[1;1H\x1b[K\x1b[5;1H-- INSERT --\x1b[1;1H'],
      [0.5, 'i', 'new\x1b:wq\r'],
      [0.0, 'o', '\x1b[?1049l'],
      [0.0, 'o', 'u@h:~$ '],
      [0.5, 'i', 'cat notes.txt\r'],
      [0.0, 'o', 'cat notes.txt\r\nnew\r\nu@h:~$ '],
    ];
    const text = [JSON.stringify({ version: 3, term: { cols: 40, rows: 5 } }), ...events.map((e) => JSON.stringify(e))].join('\n');
    const steps = run('vim.cast', text).bundles[0]!.nodes.slice(1);
    expect(steps.map((s) => s.action)).toEqual(['vim notes.txt', 'ddinew^[:wq', 'cat notes.txt']);
    expect(steps[0]!.observation).toBe('first line\n~\n~\n\n"notes.txt" 1L, 11B');
    expect(steps[1]!.observation).toBe('u@h:~$');
    expect(steps[2]!.observation).toBe('new\nu@h:~$');
  });

  it('imports a single-program recording as one turn named by the header command', () => {
    const text = [
      JSON.stringify({ version: 2, width: 80, height: 24, command: 'python3 train.py' }),
      JSON.stringify([0.5, 'o', 'epoch 1 loss 0.93\r\n']),
      JSON.stringify([1.5, 'o', 'epoch 2 loss 0.71\r\n']),
    ].join('\n');
    const steps = run('train.cast', text).bundles[0]!.nodes.slice(1);
    expect(steps).toHaveLength(1);
    expect(steps[0]!.action).toBe('python3 train.py');
    expect(steps[0]!.observation).toBe('epoch 1 loss 0.93\nepoch 2 loss 0.71');
  });

  it('reports malformed events with their line and imports the rest', () => {
    const text = [
      JSON.stringify({ version: 3, term: { cols: 80, rows: 24 } }),
      '# a comment is fine in v3',
      JSON.stringify([0.1, 'o', 'user@host:~$ ']),
      '[0.2, "o", "ls\\r\\n"',
      JSON.stringify(['soon', 'o', 'x']),
      JSON.stringify([0.1, 'o', 42]),
      JSON.stringify([0.1, 'o', 'ls\r\na.txt\r\nuser@host:~$ ']),
    ].join('\n');
    const { bundles, problems } = run('broken.cast', text);
    expect(problems.map((p) => [p.line, p.field ?? null])).toEqual([
      [4, null],
      [5, 'time'],
      [6, 'data'],
    ]);
    expect(problems[0]!.reason).toMatch(/not valid JSON/);
    expect(bundles[0]!.nodes.slice(1).map((n) => [n.action, n.observation])).toEqual([['ls', 'a.txt\nuser@host:~$']]);
  });

  it('refuses a file whose header is not a cast header', () => {
    const { bundles, problems } = run('x.cast', JSON.stringify({ version: 1, width: 80 }) + '\n[0.1,"o","hi"]');
    expect(bundles).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 1, field: 'version' });
  });

  it('says so when a recording has no prompts and no keystrokes, and keeps the screen as the initial state', () => {
    const text = [JSON.stringify({ version: 2, width: 80, height: 24 }), JSON.stringify([0.1, 'o', 'just some output\r\n'])].join('\n');
    const { bundles, problems } = run('quiet.cast', text);
    expect(problems[0]!.reason).toMatch(/no shell prompts/);
    expect(bundles[0]!.nodes).toHaveLength(1);
    expect(bundles[0]!.nodes[0]!.observation).toBe('just some output');
  });
});

describe('keystroke line editor', () => {
  it('applies backspace, ^U and ^W, and submits on Enter, ^C and ^D on an empty line', () => {
    const ed = new LineEditor();
    expect(ed.feed('lss\x7f -la\r')).toEqual([{ text: 'ls -la', edited: false }]);
    expect(ed.feed('rm -rf /\x15echo ok\r\n')).toEqual([{ text: 'echo ok', edited: false }]);
    expect(ed.feed('git commit\x17status\r')).toEqual([{ text: 'git status', edited: false }]);
    expect(ed.feed('sleep 5\x03')).toEqual([{ text: 'sleep 5^C', edited: false }]);
    expect(ed.feed('x\x04')).toEqual([]);
    expect(ed.typing).toBe(true);
    expect(ed.feed('\x7f\x04')).toEqual([{ text: '^D', edited: false }]);
  });

  it('marks lines changed by Tab, arrows or readline commands as edited', () => {
    const ed = new LineEditor();
    expect(ed.feed('\x1b[A\r')).toEqual([{ text: '', edited: true }]);
    expect(ed.feed('cat fi\t\r')).toEqual([{ text: 'cat fi\t', edited: true }]);
    expect(ed.feed('ihello\x1b:wq\r')).toEqual([{ text: 'ihello^[:wq', edited: false }]);
    expect(ed.feed('héllo wörld ✓\r')).toEqual([{ text: 'héllo wörld ✓', edited: false }]);
  });
});
