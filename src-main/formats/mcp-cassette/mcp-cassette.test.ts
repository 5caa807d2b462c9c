import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpCassetteImporter } from './import';
import { importerFor } from '../registry';
import { jsonObservation, toolCallAction } from '../../parsing/tool-call';
import { fixture, runImporter } from '../../testing/importer-fixtures';
import { realWorld, realWorldNote } from '../../testing/real-world';

const run = (name: string, text: string) => runImporter(mcpCassetteImporter, name, text);
const REAL = realWorld('mcp');
const realFile = join(REAL, 'mcp-recorder-mock_session.json');

interface Interaction {
  type: string;
  request: { method: string; id?: number; params?: { name?: string; arguments?: unknown } } | null;
  response: { result?: { tools?: { name: string }[] } & Record<string, unknown>; error?: unknown } | null;
}

describe.skipIf(!existsSync(realFile))(`MCP cassettes: the shared real mcp-recorder file (${realWorldNote('mcp')})`, () => {
  it('is detected, and every tools/call of the file is a step, in order, with its exact result', () => {
    const text = readFileSync(realFile, 'utf8');
    expect(importerFor('auto', 'mock_session.json', text.slice(0, 64 * 1024)).id).toBe('mcp-cassette');
    const { bundles, problems, skipped } = run('mock_session.json', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    const { trajectory, nodes } = bundles[0]!;
    const interactions = (JSON.parse(text) as { interactions: Interaction[] }).interactions;
    const calls = interactions.filter((i) => i.request?.method === 'tools/call');
    expect(calls.length).toBeGreaterThan(0);
    const steps = nodes.slice(1);
    // Step by step against the file: nothing lost, nothing added, order kept.
    expect(steps.map((s) => [JSON.parse(s.action) as unknown, JSON.parse(s.observation) as unknown])).toEqual(
      calls.map((c) => [JSON.parse(toolCallAction(c.request!.params!.name!, c.request!.params!.arguments)), JSON.parse(jsonObservation(c.response!.result ?? c.response!.error))]),
    );
    // As the server saw them: 2.0 stays 2.0 (JSON.parse would make it 2), in the action and the result.
    const multiply = steps.find((s) => s.action.includes('"multiply"'))!;
    expect(text).toContain('"b": 2.0');
    expect(multiply.action).toBe('{"name":"multiply","arguments":{"a":3.5,"b":2.0}}');
    expect(multiply.observation).toContain('"result": 7.0');
    // tools/list is the environment description, not a step.
    const listed = interactions.find((i) => i.request?.method === 'tools/list')!.response!.result!.tools!;
    for (const tool of listed) expect(trajectory.systemPrompt).toContain(`"name": "${tool.name}"`);
    expect(steps.some((s) => s.action.includes('tools/list'))).toBe(false);
    expect(trajectory.title).toBe('Test Calculator · mock_session.json');
    expect(nodes[0]!.provenance.tools).toEqual(listed.map((t) => t.name));
    // What was left out is said: the handshake notification and the HTTP stream exchanges.
    const notices = interactions.filter((i) => i.type === 'notification').length;
    const lifecycle = interactions.filter((i) => i.type === 'lifecycle').length;
    expect(skipped.map((s) => s.what).join('\n')).toContain(`${notices} × notification notifications/initialized`);
    expect(skipped.filter((s) => s.what.startsWith('1 × transport exchange'))).toHaveLength(lifecycle);
  });
});

describe('MCP cassettes: agent-vcr .vcr', () => {
  it('reads the initialize handshake, calls, protocol errors and server requests of a .vcr', () => {
    const text = fixture('mcp-cassette', 'weather-errors.vcr');
    expect(importerFor('auto', 'weather-errors.vcr', text).id).toBe('mcp-cassette');
    const { bundles, problems, skipped } = run('weather-errors.vcr', text);
    expect(problems).toEqual([]);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory.title).toBe('weather-server · weather-errors.vcr');
    expect(trajectory.systemPrompt).toContain('weather-server 0.3.1');
    expect(trajectory.systemPrompt).toContain('"name": "forecast"');
    expect(nodes[0]!.observation).toBe('Temperatures are in Celsius.');
    const steps = nodes.slice(1);
    expect(steps.map((s) => s.action)).toEqual(['{"name":"forecast","arguments":{"city":"Oslo","days":2}}', '{"name":"forecast","arguments":{"city":""}}']);
    expect(JSON.parse(steps[0]!.observation)).toEqual({ content: [{ type: 'text', text: 'Mon 3°C rain; Tue 5°C cloudy' }] });
    expect(JSON.parse(steps[1]!.observation)).toEqual({ code: -32602, message: 'city must not be empty' });
    expect(steps[1]!.provenance.mcp).toMatchObject({ protocolError: true, responseAt: 'session.interactions.3.response' });
    // The recorder's measured latency is the step's duration.
    expect(steps.map((s) => s.provenance.timings)).toEqual([{ durationSeconds: 0.21 }, { durationSeconds: 0.002 }]);
    // The server's roots/list request uses id 2 too: pairing by place and direction keeps them apart.
    expect(skipped.map((s) => s.what)).toEqual([
      '1 × notification notifications/progress (first at session.interactions.1.notifications.0)',
      '1 × server request roots/list (first at session.interactions.2.request)',
      '1 × request resources/read (first at session.interactions.4.request)',
    ]);
  });

  it('says what a JSON document without interactions is', () => {
    const { bundles, problems } = run('x.json', JSON.stringify({ version: '1.0', metadata: {} }));
    expect(bundles).toEqual([]);
    expect(problems[0]!.reason).toMatch(/not an MCP cassette/);
  });

  it('reports an unanswered call and a bad interaction by where they sit', () => {
    const doc = {
      version: '1.0',
      interactions: [
        { type: 'jsonrpc_request', request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } }, response: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '3' }] } } },
        'oops',
        { type: 'jsonrpc_request', request: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: {} } }, response: null },
      ],
    };
    const { bundles, problems } = run('c.json', JSON.stringify(doc));
    expect(problems.map((p) => [p.field, p.reason])).toEqual([
      ['interactions.1', 'an interaction must be an object with request and response'],
      ['interactions.2.request.id', 'tools/call request has no response in the log'],
    ]);
    expect(bundles[0]!.nodes).toHaveLength(2);
  });
});
