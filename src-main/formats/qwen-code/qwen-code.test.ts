// Qwen Code session JSONL: a functionCall and the tool_result record answering it by id are a
// step; reasoning parts go with the next call; a subagent is its own trajectory; system records
// and repeated records are said.
import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { qwenCodeImporter } from './import';

const base = { sessionId: 'qs-1', cwd: '/home/li/site', version: '0.2.1', gitBranch: 'main', timestamp: '2026-03-01T08:00:00.000Z' };
const rec = (uuid: string, parentUuid: string | null, type: string, parts: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ uuid, parentUuid, ...base, type, message: { role: type === 'assistant' ? 'model' : 'user', parts }, ...extra });

const lines = [
  rec('q1', null, 'user', [{ text: 'How big is the build folder?' }]),
  rec('q2', 'q1', 'assistant', [{ text: 'Measuring it with du.', thought: true }, { functionCall: { id: 'call_du', name: 'run_shell_command', args: { command: 'du -sh build', timeout: 2.0 } } }], { model: 'qwen3-coder-plus' }),
  rec('q3', 'q2', 'tool_result', [{ functionResponse: { id: 'call_du', name: 'run_shell_command', response: { output: '4.2M\tbuild\n' } } }], { toolCallResult: { callId: 'call_du', status: 'success' } }),
  JSON.stringify({ uuid: 'q4', parentUuid: 'q3', ...base, type: 'system', subtype: 'ui_telemetry', systemPayload: { uiEvent: {} } }),
  rec('q3', 'q2', 'tool_result', [{ functionResponse: { id: 'call_du', name: 'run_shell_command', response: { output: '4.2M\tbuild\n' } } }]),
  rec('s1', null, 'user', [{ text: 'List the build files' }], { isSidechain: true, agentId: 'explore-1' }),
  rec('s2', 's1', 'assistant', [{ functionCall: { id: 'call_ls', name: 'list_directory', args: { path: 'build' } } }], { isSidechain: true, agentId: 'explore-1' }),
  rec('s3', 's2', 'tool_result', [{ functionResponse: { id: 'call_ls', name: 'list_directory', response: { error: 'Directory not found' } } }], { isSidechain: true, agentId: 'explore-1' }),
  rec('q6', 'q4', 'assistant', [{ text: 'Deleting it.', thought: true }, { functionCall: { id: 'call_rm', name: 'run_shell_command', args: { command: 'rm -rf build' } } }]),
  rec('q7', 'q6', 'tool_result', [{ functionResponse: { id: 'call_rm', name: 'run_shell_command', response: { error: 'cancelled by user' } } }], { toolCallResult: { callId: 'call_rm', status: 'cancelled' } }),
  rec('q5', 'q7', 'assistant', [{ text: 'The build folder holds 4.2M.' }]),
];
const text = lines.join('\n');

