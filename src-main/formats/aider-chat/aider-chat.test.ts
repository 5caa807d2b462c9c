// aider's .aider.chat.history.md: each session its own trajectory; a reply's edits that aider
// applied are a step with aider's report; a command is a step only where its output is in the
// history (aider ≤0.53, /git); everything else aider wrote is said as left out.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { textSource } from '../../parsing/sources';
import { importerFor } from '../registry';
import { chatSessions } from './chat-log';
import { replyEdits } from './edit-blocks';
import { aiderChatImporter } from './import';
import { aiderChatSessions, listHistorySessions } from './sessions';

// Written as aider's io.py appends: a header after a blank line, its messages as `> …  `, the
// person's input as `#### …  ` after a blank line, replies after a blank line and followed by one.
const session1 = [
  '',
  '# aider chat started at 2025-03-02 10:15:07',
  '',
  '> /usr/local/bin/aider --model sonnet',
  'src/calc.py  ',
  '> Aider v0.86.1  ',
  '> Main model: anthropic/claude-sonnet-4 with diff edit format  ',
  '> Git repo: .git with 12 files  ',
  '',
  '#### add() returns the wrong sum  ',
  '#### fix it and run the tests  ',
  '',
  'The bug is an off-by-one in `add`:',
  '> the sum must not add one',
  '',
  'src/calc.py',
  '```python',
  '<<<<<<< SEARCH',
  'def add(a, b):',
  '    return a + b + 1',
  '=======',
  'def add(a, b):',
  '    return a + b',
  '>>>>>>> REPLACE',
  '```',
  '',
  'Run the tests:',
  '',
  '```bash',
  'pytest -q',
  '```',
  '',
  '> Tokens: 2.1k sent, 120 received. Cost: $0.01 message, $0.01 session.  ',
  '> Applied edit to src/calc.py  ',
  '> Commit 1a2b3c4 fix: add() no longer adds one  ',
  '> pytest -q  ',
  "> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y  ",
  '> Running pytest -q  ',
  "> Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y  ",
  '> Added 3 lines of output to the chat.  ',
  '> You can use /undo to undo and discard each aider commit.  ',
  '',
  '#### /git log --oneline -1  ',
  '> 1a2b3c4 fix: add() no longer adds one  ',
  '',
  '#### /run make lint  ',
  '> Add 0.3k tokens of command output to the chat? (Y)es/(N)o [Yes]: n  ',
  '',
  '#### rename it to plus  ',
  '',
  'src/calc.py',
  '```python',
  '<<<<<<< SEARCH',
  'def ad(a, b):',
  '=======',
  'def plus(a, b):',
  '>>>>>>> REPLACE',
  '```',
  '',
  '> Tokens: 2.4k sent, 60 received.  ',
  '> The LLM did not conform to the edit format.  ',
  '> https://aider.chat/docs/troubleshooting/edit-errors.html  ',
  '> # 1 SEARCH/REPLACE block failed to match!',
  '',
  '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in src/calc.py',
  '<<<<<<< SEARCH',
  'def ad(a, b):',
  '=======',
  'def plus(a, b):',
  '>>>>>>> REPLACE',
  '',
  'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc  ',
  '',
  'Renamed.',
  '',
];
// aider 0.53 wrote a command's output after it, and asked whether to add it.
const session2 = [
  '# aider chat started at 2024-08-20 09:00:00',
  '',
  '> Aider v0.53.0  ',
  '',
  '#### /run python -m pytest  ',
  '> ===== 1 failed =====',
  'FAILED test_calc.py::test_add',
  '  assert 3 == 2  ',
  '> Add the output to the chat?',
  '[Y/n/instructions] y  ',
  '> ===== 1 failed =====  ',
  '',
];
// aider 0.54 to 0.63 asked first, then wrote the output a line at a time, each line stripped.
const session4 = [
  '# aider chat started at 2024-10-01 12:00:00',
  '',
  '> Aider v0.60.0  ',
  '',
  '#### /run npm test  ',
  '> Add the output to the chat?',
  '(Y)es/(n)o/message with instructions: y  ',
  '> > app@1.0.0 test  ',
  '>  ',
  '> FAIL  src/sum.test.js  ',
  '> Do you want to continue? [Y/n]  ',
  '',
  '#### /run ls  ',
  '> Add the output to the chat?',
  '(Y)es/(n)o/message with instructions: n  ',
  '',
];
const session3 = ['# aider chat started at 2025-03-03 08:00:00', '', '#### /ask what does calc.py do?  ', '', '#### what does calc.py do?  ', '', 'It adds numbers.', '', '> Tokens: 1k sent, 10 received.  ', ''];
const history = [...session1, ...session2, ...session3, ...session4].join('\n');

