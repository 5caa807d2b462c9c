import { describe, expect, it } from 'vitest';
import { toolCallText } from './tool-call-text';

/** A call as the MCP and ATIF importers write it (parsing/tool-call.ts). */
const toolCallAction = (name: string, args: unknown) => JSON.stringify({ name, arguments: args ?? {} });

describe('toolCallText', () => {
  it('reads a recorded tool call as name(key: value, …)', () => {
    expect(toolCallText(toolCallAction('read_file', { path: '/tmp/a.txt', lines: 20, follow: true }))).toBe('read_file(path: "/tmp/a.txt", lines: 20, follow: true)');
    expect(toolCallText(toolCallAction('list_allowed_directories', undefined))).toBe('list_allowed_directories()');
    expect(toolCallText('{"name":"search","arguments":{"filter":{"kind":"file"},"ids":[1,2]}}')).toBe('search(filter: {"kind":"file"}, ids: [1,2])');
  });

  it('cuts long values but keeps every argument name', () => {
    const text = toolCallText(toolCallAction('write_file', { path: 'a', content: 'x'.repeat(500) }))!;
    expect(text.startsWith('write_file(path: "a", content: "xxx')).toBe(true);
    expect(text.endsWith('…)')).toBe(true);
    expect(text.length).toBeLessThan(100);
  });

  it('names a call whose JSON a label cut short', () => {
    const label = toolCallAction('write_file', { path: 'a', content: 'y'.repeat(500) }).slice(0, 121);
    expect(toolCallText(label)).toBe('write_file(…)');
  });

  it('leaves everything else alone', () => {
    expect(toolCallText('ls -la')).toBeNull();
    expect(toolCallText('{"query": "weather"}')).toBeNull();
    expect(toolCallText('{"name": "x", "arguments": {}, "id": 3}')).toBeNull();
    expect(toolCallText('{"name": 5}')).toBeNull();
    expect(toolCallText('[1, 2]')).toBeNull();
    // Markup stays text: the caller renders it as text, and nothing here adds any.
    expect(toolCallText('{"name":"<b>x</b>","arguments":{"q":"<script>"}}')).toBe('<b>x</b>(q: "<script>")');
  });
});
