import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { commandOf, miniSweAgentImporter, MINI_SWE_SYSTEM_PROMPT, outputOf } from './import';
import { importerFor } from '../registry';
import { realWorld, realWorldNote } from '../../testing/real-world';

const run = (text: string, name = 'run.traj.json') => runImporter(miniSweAgentImporter, name, text);

// The older shape: a bare list of messages (no info), written here in mini-swe-agent's layout.
const bareList = [
  { role: 'system', content: 'You are a helpful assistant that can interact with a computer.' },
  { role: 'user', content: 'Please solve this issue: the build fails on a missing header\n\nYou can execute bash commands and edit files.' },
  { role: 'assistant', content: 'THOUGHT: look at the build first.\n\n```bash\nmake 2>&1 | tail -1\n```' },
  { role: 'user', content: '<returncode>2</returncode>\n<output>\nfatal error: zlib.h: No such file or directory\n</output>' },
  { role: 'assistant', content: 'Two commands at once.\n\n```bash\nls\n```\n\n```bash\npwd\n```' },
  { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks.' },
  { role: 'assistant', content: 'THOUGHT: check the include path.\n\n```bash\nls /usr/include | grep -c zlib\n```' },
  { role: 'user', content: '<returncode>1</returncode>\n<output>\n0\n</output>' },
  { role: 'assistant', content: 'Done.\n\n```bash\necho MINI_SWE_AGENT_FINAL_OUTPUT\n```' },
  { role: 'user', content: '' },
];

describe('mini-swe-agent importer', () => {
  it('reads a bare message list: one fenced command per turn, its output, the thought as the agent\'s', () => {
    const { bundles, problems, skipped } = run(JSON.stringify(bareList));
    expect(problems).toEqual([]);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory.systemPrompt).toBe(MINI_SWE_SYSTEM_PROMPT);
    const [root, ...steps] = nodes;
    expect(root!.observation).toBe('the build fails on a missing header');
    expect(steps.map((s) => [s.action, s.observation, s.provenance.exitCode])).toEqual([
      ['make 2>&1 | tail -1', 'fatal error: zlib.h: No such file or directory\n', 2],
      ['ls /usr/include | grep -c zlib', '0\n', 1],
    ]);
    expect(steps.map((s) => s.agentReasoning)).toEqual(['look at the build first.', 'check the include path.']);
    expect(steps.every((s) => s.reasoning === null)).toBe(true);
    expect(skipped.map((s) => s.what)).toEqual([
      '4 (a reply without exactly one command) and the harness\'s answer 5',
      '8 (the submit command echo MINI_SWE_AGENT_FINAL_OUTPUT)',
      "the agent's system prompt",
      "the agent's instructions around the task",
    ]);
  });

  it('reads v2 files: mswea_bash_command blocks, and bash tool calls answered by tool messages', () => {
    const doc = {
      trajectory_format: 'mini-swe-agent-1.1',
      info: { mini_version: '2.0.0', exit_status: 'Submitted' },
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Please solve this issue: count the files' },
        { role: 'assistant', content: 'List them.\n\n```mswea_bash_command\nls | wc -l\n```' },
        { role: 'user', content: '<returncode>0</returncode>\n<output>\n3\n</output>' },
        { role: 'assistant', content: 'Check the size too.', reasoning_content: 'Sizes matter.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command": "du -sh ."}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '<returncode>0</returncode>\n<output>\n12K\t.\n</output>' },
        { role: 'assistant', content: 'One more.\n\n```mswea_bash_command\nls -a\n```' },
      ],
    };
    const { bundles, problems, skipped } = run(JSON.stringify(doc));
    expect(problems).toEqual([]);
    expect(bundles[0]!.nodes.slice(1).map((s) => [s.action, s.observation, s.agentReasoning])).toEqual([
      ['ls | wc -l', '3\n', 'List them.'],
      ['du -sh .', '12K\t.\n', 'Sizes matter.\n\nCheck the size too.'],
    ]);
    expect(skipped[0]).toMatchObject({ what: 'messages.6 (the last command, ls -a)', reason: 'the file ends before the environment answered it' });
  });

  it('is told apart from a chat dataset and from SWE-agent by its content', () => {
    expect(importerFor('auto', 'run.json', JSON.stringify(bareList, null, 2)).id).toBe('mini-swe-agent');
    // A long run: the head holds only the start of `info`, the format tag is far beyond it.
    const long = JSON.stringify({ info: { exit_status: 'Submitted', mini_version: '1.13.4' }, messages: bareList, trajectory_format: 'mini-swe-agent-1' }, null, 2);
    expect(importerFor('auto', 'run.traj.json', long.slice(0, long.indexOf('"messages"'))).id).toBe('mini-swe-agent');
  });

  it('reads commands and outputs the way the harness writes them', () => {
    expect(commandOf('no block')).toBeNull();
    expect(commandOf('THOUGHT: x\n```bash\nls -la\n```')).toEqual({ action: 'ls -la', thought: 'x' });
    expect(outputOf('<returncode>0</returncode>\n<output>\n</output>')).toEqual({ observation: '', exitCode: 0 });
    expect(outputOf('plain text')).toEqual({ observation: 'plain text' });
  });

  it('says what is wrong with a document that is not a message list', () => {
    const { problems } = run(JSON.stringify({ steps: [] }));
    expect(problems[0]!.reason).toMatch(/list of chat messages, or an object with a "messages" list/);
  });
});

const REAL = realWorld('swe-agent');
const NAME = 'harbor-rfc-mini-swe-agent-trajectory.json';

describe.skipIf(!existsSync(join(REAL, NAME)))(`mini-swe-agent on the real mini-swe-agent-1 file (${realWorldNote('swe-agent')})`, () => {
  it('imports every command with its output, step by step, and nothing of the agent as the environment', () => {
    const text = readFileSync(join(REAL, NAME), 'utf8');
    const doc = JSON.parse(text) as { messages: { role: string; content: unknown }[] };
    const { bundles, problems, skipped } = run(text, NAME);
    expect(problems).toEqual([]);
    const [root, ...steps] = bundles[0]!.nodes;
    expect(bundles[0]!.trajectory).toMatchObject({ domain: 'swe', systemPrompt: MINI_SWE_SYSTEM_PROMPT });
    expect(root!.observation).toBe('Create a file called hello.txt with "Hello, world!" as the content.\n\nSystem: Linux 6.12.5-linuxkit #1 SMP Tue Jan 21 10:23:32 UTC 2025 aarch64');
    const assistants = doc.messages.filter((m) => m.role === 'assistant').map((m) => m.content as string);
    expect(steps.map((s) => s.action)).toEqual(['echo "Hello, world!" > hello.txt', 'cat hello.txt']);
    expect(steps.map((s) => s.observation)).toEqual(['', 'Hello, world!\n']);
    steps.forEach((s, i) => expect(assistants[i]).toContain(s.agentReasoning!));
    // The third command submits: a harness turn, reported, not a terminal turn.
    expect(skipped[0]!.what).toBe('messages.6 (the submit command echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT)');
    const kept = root!.provenance.miniSweAgent as Record<string, string>;
    expect(kept.agentSystemPrompt).toMatch(/^You are a helpful assistant/);
    expect(kept.agentInstructions).toMatch(/^Please solve this issue: \{\{task\}\}\n+You can execute bash commands/);
  });
});
