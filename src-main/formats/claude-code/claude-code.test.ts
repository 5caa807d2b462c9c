// Claude Code session files imported: recognised by detection, each tool call paired with its result
// (../../parsing/agent-session.ts) as a step, and what is left out said.
import { describe, expect, it } from 'vitest';
import { fixture, runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { claudeCodeImporter } from './import';

const steps = (bundle: { nodes: { action: string; observation: string }[] }) => bundle.nodes.slice(1).map((n) => [n.action, n.observation]);
const whats = (skipped: { what: string }[]) => skipped.map((s) => s.what);

describe('Claude Code session JSONL', () => {
  const text = fixture('claude-code', 'claude-code-session.jsonl');

  it('is recognised without --format', () => {
    expect(importerFor('auto', '5f0c9a1e.jsonl', text).id).toBe('claude-code');
  });

  it('each answered tool call is a step; harness calls, meta and sidechain records, slash commands and the unanswered call are said', () => {
    const { bundles, problems, skipped } = runImporter(claudeCodeImporter, '5f0c9a1e.jsonl', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory).toMatchObject({ title: 'Fix the add() bug in calc.py (Claude Code)', domain: 'swe' });
    expect(nodes[0]!.observation).toBe('Working directory: /work/calc\n\nFix the failing test in calc.py');
    // Counted by hand: Bash, Read, Edit answered (TodoWrite is the harness's, the last Bash was
    // interrupted), and the person's own `git diff --stat` in bash mode.
    expect(steps(bundles[0]!)).toEqual([
      ['pytest -q', 'F\n1 failed in 0.02s'],
      ['{"name":"Read","arguments":{"file_path":"/work/calc/calc.py"}}', '     1→def add(a, b):\n     2→    return a - b'],
      ['{"name":"Edit","arguments":{"file_path":"/work/calc/calc.py","old_string":"a - b","new_string":"a + b"}}', 'The file /work/calc/calc.py has been updated.'],
      ['git diff --stat', ' calc.py | 2 +-\n 1 file changed'],
    ]);
    expect(nodes[1]!.agentReasoning).toBe('The test fails; run it first.\n\nLet me run the tests.');
    expect(nodes[1]!.provenance.tool).toEqual({ name: 'Bash', callId: 'toolu_1', isError: true });
    expect(whats(skipped)).toEqual([
      'the harness call TodoWrite and its answer: Todos have been modified successfully.',
      'a later user message: Also run it once more',
      '1 × session summary',
      '1 × file-history-snapshot record',
      '1 × message the harness added (isMeta)',
      '1 × slash command or its output',
      '1 × interruption by the person',
      '1 × summary of the conversation so far (/compact)',
      'the call pytest -q',
      "the agent's last words: Fixed: add() now adds.",
      'subagent conversation 1 (1 records) without a tool call',
    ]);
  });

  // Shapes seen in real sessions of Claude Code 1.0.9x–1.0.10x (a custom slash command as the
  // request, subagents interleaved in the session's file) and 2.0.x (a reminder after a Read).
  const older = fixture('claude-code', 'claude-code-1.0-command-subagent.jsonl');

  it("a slash command with arguments is the person's request; its prompt is kept in provenance, not the initial state", () => {
    const { bundles, problems, skipped } = runImporter(claudeCodeImporter, '7c1e9d20.jsonl', older);
    expect(problems).toEqual([]);
    const root = bundles[0]!.nodes[0]!;
    expect(root.observation).toBe('Working directory: /home/mia/shop\n\n/shipit bump the version to 2.4.0');
    expect((root.provenance.claudeCode as { commandPrompts: { command: string; prompt: string }[] }).commandPrompts).toEqual([
      { command: '/shipit bump the version to 2.4.0', prompt: expect.stringContaining('Release checklist.') },
    ]);
    expect(whats(skipped)).toContain('1 × prompt of the slash command /shipit');
    expect(whats(skipped)).not.toContain('1 × slash command or its output');
  });

  it('a slash command without arguments is the prompt it expanded into', () => {
    const lines = older.split('\n');
    const withoutArgs = [lines[0]!.replace(/<command-args>[^<]*<\/command-args>/, '<command-args></command-args>'), ...lines.slice(1)].join('\n');
    const { bundles } = runImporter(claudeCodeImporter, '7c1e9d20.jsonl', withoutArgs);
    expect(bundles[0]!.nodes[0]!.observation).toMatch(/^Working directory: \/home\/mia\/shop\n\n\/shipit\n\nRelease checklist\./);
  });

  it("reasoning goes with the call it leads to: past a to-do call, and never the reply that ended the person's turn", () => {
    const { bundles, skipped } = runImporter(claudeCodeImporter, '7c1e9d20.jsonl', older);
    const nodes = bundles[0]!.nodes;
    expect(steps(bundles[0]!).map(([a]) => a)).toEqual([
      '{"name":"Read","arguments":{"file_path":"/home/mia/shop/VERSION"}}',
      '{"name":"Edit","arguments":{"file_path":"/home/mia/shop/VERSION","old_string":"2.3.9","new_string":"2.4.0"}}',
      '{"name":"Task","arguments":{"description":"Check changelog","prompt":"Does CHANGELOG.md mention 2.4.0? Answer yes or no.","subagent_type":"general-purpose"}}',
      'npm test --silent',
    ]);
    expect(nodes[1]!.agentReasoning).toBe("I'll plan the release first.");
    expect(nodes[3]!.agentReasoning).toBe('Running both now.');
    expect(nodes[3]!.provenance.userMessages).toEqual(['yes, and check the changelog in parallel']);
    expect(whats(skipped)).toContain("the agent's reply to the person: Version bumped. Shall I run the tests?");
  });

  it("a reminder the harness appended to a tool result is not the tool's output, and is said", () => {
    const { bundles, skipped } = runImporter(claudeCodeImporter, '7c1e9d20.jsonl', older);
    expect(bundles[0]!.nodes[1]!.observation).toBe('     1→2.3.9\n     2→');
    expect(whats(skipped)).toContain('1 × reminder Claude Code appended to a tool result');
  });

  it("an interleaved subagent is a trajectory of its own, tied to the Task call that started it", () => {
    const { bundles } = runImporter(claudeCodeImporter, '7c1e9d20.jsonl', older);
    expect(bundles).toHaveLength(2);
    expect(bundles[0]!.nodes[3]!.observation).toBe('no');
    const sub = bundles[1]!;
    expect(sub.nodes[0]!.observation).toBe('Working directory: /home/mia/shop\n\nDoes CHANGELOG.md mention 2.4.0? Answer yes or no.');
    expect(steps(sub)).toEqual([['{"name":"Grep","arguments":{"pattern":"2\\\\.4\\\\.0","path":"/home/mia/shop/CHANGELOG.md"}}', 'No matches found']]);
    expect((sub.nodes[0]!.provenance.claudeCode as { subagent: unknown }).subagent).toEqual({ key: 'c13', taskCallId: 'toolu_t1' });
  });

  it("a subagent's own file imports its conversation; a warm-up that calls no tool is said", () => {
    const text = fixture('claude-code', 'agent-e93a5c10.jsonl');
    expect(importerFor('auto', 'agent-e93a5c10.jsonl', text).id).toBe('claude-code');
    const { bundles, problems, skipped } = runImporter(claudeCodeImporter, 'agent-e93a5c10.jsonl', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    expect(bundles[0]!.nodes[0]!.observation).toBe('Working directory: /home/mia/shop\n\nCount the TODO comments under src/.');
    expect(steps(bundles[0]!)).toEqual([["grep -rc TODO src/ | awk -F: '{s+=$2} END {print s}'", '7']]);
    expect(bundles[0]!.nodes[1]!.agentReasoning).toBe('A recursive grep counts them.');
    expect(whats(skipped)).toEqual(['subagent conversation 1 (2 records) without a tool call', "the agent's last words: There are 7 TODO comments under src/."]);
  });

  it('a tool input is kept as the line wrote it: numbers and key order', () => {
    const base = '"isSidechain":false,"userType":"external","sessionId":"s1","version":"2.0.9","cwd":"/w"';
    const lines = [
      `{"parentUuid":null,${base},"type":"user","message":{"role":"user","content":"Price the order"},"uuid":"a"}`,
      `{"parentUuid":"a",${base},"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"mcp__shop__price","input":{"sku":"B-7","qty":2.0,"10":"gift"}}]},"uuid":"b"}`,
      `{"parentUuid":"b",${base},"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"4.40"}]},"uuid":"c"}`,
    ];
    const { bundles } = runImporter(claudeCodeImporter, 's1.jsonl', lines.join('\n'));
    expect(steps(bundles[0]!)).toEqual([['{"name":"mcp__shop__price","arguments":{"sku":"B-7","qty":2.0,"10":"gift"}}', '4.40']]);
  });

  it("is recognised when the session opens with many of the app's own records", () => {
    const snapshot = '{"type":"file-history-snapshot","messageId":"m0","snapshot":{"messageId":"m0","trackedFileBackups":{},"timestamp":"2025-12-01T09:00:00.000Z"},"isSnapshotUpdate":false}';
    const queue = '{"type":"queue-operation","operation":"dequeue","timestamp":"2025-12-01T09:00:00.000Z","sessionId":"5f0c9a1e-claude-fixture"}';
    const body = text.split('\n').filter((l) => !l.includes('"type":"summary"') && !l.includes('file-history-snapshot'));
    const opened = [queue, ...Array.from({ length: 12 }, () => snapshot), ...body].join('\n');
    expect(importerFor('auto', '5f0c9a1e.jsonl', opened).id).toBe('claude-code');
    expect(importerFor('auto', '5f0c9a1e.jsonl', [queue, snapshot].join('\n')).id).toBe('claude-code');
  });

  it("newer versions' progress and system records are said with what they are; a question to the person is not a step", () => {
    const text21 = fixture('claude-code', 'claude-code-2.1-progress.jsonl');
    expect(importerFor('auto', '0e6b2c71.jsonl', text21).id).toBe('claude-code');
    const { bundles, problems, skipped } = runImporter(claudeCodeImporter, '0e6b2c71.jsonl', text21);
    expect(problems).toEqual([]);
    // Counted by hand: the build and the Task call; AskUserQuestion asked the person.
    expect(steps(bundles[0]!)).toEqual([
      ['npm run build', '> site@1.0.0 build\nBuilt 14 pages in 2.1s'],
      ['{"name":"Task","arguments":{"description":"Check links","prompt":"Find broken links in dist/","subagent_type":"Explore"}}', 'No broken links in dist/.'],
    ]);
    expect(whats(skipped)).toEqual([
      'the harness call AskUserQuestion and its answer: User has answered your questions: "Deploy it too?"="No".',
      '1 × queue-operation record',
      '1 × progress record (hook_progress)',
      '1 × progress record (bash_progress)',
      '1 × progress record (agent_progress)',
      '1 × system record (compact_boundary)',
      '1 × system record (local_command)',
      "the agent's last words: The build passes (14 pages) and no links are broken.",
    ]);
    expect(skipped.find((s) => s.what === '1 × progress record (agent_progress)')!.reason).toMatch(/subagents\/agent-<id>\.jsonl/);
  });

  it("a compaction agent's own file is said as such", () => {
    const base = '"isSidechain":true,"userType":"external","sessionId":"s2","version":"2.1.40","cwd":"/w","agentId":"acompact-1a2b3c"';
    const lines = [
      `{"parentUuid":null,${base},"type":"user","message":{"role":"user","content":"Summarise the conversation so far."},"uuid":"a"}`,
      `{"parentUuid":"a",${base},"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"<summary>Work so far…</summary>"}]},"uuid":"b"}`,
    ];
    const { bundles, skipped } = runImporter(claudeCodeImporter, 'agent-acompact-1a2b3c.jsonl', lines.join('\n'));
    expect(bundles).toEqual([]);
    expect(whats(skipped)).toEqual(["the compaction agent's conversation (2 records)"]);
  });

  it("the IDE's context and the app's notices are not the person's words; a message's text blocks stay one message", () => {
    const base = '"isSidechain":false,"userType":"external","sessionId":"s3","version":"2.1.40","cwd":"/w"';
    const user = (uuid: string, content: unknown) => `{"parentUuid":null,${base},"type":"user","message":{"role":"user","content":${JSON.stringify(content)}},"uuid":"${uuid}"}`;
    const lines = [
      user('a', [
        { type: 'text', text: '<ide_opened_file>The user opened the file /w/app.py in the IDE.</ide_opened_file>' },
        { type: 'text', text: 'Run the app in the background' },
        { type: 'text', text: 'and tell me when it stops.' },
      ]),
      `{"parentUuid":"a",${base},"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"python app.py","run_in_background":true}}]},"uuid":"b"}`,
      user('c', [{ type: 'tool_result', tool_use_id: 't1', content: 'Command running in background with ID: 7f3a' }]),
      user('d', '<task-notification>\n<task-id>7f3a</task-id>\n<status>completed</status>\n</task-notification>'),
      `{"parentUuid":"d",${base},"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"It stopped."}]},"uuid":"e"}`,
    ];
    const { bundles, skipped } = runImporter(claudeCodeImporter, 's3.jsonl', lines.join('\n'));
    expect(bundles[0]!.nodes[0]!.observation).toBe('Working directory: /w\n\nRun the app in the background\n\nand tell me when it stops.');
    expect(steps(bundles[0]!)).toEqual([['python app.py', 'Command running in background with ID: 7f3a']]);
    expect(whats(skipped)).toEqual(['1 × editor context the IDE added', '1 × background task notification', "the agent's last words: It stopped."]);
  });

  it('a screenshot a tool returned is marked in the observation and said in the report', () => {
    const base = '"isSidechain":false,"userType":"external","sessionId":"s4","version":"2.1.40","cwd":"/w"';
    const lines = [
      `{"parentUuid":null,${base},"type":"user","message":{"role":"user","content":"Check the login page"},"uuid":"a"}`,
      `{"parentUuid":"a",${base},"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"mcp__playwright__browser_take_screenshot","input":{}}]},"uuid":"b"}`,
      `{"parentUuid":"b",${base},"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"Took the screenshot"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}]},"uuid":"c"}`,
    ];
    const { bundles, skipped } = runImporter(claudeCodeImporter, 's4.jsonl', lines.join('\n'));
    expect(steps(bundles[0]!)).toEqual([['{"name":"mcp__playwright__browser_take_screenshot","arguments":{}}', 'Took the screenshot\n(an image)']]);
    expect(whats(skipped)).toEqual(['1 × image in a tool result']);
  });

  it("an API error the app wrote in the agent's place is not the agent's reasoning", () => {
    const base = '"isSidechain":false,"userType":"external","sessionId":"s5","version":"2.1.40","cwd":"/w"';
    const lines = [
      `{"parentUuid":null,${base},"type":"user","message":{"role":"user","content":"List the files"},"uuid":"a"}`,
      `{"parentUuid":"a",${base},"type":"assistant","isApiErrorMessage":true,"message":{"model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"API Error: 529 Overloaded"}]},"uuid":"b"}`,
      `{"parentUuid":"b",${base},"type":"user","message":{"role":"user","content":"try again"},"uuid":"c"}`,
      `{"parentUuid":"c",${base},"type":"assistant","message":{"model":"claude-opus-4-6","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},"uuid":"d"}`,
      `{"parentUuid":"d",${base},"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.txt"}]},"uuid":"e"}`,
    ];
    const { bundles, skipped } = runImporter(claudeCodeImporter, 's5.jsonl', lines.join('\n'));
    expect(steps(bundles[0]!)).toEqual([['ls', 'a.txt']]);
    expect(bundles[0]!.nodes[1]!.agentReasoning ?? null).toBeNull();
    expect(whats(skipped)).toEqual(['a later user message: try again', "1 × message the app wrote in the agent's place"]);
  });

  it("print mode's stream (claude -p --output-format stream-json) is recognised and read: its subagent is its own trajectory, tied to its Task call", () => {
    const stream = fixture('claude-code', 'claude-print-stream.jsonl');
    expect(importerFor('auto', 'run.jsonl', stream).id).toBe('claude-code');
    const { bundles, problems, skipped } = runImporter(claudeCodeImporter, 'run.jsonl', stream);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(2);
    expect(bundles[0]!.trajectory.title).toBe('Claude Code 2.0.31 · 6f1c2b7e-5d4a-4e1b-9c3f-2a8d7e6b5c41');
    expect(bundles[0]!.nodes[0]!.observation).toBe('Working directory: /srv/app');
    expect(steps(bundles[0]!)).toEqual([
      ['pytest -x -q', '1 failed, 3 passed'],
      ['{"name":"Task","arguments":{"description":"Read changelog","prompt":"What changed in the last release? One line.","subagent_type":"general-purpose"}}', '1.4.0 made start-up faster.'],
    ]);
    expect(steps(bundles[1]!)).toEqual([['{"name":"Read","arguments":{"file_path":"/srv/app/CHANGELOG.md"}}', '     1→## 1.4.0\n     2→- Faster start-up']]);
    expect((bundles[1]!.nodes[0]!.provenance.claudeCode as { subagent: unknown }).subagent).toEqual({ key: 'toolu_p2', taskCallId: 'toolu_p2' });
    expect(whats(skipped)).toEqual([
      'the prompt',
      '1 × system record (init)',
      '1 × stream_event record',
      '1 × result record',
      "the agent's last words: One test fails; the last release made start-up faster.",
      "the agent's last words: 1.4.0 made start-up faster.",
    ]);
  });

  it('a call the person did not let run is no step, and is said', () => {
    const base = '"isSidechain":false,"userType":"external","sessionId":"s6","version":"2.1.40","cwd":"/w"';
    const lines = [
      `{"parentUuid":null,${base},"type":"user","message":{"role":"user","content":"Tidy the repo"},"uuid":"a"}`,
      `{"parentUuid":"a",${base},"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"I'll remove the build folder."},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"rm -rf build"}}]},"uuid":"b"}`,
      `{"parentUuid":"b",${base},"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."}]},"toolUseResult":"User rejected tool use","uuid":"c"}`,
      `{"parentUuid":"c",${base},"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"git status --short"}}]},"uuid":"d"}`,
      `{"parentUuid":"d",${base},"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"?? build/"}]},"uuid":"e"}`,
    ];
    const { bundles, skipped } = runImporter(claudeCodeImporter, 's6.jsonl', lines.join('\n'));
    expect(steps(bundles[0]!)).toEqual([['git status --short', '?? build/']]);
    expect(bundles[0]!.nodes[1]!.agentReasoning ?? null).toBeNull();
    expect(whats(skipped)).toEqual(['1 × call the person did not let run (Bash)']);
  });
});


describe('Claude Code: rewinds and repeated records', () => {
  const text = fixture('claude-code', 'claude-code-rewind.jsonl');

  it('a rewound branch is left out and said; the conversation follows the prompt written after the rewind', () => {
    const { bundles, problems, skipped } = runImporter(claudeCodeImporter, 'rewind.jsonl', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    // Parallel results (each parented at its own call) are a fork too, but not a rewind: both stay.
    expect(steps(bundles[0]!)).toEqual([
      ['ls', 'a.md\nb.md\n'],
      ['rm b.md', ''],
      ['cat a.md', '# A\n'],
      ['wc -l a.md', '1 a.md\n'],
    ]);
    expect(bundles[0]!.nodes.some((n) => n.action === 'rm a.md')).toBe(false);
    const rewind = skipped.find((s) => s.what.includes('message a rewind took back'));
    expect(rewind).toMatchObject({ what: '3 × message a rewind took back', line: 7 });
    expect(rewind!.reason).toContain('line 10');
    expect(bundles[0]!.nodes[3]!.provenance).toMatchObject({ userMessages: ['Instead, print the first note'] });
  });

  it('a record written twice (the same uuid) is read once, and said', () => {
    const { skipped } = runImporter(claudeCodeImporter, 'rewind.jsonl', text);
    expect(skipped.find((s) => s.what.includes('the same uuid'))).toMatchObject({ what: '1 × copy of a message already read (the same uuid)', line: 15 });
  });

  it('without a rewind every record is read in file order, as before', () => {
    const kept = text.split('\n').filter((l) => !/"uuid":"a[789]"/.test(l)).join('\n');
    const { bundles, skipped } = runImporter(claudeCodeImporter, 'rewind.jsonl', kept);
    expect(steps(bundles[0]!).map(([a]) => a)).toEqual(['ls', 'rm b.md', 'cat a.md', 'wc -l a.md']);
    expect(skipped.some((s) => s.what.includes('rewind'))).toBe(false);
  });

  it("a fork of the app's own (a progress record beside the next prompt) takes nothing back", () => {
    const lines = text.split('\n').filter((l) => !/"uuid":"a[789]"/.test(l));
    // A hook's progress record hangs off a6 too, with a call that continued from it: off the chain, but not a rewind.
    const base = '"isSidechain":false,"userType":"external","cwd":"/work/notes","sessionId":"rewind-fixture","version":"2.1.40"';
    lines.splice(
      6,
      0,
      `{"parentUuid":"a6",${base},"type":"progress","data":{"type":"hook_progress"},"uuid":"p1"}`,
      `{"parentUuid":"p1",${base},"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t9","name":"Bash","input":{"command":"git status"}}]},"uuid":"p2"}`,
      `{"parentUuid":"p2",${base},"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9","content":"clean"}]},"uuid":"p3"}`,
    );
    const { bundles, skipped } = runImporter(claudeCodeImporter, 'rewind.jsonl', lines.join('\n'));
    expect(steps(bundles[0]!).map(([a]) => a)).toEqual(['ls', 'rm b.md', 'git status', 'cat a.md', 'wc -l a.md']);
    expect(skipped.some((s) => s.what.includes('rewind'))).toBe(false);
  });

  it('a chain with a parent the file lacks is not trusted: nothing is taken back', () => {
    const broken = text.replace('"parentUuid":"a6","isSidechain":false,"userType":"external","cwd":"/work/notes","sessionId":"rewind-fixture","version":"2.1.40","gitBranch":"main","type":"user","message":{"role":"user","content":"Instead', '"parentUuid":"gone","isSidechain":false,"userType":"external","cwd":"/work/notes","sessionId":"rewind-fixture","version":"2.1.40","gitBranch":"main","type":"user","message":{"role":"user","content":"Instead');
    expect(broken).not.toBe(text);
    const { bundles } = runImporter(claudeCodeImporter, 'rewind.jsonl', broken);
    expect(steps(bundles[0]!).map(([a]) => a)).toContain('rm a.md');
  });
});
