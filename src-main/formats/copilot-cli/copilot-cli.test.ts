// GitHub Copilot CLI events.jsonl: a tool request and the tool.execution_complete answering it
// by toolCallId are a step, arguments as written and result.content as the model got it; a
// sub-agent's events are their own trajectory; report_intent, harness messages and bookkeeping are said.
import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { copilotCliImporter } from './import';
import { copilotCliSessions } from './sessions';

let n = 0;
const ev = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => JSON.stringify({ type, data, id: `e${++n}`, timestamp: '2026-04-02T09:00:00.000Z', parentId: n > 1 ? `e${n - 1}` : null, ...extra });

const lines = [
  ev('session.start', { sessionId: 'cs-7', version: 1, producer: 'copilot-agent', copilotVersion: '0.0.420', startTime: '2026-04-02T09:00:00.000Z', context: { cwd: '/home/ana/shop', branch: 'main' } }),
  ev('session.model_change', { newModel: 'claude-sonnet-4.5' }),
  ev('user.message', { content: 'Which tests cover checkout?', transformedContent: '<context>…</context>Which tests cover checkout?', attachments: [] }),
  ev('user.message', { content: '<reminder>keep the to-do list current</reminder>', source: 'system' }),
  ev('assistant.turn_start', { turnId: '0' }),
  ev('assistant.reasoning', { reasoningId: 'r1', content: 'Search the test folder.' }),
  // Arguments written with spaces and a 1.0: kept as the model wrote them.
  '{"type":"assistant.message","data":{"messageId":"m1","content":"","reasoningText":"Search the test folder.","toolRequests":[{"toolCallId":"i1","name":"report_intent","arguments":{"intent":"Finding tests"}},{"toolCallId":"t1","name":"grep","arguments":{"pattern": "checkout", "path": "test", "max": 1.0}},{"toolCallId":"t2","name":"bash","arguments":{"command":"ls test","description":"List tests"}}]},"id":"x1","timestamp":"2026-04-02T09:00:01.000Z","parentId":"e6"}',
  ev('tool.execution_start', { toolCallId: 'i1', toolName: 'report_intent', arguments: { intent: 'Finding tests' } }),
  ev('tool.execution_complete', { toolCallId: 'i1', success: true, result: { content: 'Intent logged' } }),
  ev('tool.execution_start', { toolCallId: 't1', toolName: 'grep', arguments: { pattern: 'checkout', path: 'test', max: 1 } }),
  ev('tool.execution_complete', { toolCallId: 't1', success: true, result: { content: 'test/checkout.test.ts\n', detailedContent: 'test/checkout.test.ts (3 matches)\n' } }),
  ev('tool.execution_start', { toolCallId: 't2', toolName: 'bash', arguments: { command: 'ls test', description: 'List tests' } }),
  ev('tool.execution_complete', { toolCallId: 't2', success: false, error: { message: 'ls: cannot access \'test\': No such file or directory', code: 'failure' } }),
  ev('user.message', { content: 'Read it in a sub-agent.' }, { agentId: 'explore-1' }),
  ev('assistant.message', { messageId: 'm2', content: '', toolRequests: [{ toolCallId: 's1', name: 'view', arguments: { path: 'test/checkout.test.ts' } }] }, { agentId: 'explore-1' }),
  ev('tool.execution_complete', { toolCallId: 's1', success: true, result: { content: '1. it("charges once")' } }, { agentId: 'explore-1' }),
  ev('assistant.turn_end', { turnId: '0' }),
  ev('assistant.message', { messageId: 'm3', content: 'test/checkout.test.ts covers it.' }),
];
const text = lines.join('\n') + '\n';

