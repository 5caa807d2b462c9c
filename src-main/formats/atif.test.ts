import { describe, expect, it } from 'vitest';
import { atifImporter } from './atif';
import { fixture, runImporter } from '../testing/importer-fixtures';

const run = (text: string) => runImporter(atifImporter, 'trajectory.json', text);

describe('ATIF importer', () => {
  it('pairs tool calls with results by source_call_id and reads terminal keystrokes as commands', () => {
    const { bundles, problems } = run(fixture('trajectory.json'));
    expect(problems).toEqual([]);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory).toMatchObject({ domain: 'terminal', title: 'terminus-2 · fix-permissions__7Kq2' });
    const [root, ...steps] = nodes;
    expect(root!.observation).toMatch(/^Task: the script \/srv\/app\/run.sh fails/);
    expect(steps.map((s) => s.action)).toEqual([
      'ls -l run.sh',
      // Two calls answered by one step-level result form one turn.
      'chmod +x run.sh\n./run.sh',
      'curl -s localhost:8080/health',
      '{"name":"mark_task_complete","arguments":{}}',
    ]);
    expect(steps[0]!.observation).toBe('-rw-r--r-- 1 root root 64 Oct  2 13:58 run.sh\nroot@4f1c2a:/srv/app# ');
    expect(steps[2]!.observation).toBe('ok\nroot@4f1c2a:/srv/app# ');
    expect(steps[3]!.observation).toBe('Task marked complete.');
    expect(steps.map((s) => s.reasoning)).toEqual([
      'The error suggests the execute bit is missing. List the directory.',
      'Add the execute bit and run the script.',
      'Verify it is listening before finishing.',
      null,
    ]);
    expect(steps.every((s) => s.origin === 'real')).toBe(true);
    expect(steps[0]!.provenance).toMatchObject({ stepId: 3 });
    expect(root!.provenance.atif).toMatchObject({ schemaVersion: 'ATIF-v1.2', agent: { name: 'terminus-2' } });
  });

  it('reports unanswered calls, stray results and malformed steps by JSON path', () => {
    const doc = JSON.parse(fixture('trajectory.json'));
    doc.steps[2].observation.results[0].source_call_id = 'call_9_9';
    doc.steps[4].observation.results.pop();
    doc.steps[1].source = 'robot';
    const { bundles, problems } = run(JSON.stringify(doc));
    expect(problems.map((p) => p.field)).toEqual([
      'steps.1.source',
      'steps.2.observation.results.0.source_call_id',
      'steps.2.tool_calls.0',
      'steps.4.tool_calls.1',
    ]);
    const steps = bundles[0]!.nodes.slice(1);
    expect(steps.map((s) => s.action)).toEqual(['chmod +x run.sh\n./run.sh', 'curl -s localhost:8080/health']);
    // The user step was malformed, so there is no task statement for the initial state.
    expect(bundles[0]!.nodes[0]!.observation).toBe('');
  });

  it('names the domain after the tools when they are not a terminal', () => {
    const doc = {
      schema_version: 'ATIF-v1.3',
      steps: [
        {
          step_id: 1,
          source: 'agent',
          tool_calls: [{ tool_call_id: 'a', function_name: 'get_weather', arguments: { city: 'Oslo' } }],
          observation: { results: [{ source_call_id: 'a', content: '{"temp_c": 4}' }] },
        },
      ],
    };
    const { bundles } = run(JSON.stringify(doc));
    expect(bundles[0]!.trajectory.domain).toBe('mcp');
    expect(bundles[0]!.nodes[1]!.action).toBe('{"name":"get_weather","arguments":{"city":"Oslo"}}');
  });

  it('refuses a document that is not ATIF', () => {
    const { bundles, problems } = run(JSON.stringify({ schema_version: '1.0', steps: [] }));
    expect(bundles).toEqual([]);
    expect(problems[0]).toMatchObject({ field: 'schema_version' });
  });
});