describe('Qwen Code session JSONL', () => {
  it('is recognised without --format (not taken for a Claude Code session)', () => {
    expect(importerFor('auto', 'qs-1.jsonl', text).id).toBe('qwen-code');
  });

  it('each answered call is a step with its arguments as written; a subagent is its own trajectory; system and repeated records are said', () => {
    const { bundles, problems, skipped } = runImporter(qwenCodeImporter, 'qs-1.jsonl', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(2);
    const [main, sub] = bundles;
    expect(main!.nodes[0]!.observation).toBe('Working directory: /home/li/site\n\nHow big is the build folder?');
    expect(main!.nodes.slice(1).map((n) => [n.action, n.observation, n.agentReasoning])).toEqual([['du -sh build', '4.2M\tbuild\n', 'Measuring it with du.']]);
    expect(sub!.nodes.slice(1).map((n) => [n.action, n.observation])).toEqual([['{"name":"list_directory","arguments":{"path":"build"}}', 'Directory not found']]);
    const whats = skipped.map((s) => s.what);
    expect(whats).toEqual(expect.arrayContaining(['1 × system record (ui_telemetry)', '1 × copy of a record already read (the same uuid)', '1 × call cancelled before it ran']));
  });

  // Three turns as Qwen Code writes them around a /rewind: the rewind record follows the record
  // before the turn rewound to, and the next turn follows the rewind record.
  const turn = (n: number, parent: string | null, prompt: string, command: string, output: string) => [
    rec(`u${n}`, parent, 'user', [{ text: prompt }]),
    rec(`c${n}`, `u${n}`, 'assistant', [{ functionCall: { id: `call_${n}`, name: 'run_shell_command', args: { command } } }]),
    rec(`r${n}`, `c${n}`, 'tool_result', [{ functionResponse: { id: `call_${n}`, name: 'run_shell_command', response: { output } } }], { toolCallResult: { callId: `call_${n}`, status: 'success' } }),
    rec(`a${n}`, `r${n}`, 'assistant', [{ text: `Ran ${command}.` }]),
  ];
  const rewind = (uuid: string, parent: string | null) => JSON.stringify({ uuid, parentUuid: parent, ...base, type: 'system', subtype: 'rewind', systemPayload: { truncatedCount: 1 } });
  const steps = (t: string) => runImporter(qwenCodeImporter, 'qs-2.jsonl', t);

  it('a rewound turn is left out and said; the steps follow the conversation Qwen Code resumes, from the newest record back', () => {
    const lines = [...turn(1, null, 'Count the log lines', 'wc -l app.log', '12 app.log\n'), ...turn(2, 'a1', 'Delete the logs', 'rm -rf logs', ''), rewind('w1', 'a1'), ...turn(3, 'w1', 'Archive the logs instead', 'tar czf logs.tgz logs', '')];
    const { bundles, problems, skipped } = steps(lines.join('\n'));
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    expect(bundles[0]!.nodes.slice(1).map((n) => n.action)).toEqual(['wc -l app.log', 'tar czf logs.tgz logs']);
    expect(skipped).toEqual(expect.arrayContaining([expect.objectContaining({ what: '4 × record a rewind took back', line: 5, reason: expect.stringContaining('/rewind, line 9') }), expect.objectContaining({ what: '1 × rewind (/rewind)', line: 9 })]));
  });

  it('a rewind to the first turn takes back everything before it: the prompt after it is the task', () => {
    const lines = [...turn(1, null, 'Count the log lines', 'wc -l app.log', '12 app.log\n'), rewind('w1', null), ...turn(3, 'w1', 'Archive the logs', 'tar czf logs.tgz logs', '')];
    const { bundles } = steps(lines.join('\n'));
    expect(bundles[0]!.nodes[0]!.observation).toBe('Working directory: /home/li/site\n\nArchive the logs');
    expect(bundles[0]!.nodes.slice(1).map((n) => n.action)).toEqual(['tar czf logs.tgz logs']);
  });

  it('a branch no rewind explains, or a chain that breaks, keeps every record in file order', () => {
    // Without a rewind record the second turn branching off the first is not taken for one.
    const unmarked = [...turn(1, null, 'Count the log lines', 'wc -l app.log', '12 app.log\n'), ...turn(2, 'a1', 'Delete the logs', 'rm -rf logs', ''), ...turn(3, 'a1', 'Archive the logs', 'tar czf logs.tgz logs', '')];
    expect(steps(unmarked.join('\n')).bundles[0]!.nodes.slice(1).map((n) => n.action)).toEqual(['wc -l app.log', 'rm -rf logs', 'tar czf logs.tgz logs']);
    // The newest record names a parent the file lacks: no chain to follow, so nothing is said to be rewound.
    const broken = [...turn(1, null, 'Count the log lines', 'wc -l app.log', '12 app.log\n'), ...turn(2, 'a1', 'Delete the logs', 'rm -rf logs', ''), rewind('w1', 'a1'), ...turn(3, 'gone', 'Archive the logs', 'tar czf logs.tgz logs', '')];
    const { bundles, skipped } = steps(broken.join('\n'));
    expect(bundles[0]!.nodes.slice(1).map((n) => n.action)).toEqual(['wc -l app.log', 'rm -rf logs', 'tar czf logs.tgz logs']);
    expect(skipped.map((x) => x.what)).not.toContain('4 × record a rewind took back');
  });
});