describe('aider chat history', () => {
  it('is recognised by its session header, not taken for another text format', () => {
    expect(importerFor('auto', '.aider.chat.history.md', history).id).toBe('aider-chat');
    expect(aiderChatImporter.detect('notes.md', '# Notes\n')).toBe(0);
    // Notes written above the first session hide it from detection; the refusal names it and the reader that takes it.
    expect(() => importerFor('auto', 'history.md', `My notes\n${history}`)).toThrow(/looks like an aider chat history \(\.aider\.chat\.history\.md\), which Worldloom reads as .*--format aider-chat/);
    const { bundles, skipped } = runImporter(aiderChatImporter, 'history.md', `My notes\n${history}`);
    expect(bundles).toHaveLength(3);
    expect(skipped.map((s) => s.what)).toContain('1 line(s) before the first "# aider chat started at" header');
  });

  it('reads the layout aider writes: input, replies, messages of one line and of several', () => {
    const [first] = [...chatSessions(textSource('h.md', history).lines())];
    expect(first!.startedAt).toBe('2025-03-02 10:15:07');
    const kinds = first!.entries.map((e) => [e.kind, e.text.split('\n')[0]]);
    expect(kinds.slice(0, 7)).toEqual([
      ['message', '/usr/local/bin/aider --model sonnet'],
      ['message', 'Aider v0.86.1'],
      ['message', 'Main model: anthropic/claude-sonnet-4 with diff edit format'],
      ['message', 'Git repo: .git with 12 files'],
      ['input', 'add() returns the wrong sum'],
      ['reply', 'The bug is an off-by-one in `add`:'],
      ['message', 'Tokens: 2.1k sent, 120 received. Cost: $0.01 message, $0.01 session.'],
    ]);
    expect(first!.entries[0]!.text).toBe('/usr/local/bin/aider --model sonnet\nsrc/calc.py');
    expect(first!.entries[4]!.text).toBe('add() returns the wrong sum\nfix it and run the tests');
    // A quote inside the reply's paragraph stays in the reply.
    expect(first!.entries[5]!.text).toContain('`add`:\n> the sum must not add one\n\nsrc/calc.py');
    const failure = first!.entries.find((e) => e.text.startsWith('# 1 SEARCH/REPLACE'));
    expect(failure!.text.split('\n').at(-1)).toBe('The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc');
  });

  it('separates the edit blocks of a reply from its words', () => {
    const edits = replyEdits('Fix:\n\nsrc/a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\nDone.');
    expect(edits).toEqual({ edits: 'src/a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```', words: 'Fix:\n\nDone.' });
    expect(replyEdits('No edits here.\n```bash\nls\n```')).toBeNull();
  });

  it('makes each session a trajectory: applied edits and commands with output are steps, the rest is said', () => {
    const { bundles, problems, skipped } = runImporter(aiderChatImporter, '.aider.chat.history.md', history);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(3);
    const [a, b, c] = bundles.map((x) => x.nodes);
    expect(bundles[0]!.trajectory.domain).toBe('swe');
    expect(a![0]!.observation).toBe('add() returns the wrong sum\nfix it and run the tests');
    expect(a!.slice(1).map((n) => [n.action, n.observation])).toEqual([
      ['src/calc.py\n```python\n<<<<<<< SEARCH\ndef add(a, b):\n    return a + b + 1\n=======\ndef add(a, b):\n    return a + b\n>>>>>>> REPLACE\n```', 'Applied edit to src/calc.py\nCommit 1a2b3c4 fix: add() no longer adds one'],
      ['git log --oneline -1', '1a2b3c4 fix: add() no longer adds one'],
      [
        'src/calc.py\n```python\n<<<<<<< SEARCH\ndef ad(a, b):\n=======\ndef plus(a, b):\n>>>>>>> REPLACE\n```',
        expect.stringMatching(/^The LLM did not conform to the edit format\.\nhttps:\/\/aider\.chat\/docs\/troubleshooting\/edit-errors\.html\n# 1 SEARCH\/REPLACE block failed to match!\n\n## SearchReplaceNoExactMatch/),
      ],
    ]);
    expect(a![1]!.agentReasoning).toBe('The bug is an off-by-one in `add`:\n> the sum must not add one\n\nRun the tests:\n\n```bash\npytest -q\n```');
    expect(a![3]!.provenance.tool).toMatchObject({ name: 'edit', isError: true });
    expect(a![3]!.provenance.userMessages).toEqual(['rename it to plus']);
    // aider 0.53: the command's output, as aider wrote it.
    expect(b!.slice(1).map((n) => [n.action, n.observation])).toEqual([['python -m pytest', '===== 1 failed =====\nFAILED test_calc.py::test_add\n  assert 3 == 2']]);
    // aider 0.60: the lines it wrote after the person added the output; a run not added has none.
    expect(c!.slice(1).map((n) => [n.action, n.observation])).toEqual([['npm test', '> app@1.0.0 test\n\nFAIL  src/sum.test.js\nDo you want to continue? [Y/n]']]);
    expect(bundles[2]!.trajectory.domain).toBe('terminal');
    expect(bundles[0]!.nodes[0]!.provenance).toMatchObject({ aider: { startedAt: '2025-03-02 10:15:07', version: '0.86.1', model: 'anthropic/claude-sonnet-4 with diff edit format' } });
    const whats = skipped.map((s) => s.what);
    expect(whats).toEqual(
      expect.arrayContaining([
        'the command pytest -q',
        'the command make lint',
        'the command ls',
        '2 × token and cost report',
        "the agent's last words: Renamed.",
        'the session started at 2025-03-03 08:00:00: what does calc.py do?',
      ]),
    );
    expect(skipped.find((s) => s.what === 'the command pytest -q')!.reason).toMatch(/does not keep what the command printed/);
  });

  it('reads a history whose trailing spaces were trimmed (an editor saved it) line by line, as aider reads it back', () => {
    const trimmed = [
      '# aider chat started at 2024-08-20 14:08:19',
      '',
      '> Aider v0.50.1',
      '',
      '#### make the header sticky',
      '',
      'Two steps.',
      '',
      '#### 1. The stylesheet',
      '',
      'app/styles/app.css',
      '',
      '```css',
      '<<<<<<< SEARCH',
      '.header {}',
      '=======',
      '.header { position: sticky; }',
      '>>>>>>> REPLACE',
      '```',
      '',
      '> Applied edit to app/styles/app.css',
      '> Allow edits to app/root.tsx which was not previously added to chat? n',
      '> Skipping edits to app/root.tsx',
      '',
      '',
      '#### now write the whole footer',
      '',
      '**src/Footer.js**',
      '```',
      'export const Footer = () => null;',
      '```',
      '',
      '> Applied edit to src/Footer.js',
      '',
    ].join('\n');
    const { bundles, problems, skipped } = runImporter(aiderChatImporter, '.aider.chat.history.md', trimmed);
    expect(problems).toEqual([]);
    expect(bundles[0]!.nodes.slice(1).map((n) => [n.action, n.observation, n.agentReasoning])).toEqual([
      ['app/styles/app.css\n\n```css\n<<<<<<< SEARCH\n.header {}\n=======\n.header { position: sticky; }\n>>>>>>> REPLACE\n```', 'Applied edit to app/styles/app.css\nSkipping edits to app/root.tsx', 'Two steps.\n\n#### 1. The stylesheet'],
      // The `whole` format: a fence after the path of the file aider said it edited.
      ['**src/Footer.js**\n```\nexport const Footer = () => null;\n```', 'Applied edit to src/Footer.js', undefined],
    ]);
    expect(skipped.map((s) => s.what)).toContain("1 × aider's question to the person, with the answer");
  });

  it('lists each session of a history found in the home folder (or WORLDLOOM_AIDER_FOLDERS) and imports one by its start time', () => {
    expect(aiderChatSessions.folders({ home: '/home/li', platform: 'linux', env: {} })).toEqual([{ path: '/home/li', from: 'default' }]);
    expect(aiderChatSessions.folders({ home: '/home/li', platform: 'linux', env: { WORLDLOOM_AIDER_FOLDERS: '/src/a:/src/b' } }).map((f) => f.path)).toEqual(['/src/a', '/src/b']);
    const dir = mkdtempSync(join(tmpdir(), 'aider-'));
    const file = join(dir, '.aider.chat.history.md');
    writeFileSync(file, history);
    const listed = listHistorySessions(file);
    expect(listed.map((s) => [s.id, s.toolCalls, s.project])).toEqual([
      ['2025-03-02T10:15:07', 1, dir],
      ['2024-08-20T09:00:00', 0, dir],
      ['2025-03-03T08:00:00', 0, dir],
      ['2024-10-01T12:00:00', 0, dir],
    ]);
    // Every byte but the blank line before the first header, which belongs to no session.
    expect(listed.reduce((n, s) => n + s.bytes, 0)).toBe(Buffer.byteLength(history) - 1);
    let n = 0;
    const one = [...aiderChatImporter.parse({ ...textSource('h.md', history), session: '2024-08-20T09:00:00' }, () => `id-${n++}`, '2025-01-01T00:00:00Z')];
    expect(one.filter((i) => i.kind === 'trajectory')).toHaveLength(1);
    const none = [...aiderChatImporter.parse({ ...textSource('h.md', history), session: '1999-01-01T00:00:00' }, () => `id-${n++}`, '2025-01-01T00:00:00Z')];
    expect(none).toEqual([{ kind: 'problem', line: null, reason: expect.stringContaining('its sessions are 2025-03-02T10:15:07, 2024-08-20T09:00:00, 2025-03-03T08:00:00, 2024-10-01T12:00:00') }]);
  });
});
