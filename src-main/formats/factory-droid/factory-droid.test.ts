// Factory droid session JSONL: a tool_use block and the tool_result block answering it by id are
// a step, arguments as written and the result's text as the model got it; text for the model
// only and other record kinds are said.
import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { factoryDroidImporter } from './import';
import { factoryDroidSessions } from './sessions';

const msg = (id: string, role: string, content: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ type: 'message', id, timestamp: '2026-05-01T10:00:00.000Z', ...extra, message: { role, content } });

const lines = [
  JSON.stringify({ type: 'session_start', id: 'fd-3', title: 'Port check', sessionTitle: 'Why is port 8080 busy', owner: 'kim', version: 2, cwd: '/home/kim/api' }),
  msg('u0', 'user', [{ type: 'text', text: '<system-reminder>Project rules apply.</system-reminder>' }], { visibility: 'llm_only' }),
  msg('u1', 'user', [{ type: 'text', text: 'Why is port 8080 busy?' }]),
  // A shell call is its command as typed.
  '{"type":"message","id":"a1","timestamp":"2026-05-01T10:00:01.000Z","parentId":"u1","message":{"role":"assistant","content":[{"type":"thinking","thinking":"Find the process."},{"type":"tool_use","id":"toolu_1","name":"Execute","input":{"command": "lsof -i :8080"}}]}}',
  msg('u2', 'user', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'node  4121 kim  22u  IPv4 TCP *:8080 (LISTEN)\n' }] }]),
  JSON.stringify({ type: 'todo_state', id: 't1', todos: [] }),
  // Another tool's input written with spaces and a 1.0: kept as the model wrote the values.
  '{"type":"message","id":"a2","timestamp":"2026-05-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Read","input":{"file_path": "/home/kim/api/missing.ts", "offset": 1.0}}]}}',
  msg('u3', 'user', [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'Error: file not found', is_error: true }]),
  msg('a3', 'assistant', [{ type: 'text', text: 'A node server (pid 4121) holds it.' }]),
];
const text = lines.join('\n') + '\n';

describe('Factory droid session JSONL', () => {
  it('is recognised without --format', () => {
    expect(importerFor('auto', 'fd-3.jsonl', text).id).toBe('factory-droid');
  });

  it('each answered tool_use is a step with its input as written and the result text; the rest is said', () => {
    const { bundles, problems, skipped } = runImporter(factoryDroidImporter, 'fd-3.jsonl', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    const nodes = bundles[0]!.nodes;
    expect(nodes[0]!.observation).toBe('Working directory: /home/kim/api\n\nWhy is port 8080 busy?');
    expect(nodes.slice(1).map((x) => [x.action, x.observation])).toEqual([
      ['lsof -i :8080', 'node  4121 kim  22u  IPv4 TCP *:8080 (LISTEN)\n'],
      ['{"name":"Read","arguments":{"file_path":"/home/kim/api/missing.ts","offset":1.0}}', 'Error: file not found'],
    ]);
    expect(nodes[1]!.agentReasoning).toBe('Find the process.');
    expect(skipped.map((s) => s.what)).toEqual(expect.arrayContaining(['1 × text for the model only (llm_only, <system-reminder>)', '1 × todo_state record']));
  });

  it('looks in ~/.factory/sessions and names the project by the working folder', () => {
    expect(factoryDroidSessions.folders({ home: '/home/kim', platform: 'linux', env: {} })).toEqual([{ path: '/home/kim/.factory/sessions', from: 'default' }]);
    expect(factoryDroidSessions.project(lines[0]!, '-home-kim-api/fd-3.jsonl')).toBe('/home/kim/api');
  });
});