describe('GitHub Copilot CLI events.jsonl', () => {
  it('is recognised without --format', () => {
    expect(importerFor('auto', 'events.jsonl', text).id).toBe('copilot-cli');
  });

  it('each answered request is a step with its arguments as written and result.content; a sub-agent is its own trajectory; the rest is said', () => {
    const { bundles, problems, skipped } = runImporter(copilotCliImporter, 'events.jsonl', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(2);
    const [main, sub] = bundles;
    expect(main!.nodes[0]!.observation).toBe('Working directory: /home/ana/shop\n\nWhich tests cover checkout?');
    expect(main!.nodes.slice(1).map((x) => [x.action, x.observation])).toEqual([
      ['{"name":"grep","arguments":{"pattern":"checkout","path":"test","max":1.0}}', 'test/checkout.test.ts\n'],
      ['ls test', "ls: cannot access 'test': No such file or directory"],
    ]);
    expect(main!.nodes[1]!.agentReasoning).toBe('Search the test folder.');
    expect(sub!.nodes.slice(1).map((x) => [x.action, x.observation])).toEqual([['{"name":"view","arguments":{"path":"test/checkout.test.ts"}}', '1. it("charges once")']]);
    const whats = skipped.map((s) => s.what);
    expect(whats).toEqual(expect.arrayContaining(['1 × report_intent call', '1 × harness message (user.message from the system)', '1 × assistant.turn_start event', '1 × assistant.turn_end event']));
  });

  it('`copilot -p --output-format json` output, led by ephemeral status events, is recognised and read the same way', () => {
    // Shaped as Copilot CLI 1.0's JSON output prints it: MCP and tool status first, then the
    // prompt, deltas of the reasoning and of the call's arguments, the message, the result.
    const stream = [
      ev('session.mcp_server_status_changed', { serverName: 'github-mcp-server', status: 'pending' }, { ephemeral: true }),
      ev('session.tools_updated', { model: 'claude-sonnet-4.6' }, { ephemeral: true }),
      ev('user.message', { content: 'Load the release skill', transformedContent: '<current_datetime>…</current_datetime>Load the release skill', attachments: [], delivery: 'idle' }),
      ev('assistant.reasoning_delta', { reasoningId: 'r9', deltaContent: 'Load it.' }, { ephemeral: true }),
      ev('assistant.tool_call_delta', { toolCallId: 'c9', toolName: 'skill', inputDelta: '{"skill": "rel' }, { ephemeral: true }),
      ev('assistant.message', { messageId: 'm9', content: '', toolRequests: [{ toolCallId: 'c9', name: 'skill', arguments: { skill: 'release' }, type: 'function' }], reasoningText: 'Load it.' }),
      ev('tool.execution_start', { toolCallId: 'c9', toolName: 'skill', arguments: { skill: 'release' } }),
      // Printed after the message that already carries it as reasoningText.
      ev('assistant.reasoning', { reasoningId: 'r9', content: 'Load it.' }, { ephemeral: true }),
      ev('tool.execution_complete', { toolCallId: 'c9', success: true, result: { content: 'Skill "release" loaded successfully.', detailedContent: 'Skill loaded ✅\n# Release' } }),
    ].join('\n') + '\n';
    expect(importerFor('auto', 'phase1-task.json', stream).id).toBe('copilot-cli');
    const { bundles, problems, skipped } = runImporter(copilotCliImporter, 'phase1-task.json', stream);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    expect(bundles[0]!.nodes.slice(1).map((x) => [x.action, x.observation])).toEqual([['{"name":"skill","arguments":{"skill":"release"}}', 'Skill "release" loaded successfully.']]);
    expect(bundles[0]!.nodes[1]!.agentReasoning).toBe('Load it.');
    const whats = skipped.map((s) => s.what);
    expect(whats).toEqual(expect.arrayContaining(['1 × session.tools_updated event', '1 × assistant.reasoning_delta event']));
    // The reasoning is the call's, said once, not taken for the agent's last words.
    expect(whats.join('\n')).not.toMatch(/last words/);
  });

  it('looks in COPILOT_HOME, else ~/.copilot, and names the project by the working folder', () => {
    expect(copilotCliSessions.folders({ home: '/home/ana', platform: 'linux', env: {} })).toEqual([{ path: '/home/ana/.copilot/session-state', from: 'default' }]);
    expect(copilotCliSessions.folders({ home: '/home/ana', platform: 'linux', env: { COPILOT_HOME: '/srv/cp' } })).toEqual([{ path: '/srv/cp/session-state', from: 'COPILOT_HOME' }]);
    expect(copilotCliSessions.project(lines[0]!, 'cs-7/events.jsonl')).toBe('/home/ana/shop');
  });
});
