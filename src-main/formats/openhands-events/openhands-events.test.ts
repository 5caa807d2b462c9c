// OpenHands event streams: an agent's action and the observation naming it as its cause are a
// step, the call as the model wrote it; OpenHands' own events are said, not imported.
import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { openHandsEventsImporter } from './import';

const modelResponse = (id: string, name: string, args: string) => ({ function_name: name, tool_call_id: id, model_response: { choices: [{ message: { role: 'assistant', content: 'x', tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] } }] }, total_calls_in_response: 1 });

const events = [
  { id: 0, source: 'agent', action: 'system', args: { content: 'You are OpenHands agent.', tools: [] } },
  { id: 1, source: 'user', action: 'message', message: 'Count the lines of notes.txt', args: { content: 'Count the lines of notes.txt', image_urls: null, wait_for_response: false } },
  { id: 2, source: 'environment', observation: 'agent_state_changed', content: '', extras: { agent_state: 'running' } },
  { id: 3, source: 'agent', action: 'run', tool_call_metadata: modelResponse('call_a', 'execute_bash', '{"command": "wc -l notes.txt", "timeout": 30.0}'), args: { command: 'wc -l notes.txt', is_input: false, thought: 'Counting with wc.', blocking: false, hidden: false, confirmation_state: 'confirmed' } },
  { id: 4, source: 'agent', cause: 3, observation: 'run', content: '12 notes.txt\n[The command completed with exit code 0.]', extras: { command: 'wc -l notes.txt', metadata: { exit_code: 0 } } },
  { id: 5, source: 'agent', action: 'run', args: { command: 'rm notes.txt', thought: 'Cleaning up.', confirmation_state: 'awaiting_confirmation' } },
  { id: 6, source: 'user', cause: 5, observation: 'user_rejected', content: 'Action has been rejected by the user.' },
  { id: 7, source: 'agent', action: 'read', args: { path: '/workspace/notes.txt', start: 0, end: -1, thought: '' } },
  { id: 8, source: 'agent', cause: 7, observation: 'error', content: 'File not found: /workspace/notes.txt' },
  { id: 9, source: 'agent', action: 'finish', args: { outputs: {}, thought: 'notes.txt has 12 lines.' } },
];

describe('OpenHands event stream', () => {
  it('is recognised as a list of events and as an evaluation record holding one', () => {
    expect(importerFor('auto', 'trajectory.json', JSON.stringify(events, null, 2)).id).toBe('openhands-events');
    expect(importerFor('auto', 'output.jsonl', JSON.stringify({ instance_id: 'repo__1', instruction: 'fix it', history: events })).id).toBe('openhands-events');
  });

  it("each action the agent ran is a step with its observation byte for byte; a refused action and OpenHands' own events are said", () => {
    const { bundles, problems, skipped } = runImporter(openHandsEventsImporter, 'trajectory.json', JSON.stringify(events));
    expect(problems).toEqual([]);
    const b = bundles[0]!;
    expect(b.nodes[0]!.observation).toBe('Count the lines of notes.txt');
    expect(b.nodes.slice(1).map((n) => [n.action, n.observation])).toEqual([
      // The model's own arguments (its timeout too) decide the action; the shell call reads as its command.
      ['wc -l notes.txt', '12 notes.txt\n[The command completed with exit code 0.]'],
      // Without the model's response: the action's arguments as OpenHands recorded them, less its own bookkeeping.
      ['{"name":"read","arguments":{"path":"/workspace/notes.txt","start":0,"end":-1}}', 'File not found: /workspace/notes.txt'],
    ]);
    expect(b.nodes[1]!.agentReasoning).toBe('Counting with wc.');
    expect(b.nodes[2]!.agentReasoning ?? '').not.toContain('Cleaning up');
    const whats = skipped.map((s) => s.what);
    expect(whats).toEqual(expect.arrayContaining(['1 × system action', '1 × agent_state_changed observation', '1 × run action the person refused', '1 × finish action']));
  });

  it('an evaluation output holds a trajectory a line, named by its instance', () => {
    const jsonl = [JSON.stringify({ instance_id: 'repo__1', history: events }), JSON.stringify({ instance_id: 'repo__2', history: events.slice(0, 5) })].join('\n');
    const { bundles } = runImporter(openHandsEventsImporter, 'output.jsonl', jsonl);
    expect(bundles.map((x) => x.nodes.length)).toEqual([3, 2]);
    expect(bundles[1]!.trajectory.title).toContain('repo__2');
  });

  it('a record without events is refused with what was expected', () => {
    const { problems } = runImporter(openHandsEventsImporter, 'x.json', '{"source":"agent","action":"run"}');
    expect(problems[0]!.reason).toContain('list of events');
  });
});
