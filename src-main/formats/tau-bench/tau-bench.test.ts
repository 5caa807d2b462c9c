// tau-bench results: one trajectory per run, each tool call answered by the tool message after
// it (ids reused within a run pair with the latest open call), the reward and the user
// simulator's instruction kept in provenance.
import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { tauBenchImporter } from './import';

const call = (id: string, name: string, args: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] });
const runs = [
  {
    task_id: 7,
    reward: 1.0,
    trial: 0,
    info: { task: { user_id: 'ana_9', instruction: 'You are ana_9 and want your order status.', actions: [] } },
    traj: [
      { role: 'system', content: '# Shop policy\nBe polite.' },
      { role: 'user', content: 'Where is my order #W12?' },
      call('call_x', 'get_order_details', '{"order_id":"#W12"}'),
      { role: 'tool', tool_call_id: 'call_x', name: 'get_order_details', content: '{"status": "shipped"}' },
      call('call_t', 'think', '{"thought":"It shipped."}'),
      { role: 'tool', tool_call_id: 'call_t', name: 'think', content: '' },
      { role: 'assistant', content: 'It has shipped. Anything else?' },
      { role: 'user', content: 'When does it arrive?' },
      // The same id again, as tau-bench writes it: a second call, answered by the next tool message.
      call('call_x', 'track_package', '{"order_id": "#W12", "carrier": "UPS"}'),
      { role: 'tool', tool_call_id: 'call_x', name: 'track_package', content: 'Arrives 2024-05-21' },
    ],
  },
  { task_id: 8, reward: 0.0, trial: 0, info: {}, traj: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] },
];

describe('tau-bench results', () => {
  it('is recognised without --format', () => {
    expect(importerFor('auto', 'gpt-4o-retail.json', JSON.stringify(runs, null, 2)).id).toBe('tau-bench');
  });

  it('a run is a trajectory: calls paired with the tool messages after them, arguments as written, the think tool said', () => {
    const { bundles, problems, skipped } = runImporter(tauBenchImporter, 'gpt-4o-retail.json', JSON.stringify(runs));
    expect(bundles).toHaveLength(1);
    const b = bundles[0]!;
    expect(b.trajectory.title).toBe('tau-bench task 7 trial 0 (reward 1)');
    expect(b.nodes[0]!.observation).toBe('Where is my order #W12?');
    expect(b.nodes.slice(1).map((n) => [n.action, n.observation])).toEqual([
      ['{"name":"get_order_details","arguments":{"order_id":"#W12"}}', '{"status": "shipped"}'],
      ['{"name":"track_package","arguments":{"order_id":"#W12","carrier":"UPS"}}', 'Arrives 2024-05-21'],
    ]);
    expect(b.nodes[0]!.provenance).toMatchObject({ tauBench: { taskId: 7, reward: 1, userInstruction: 'You are ana_9 and want your order status.', policy: '# Shop policy\nBe polite.' } });
    expect(skipped.map((s) => s.what)).toEqual(expect.arrayContaining([expect.stringContaining('the harness call think'), expect.stringContaining('a later user message: When does it arrive?')]));
    // The run that only talked is said as such.
    expect(problems.map((p) => p.reason)).toEqual([expect.stringContaining('task 8 trial 0: no tool call with a result')]);
  });
});
