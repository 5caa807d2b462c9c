// Kimi CLI context.jsonl: an assistant tool call and the `tool` message answering it by id are a
// step, arguments as written and every part of the result as the model got it; Kimi CLI's own
// records, harness messages and to-do calls are said.
import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { kimiCliImporter } from './import';
import { kimiCliSessions } from './sessions';

// Written as Kimi CLI writes them: its own records by json.dumps (", " and ": "), messages by pydantic (compact).
const lines = [
  '{"role": "_system_prompt", "content": "You are a coding agent in a terminal."}',
  '{"role": "_checkpoint", "id": 0}',
  '{"role":"user","content":"Why does the parser test fail?"}',
  '{"role":"assistant","content":[{"type":"think","think":"Run the tests first.","encrypted":null},{"type":"text","text":"Running them."}],"tool_calls":[{"type":"function","id":"Shell:0","function":{"name":"Shell","arguments":"{\\"command\\": \\"npm test -- parser\\", \\"timeout\\": 120}"}}]}',
  '{"role":"tool","content":[{"type":"text","text":"<system>ERROR: Command failed with exit code: 1.</system>"},{"type":"text","text":"FAIL parser.test.ts\\n  expected 3, got 2\\n"}],"tool_call_id":"Shell:0"}',
  '{"role": "_usage", "token_count": 5120}',
  '{"role": "_checkpoint", "id": 1}',
  '{"role":"user","content":"<system>CHECKPOINT 1</system>"}',
  '{"role":"assistant","content":"","tool_calls":[{"type":"function","id":"SetTodoList:1","function":{"name":"SetTodoList","arguments":"{\\"todos\\":[{\\"title\\":\\"fix parser\\",\\"status\\":\\"pending\\"}]}"}},{"type":"function","id":"ReadFile:2","function":{"name":"ReadFile","arguments":"{\\"path\\":  \\"src/parser.ts\\", \\"line_offset\\": 1.0}"}}]}',
  '{"role":"tool","content":"<system>Todo list updated</system>","tool_call_id":"SetTodoList:1"}',
  '{"role":"tool","content":"     1\\texport const count = (s) => s.split(\\",\\").length - 1;\\n","tool_call_id":"ReadFile:2"}',
  '{"role":"assistant","content":"The count is off by one in src/parser.ts."}',
];
const text = lines.join('\n') + '\n';

describe('Kimi CLI context.jsonl', () => {
  it('is recognised without --format (not taken for a chat dataset)', () => {
    expect(importerFor('auto', 'context.jsonl', text).id).toBe('kimi-cli');
  });

  it('each answered call is a step with its arguments as written and the whole result; own records, harness text and to-dos are said', () => {
    const { bundles, problems, skipped } = runImporter(kimiCliImporter, 'context.jsonl', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    const nodes = bundles[0]!.nodes;
    expect(nodes[0]!.observation).toBe('Why does the parser test fail?');
    expect(nodes.slice(1).map((n) => [n.action, n.observation])).toEqual([
      ['{"name":"Shell","arguments":{"command":"npm test -- parser","timeout":120}}', '<system>ERROR: Command failed with exit code: 1.</system>\nFAIL parser.test.ts\n  expected 3, got 2\n'],
      ['{"name":"ReadFile","arguments":{"path":"src/parser.ts","line_offset":1.0}}', '     1\texport const count = (s) => s.split(",").length - 1;\n'],
    ]);
    expect(nodes[1]!.agentReasoning).toContain('Run the tests first.');
    const whats = skipped.map((s) => s.what);
    expect(whats).toEqual(expect.arrayContaining(['1 × system prompt', '2 × checkpoint record', '1 × usage record', '1 × harness message (checkpoint marker or system reminder)', '1 × SetTodoList call']));
  });

  it('looks in KIMI_SHARE_DIR, else ~/.kimi, for each session folder and subagent context', () => {
    expect(kimiCliSessions.folders({ home: '/home/li', platform: 'linux', env: {} })).toEqual([{ path: '/home/li/.kimi/sessions', from: 'default' }]);
    expect(kimiCliSessions.folders({ home: '/home/li', platform: 'linux', env: { KIMI_SHARE_DIR: '/data/kimi' } })).toEqual([{ path: '/data/kimi/sessions', from: 'KIMI_SHARE_DIR' }]);
    expect(kimiCliSessions.project('', '3f2a/9b1c/context.jsonl')).toBe('3f2a');
  });

  it("takes the working folder from the default system prompt, for the project and the session's setting", () => {
    const prompt = '{"role": "_system_prompt", "content": "You are Kimi CLI.\\n\\n## Working Directory\\n\\nThe current working directory is `C:\\\\work\\\\shop`. This should be considered as the project root."}';
    expect(kimiCliSessions.project(prompt + '\n' + lines[2], '3f2a/9b1c/context.jsonl')).toBe('C:\\work\\shop');
    const { bundles } = runImporter(kimiCliImporter, 'context.jsonl', [prompt, ...lines.slice(1)].join('\n') + '\n');
    expect(bundles[0]!.nodes[0]!.observation).toBe('Working directory: C:\\work\\shop\n\nWhy does the parser test fail?');
  });
});
