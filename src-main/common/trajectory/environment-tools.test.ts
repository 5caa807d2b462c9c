import { describe, expect, it } from 'vitest';
import type { Domain, TrajectoryRecord } from './model';
import { environmentTools, recordedMcpTools } from './environment-tools';

const trajectory = (domain: Domain, systemPrompt = ''): TrajectoryRecord => ({ id: 't', title: 't', domain, systemPrompt, worldSpec: null, createdAt: '', sourceKey: null });

describe('environment tools', () => {
  it("serves an MCP trajectory's recorded tools/list, and Qwen-style <tools> blocks", () => {
    const listed = [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, outputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }];
    const prompt = `MCP environment: files 1.0.\n\nTools (from tools/list):\n${JSON.stringify(listed, null, 2)}\n\nMore text [with brackets].`;
    const tools = environmentTools(trajectory('mcp', prompt));
    expect(tools.source).toBe('recorded');
    expect(tools.tools).toEqual([{ name: 'read_file', description: 'Read a file', inputSchema: listed[0]!.inputSchema, extra: { annotations: { readOnlyHint: true } } }]);
    expect(tools.actionFor('read_file', { path: '/a' })).toBe('{"name":"read_file","arguments":{"path":"/a"}}');
    const qwen = recordedMcpTools('# Tools\n<tools>\n{"type": "function", "function": {"name": "search", "description": "Find", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}\n</tools>');
    expect(qwen?.map((t) => [t.name, t.inputSchema])).toEqual([['search', { type: 'object', properties: { q: { type: 'string' } } }]]);
    expect(recordedMcpTools('You simulate an MCP server.')).toBeNull();
  });

  it('serves natural tools for other domains, each call written as that domain writes actions', () => {
    const terminal = environmentTools(trajectory('terminal'));
    expect(terminal.tools.map((t) => t.name)).toEqual(['execute_command']);
    expect(terminal.actionFor('execute_command', { command: 'ls -la' })).toBe('ls -la');
    const web = environmentTools(trajectory('web'));
    expect(web.tools.map((t) => t.name)).toEqual(['navigate', 'click', 'type', 'press', 'scroll', 'back']);
    expect(web.actionFor('navigate', { url: 'https://example.org' })).toBe('goto https://example.org');
    expect(web.actionFor('type', { ref: 'e4', text: 'hello "you"' })).toBe('type e4 "hello \\"you\\""');
    expect(web.actionFor('scroll', { direction: 'up', pixels: 300 })).toBe('scroll up 300');
    const android = environmentTools(trajectory('android'), 'tap(540, 1200)');
    expect(android.tools[0]!.description).toContain('tap(540, 1200)');
    expect(android.actionFor('act', { action: 'swipe up' })).toBe('swipe up');
    // An MCP trajectory that kept no tool list still gets a way to act.
    expect(environmentTools(trajectory('mcp', 'You simulate an MCP server.')).tools.map((t) => t.name)).toEqual(['act']);
  });
});

describe('tool lists in benchmark prompts', () => {
  it("reads the tools AgentWorldBench's MCP prompt lists, in the shapes prompts use", () => {
    const prompt =
      '# Input Definitions\n\nYou can simulate the following tools:\n\n' +
      '{"name": "get_weather", "description": "Weather for a city {city}", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}\n' +
      '{"type": "function", "function": {"name": "send_mail", "description": "Send", "parameters": {"type": "object", "properties": {"to": {"type": "string"}}}}}\n\n' +
      '# Guidelines\n1. Format adherence {not json}';
    const tools = recordedMcpTools(prompt)!;
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'send_mail']);
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { city: { type: 'string' } } });
    expect(tools[0]!.description).toBe('Weather for a city {city}');
    expect(recordedMcpTools('You can simulate the following tools:\n\n[{"name": "a", "inputSchema": {"type": "object"}}]')!.map((t) => t.name)).toEqual(['a']);
  });
});
