import { describe, expect, it } from 'vitest';
import { mcpJsonRpcLogImporter } from './import';
import { fixture, runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';

const run = (text: string, name = 'session.mcp.jsonl') => runImporter(mcpJsonRpcLogImporter, name, text);
const rpc = (m: object) => JSON.stringify({ jsonrpc: '2.0', ...m });

describe('MCP JSON-RPC log importer', () => {
  it('pairs tools/call requests with their responses, including tool and protocol errors', () => {
    const { bundles, problems } = run(fixture('mcp-jsonrpc-log', 'notes-server.mcp.jsonl'));
    // The log ends with a call that was never answered.
    expect(problems).toEqual([{ kind: 'problem', line: 16, field: 'id', reason: 'tools/call request has no response in the log' }]);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory).toMatchObject({ domain: 'mcp', title: 'notes-server · session.mcp.jsonl' });
    expect(trajectory.systemPrompt).toContain('notes-server 1.2.0');
    expect(trajectory.systemPrompt).toContain('"name": "write_note"');
    const [root, ...steps] = nodes;
    expect(root!.observation).toBe('Notes live under /notes; names are case-sensitive.');
    expect(steps.map((s) => s.action)).toEqual([
      '{"name":"list_notes","arguments":{}}',
      '{"name":"read_note","arguments":{"name":"groceries"}}',
      '{"name":"read_note","arguments":{"name":"Groceries"}}',
      '{"name":"write_note","arguments":{"name":"todo"}}',
      '{"name":"write_note","arguments":{"name":"todo","body":"- call the plumber"}}',
    ]);
    expect(steps.every((s) => s.origin === 'real')).toBe(true);
    expect(JSON.parse(steps[0]!.observation).structuredContent.notes).toHaveLength(2);
    // Requests keep their order even when answers arrive out of order.
    expect(JSON.parse(steps[1]!.observation).content[0].text).toMatch(/^- oat milk/);
    expect(JSON.parse(steps[2]!.observation)).toMatchObject({ isError: true });
    expect(steps[2]!.provenance.mcp).toMatchObject({ requestId: 4, isError: true, responseLine: 10 });
    expect(JSON.parse(steps[3]!.observation)).toEqual({ code: -32602, message: 'Invalid params: body is required' });
    expect(steps[3]!.provenance.mcp).toMatchObject({ protocolError: true });
    // Request and response timestamps give each call's duration.
    expect(steps[0]!.provenance.timings?.durationSeconds).toBeGreaterThan(0);
    expect(steps[4]!.observation).toBe('{\n  "content": [\n    {\n      "type": "text",\n      "text": "Saved todo (18 bytes)."\n    }\n  ]\n}');
  });

  it('reads bare messages, reports bad lines and unpaired responses, and starts a trajectory per session', () => {
    const text = [
      rpc({ id: 1, method: 'initialize', params: {} }),
      rpc({ id: 1, result: { serverInfo: { name: 'calc' } } }),
      rpc({ id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } }),
      '{"jsonrpc": "2.0", "id": 2, "result": ',
      rpc({ id: 2, result: { content: [{ type: 'text', text: '5' }] } }),
      rpc({ id: 9, result: { content: [] } }),
      JSON.stringify({ dir: 'sideways', message: { jsonrpc: '2.0', id: 3, method: 'ping' } }),
      rpc({ id: 3, method: 'tools/call', params: { arguments: {} } }),
      rpc({ id: 4, method: 'initialize', params: {} }),
      rpc({ id: 5, method: 'tools/call', params: { name: 'mul', arguments: { a: 2, b: 3 } } }),
      rpc({ id: 5, result: { content: [{ type: 'text', text: '6' }] } }),
    ].join('\n');
    const { bundles, problems } = run(text);
    expect(problems.map((p) => [p.line, p.field ?? null])).toEqual([
      [4, null],
      [6, 'id'],
      [7, 'dir'],
      [8, 'params.name'],
      [9, 'id'],
    ]);
    expect(problems[4]!.reason).toBe('initialize request has no response in the log');
    expect(bundles.map((b) => b.nodes.slice(1).map((n) => n.action))).toEqual([
      ['{"name":"add","arguments":{"a":2,"b":3}}'],
      ['{"name":"mul","arguments":{"a":2,"b":3}}'],
    ]);
    expect(bundles[0]!.trajectory.title).toBe('calc · session.mcp.jsonl');
    expect(bundles[0]!.trajectory.sourceKey).not.toBe(bundles[1]!.trajectory.sourceKey);
  });

  it('pairs by direction, so a server request with the same id does not steal the answer', () => {
    const text = [
      JSON.stringify({ direction: 'out', message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask' } } }),
      JSON.stringify({ direction: 'in', message: { jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: {} } }),
      JSON.stringify({ direction: 'out', message: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'sampled' }] } } }),
      JSON.stringify({ direction: 'in', message: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'answer' }] } } }),
    ].join('\n');
    const { bundles, problems } = run(text);
    expect(problems).toEqual([]);
    expect(JSON.parse(bundles[0]!.nodes[1]!.observation).content[0].text).toBe('answer');
    expect(bundles[0]!.nodes[1]!.action).toBe('{"name":"ask","arguments":{}}');
  });

  it('notes a cancelled call instead of importing it', () => {
    const text = [
      rpc({ id: 1, method: 'tools/call', params: { name: 'slow' } }),
      rpc({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'timeout' } }),
      rpc({ id: 2, method: 'tools/call', params: { name: 'fast' } }),
      rpc({ id: 2, result: { content: [] } }),
    ].join('\n');
    const { bundles, problems } = run(text);
    expect(problems).toEqual([{ kind: 'problem', line: 1, field: 'id', reason: 'tools/call request was cancelled and never answered' }]);
    expect(bundles[0]!.nodes).toHaveLength(2);
  });

  describe('line logs with other direction names', () => {
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } };
    const answer = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: '5' }] } };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const tools = { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'add', inputSchema: { type: 'object' } }] } };
    // Each shape pairs the call with its answer even though a server request reuses id 7.
    const serverAsk = { jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {} };
    const clientReply = { jsonrpc: '2.0', id: 7, result: { content: { type: 'text', text: 'sampled' } } };
    const shapes: [string, (m: object, toServer: boolean) => string][] = [
      ['"dir":"req"/"res" with the message inlined', (m, out) => JSON.stringify({ ts: '2024-01-15T10:30:00Z', dir: out ? 'req' : 'res', ...m })],
      ['client→backend text prefixes', (m, out) => `2024-01-15 10:30:00 ${out ? 'client→backend' : 'backend→client'}: ${JSON.stringify(m)}`],
      ['"direction":"server_to_client"', (m, out) => JSON.stringify({ direction: out ? 'client_to_server' : 'server_to_client', message: m })],
      ['"from":"client"', (m, out) => JSON.stringify({ t_ms: 3, from: out ? 'client' : 'server', message: m })],
    ];
    it.each(shapes)('reads %s, detected automatically', (_name, line) => {
      const text = [line(list, true), line(tools, false), line(call, true), line(serverAsk, false), line(clientReply, true), line(answer, false)].join('\n');
      expect(importerFor('auto', 'traffic.log', text).id).toBe('mcp-jsonrpc-log');
      const { bundles, problems, skipped } = run(text, 'traffic.log');
      expect(problems).toEqual([]);
      const [root, ...steps] = bundles[0]!.nodes;
      expect(root!.observation).toBe('');
      expect(bundles[0]!.trajectory.systemPrompt).toContain('"name": "add"');
      expect(steps.map((s) => [s.action, JSON.parse(s.observation).content[0].text])).toEqual([['{"name":"add","arguments":{"a":2,"b":3}}', '5']]);
      expect(skipped.map((s) => s.what)).toEqual(['1 × server request sampling/createMessage']);
    });

    it('skips, and says so, a recorder header, server banner lines and notifications', () => {
      const text = [
        JSON.stringify({ stretto_mcp_log: 1, session: 's1', server_command: ['npx', 'srv'] }),
        JSON.stringify({ t_ms: 1, from: 'client', message: { jsonrpc: '2.0', method: 'notifications/initialized' } }),
        JSON.stringify({ t_ms: 2, from: 'server', raw: 'listening on stdio' }),
        JSON.stringify({ t_ms: 3, from: 'client', message: call }),
        JSON.stringify({ t_ms: 4, from: 'server', message: answer }),
      ].join('\n');
      const { bundles, skipped } = run(text);
      expect(bundles[0]!.nodes).toHaveLength(2);
      expect(skipped.map((s) => [s.line, s.what])).toEqual([
        [1, '1 × record with no JSON-RPC message'],
        [2, '1 × notification notifications/initialized'],
        [3, '1 × line of server output that is not JSON-RPC'],
      ]);
    });
  });

  it('reads logs that write the sender in words ("Message from client: {…}") among plain text lines', () => {
    const text = [
      '2025-05-01T10:00:00.000Z [notes] [info] Initializing server...',
      `2025-05-01T10:00:00.100Z [notes] [info] Message from client: ${rpc({ id: 0, method: 'initialize', params: {} })}`,
      `2025-05-01T10:00:00.200Z [notes] [info] Message from server: ${rpc({ id: 0, result: { serverInfo: { name: 'notes' } } })}`,
      `2025-05-01T10:00:01.000Z [notes] [info] Message from client: ${rpc({ id: 1, method: 'tools/call', params: { name: 'read', arguments: { n: 'a' } } })}`,
      `2025-05-01T10:00:01.100Z [notes] [info] Message from server: ${rpc({ id: 1, result: { content: [{ type: 'text', text: 'A' }] } })}`,
      '2025-05-01T10:00:02.000Z [notes] [info] Server transport closed',
    ].join('\n');
    expect(importerFor('auto', 'mcp-server-notes.log', text).id).toBe('mcp-jsonrpc-log');
    const { bundles, problems, skipped } = run(text, 'mcp-server-notes.log');
    expect(problems).toEqual([]);
    expect(bundles[0]!.trajectory.title).toBe('notes · mcp-server-notes.log');
    expect(bundles[0]!.nodes.slice(1).map((n) => n.action)).toEqual(['{"name":"read","arguments":{"n":"a"}}']);
    expect(skipped).toEqual([expect.objectContaining({ line: 1, what: '2 × text line with no JSON-RPC message' })]);
  });
});

describe('MCP logs keep arguments and results as the source wrote them', () => {
  it('numbers, escapes and key order survive, in bare, wrapped, string-encoded and prefixed lines', () => {
    const args = '{"b": 2.0, "10": "ten", "a": 1e3, "big": 12345678901234567890, "s": "caf\\u00e9"}';
    const result = '{"content": [{"type": "text", "text": "7.0"}], "structuredContent": {"z": 7.0, "1": []}, "isError": false}';
    const lines = [
      `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "calc", "arguments": ${args}}}`,
      `{"jsonrpc": "2.0", "id": 1, "result": ${result}}`,
      `{"dir": "send", "msg": ${JSON.stringify(`{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "calc", "arguments": ${args}}}`)}}`,
      `12:00:01 server→client {"jsonrpc": "2.0", "id": 2, "result": ${result}}`,
    ];
    const { bundles, problems } = run(lines.join('\n'));
    expect(problems).toEqual([]);
    const steps = bundles[0]!.nodes.slice(1);
    expect(steps).toHaveLength(2);
    for (const step of steps) {
      expect(step.action).toBe('{"name":"calc","arguments":{"b":2.0,"10":"ten","a":1e3,"big":12345678901234567890,"s":"caf\\u00e9"}}');
      expect(step.observation).toBe(
        ['{', '  "content": [', '    {', '      "type": "text",', '      "text": "7.0"', '    }', '  ],', '  "structuredContent": {', '    "z": 7.0,', '    "1": []', '  },', '  "isError": false', '}'].join('\n'),
      );
    }
  });
});
