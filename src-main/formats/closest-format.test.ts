import { describe, expect, it } from 'vitest';
import { closestFormat, lookalike, recordKeys } from './closest-format';
import { IMPORT_FORMAT_IDS, importerFor } from './registry';

describe('what a file no importer takes looks like', () => {
  it('reads the keys at the top of records only: a document, each JSON line, each element of a top-level array', () => {
    expect([...recordKeys('{"a": 1, "b": {"deep": {"role": "user"}}, "c": [{"content": "x"}]}')]).toEqual(['a', 'b', 'c']);
    expect([...recordKeys('{"x":1,"m":{"role":"u"}}\n{"y":"a \\"q\\": b"}\n')]).toEqual(['x', 'm', 'y']);
    expect([...recordKeys('[{"role": "user", "content": [{"type": "text", "text": "hi"}]}, {"role": "assistant"')]).toEqual(['role', 'content']);
  });

  it('does not guess a format from keys found deep inside (an OpenHands-like event with a chat message in it)', () => {
    const events = JSON.stringify([{ id: 0, timestamp: 't', source: 'user', message: 'hi', extras: { messages: [{ role: 'user', content: 'hi' }] } }]);
    expect(closestFormat(events, IMPORT_FORMAT_IDS)).toBeNull();
  });

  it('names known tools by what they are', () => {
    expect(lookalike(JSON.stringify([{ id: 1, timestamp: 't', source: 'agent', action: 'run', args: { command: 'ls' } }]))?.what).toBe('an OpenHands event stream');
    expect(lookalike(JSON.stringify([{ task_id: 3, reward: 1, info: {}, traj: [{ role: 'user', content: 'x' }] }]))?.what).toBe('tau-bench results');
    expect(lookalike(JSON.stringify([{ role: 'user', content: [{ type: 'text', text: '<task>x</task>\n<environment_details>' }] }]))?.formatId).toBe('cline-task');
    expect(lookalike('{"type":"init","timestamp":"t","session_id":"s","model":"gemini-2.5-pro"}\n{"type":"message","role":"user","content":"hi"}')?.formatId).toBe('gemini-cli');
    expect(lookalike(JSON.stringify({ data: [{ traceID: 'a', spans: [{ spanID: 'b', tags: [{ key: 'gen_ai.system', value: 'openai' }] }], processes: {} }] }))?.what).toBe('a Jaeger JSON export');
  });

  it('a Zipkin export and Alpaca data are refused by name, with what to do, not with "closest to" another format', () => {
    const zipkin = JSON.stringify([{ traceId: 'a1', id: 'b2', name: 'chat gpt-4o', kind: 'CLIENT', timestamp: 1, duration: 2, localEndpoint: { serviceName: 'app' }, tags: { 'gen_ai.system': 'openai' } }]);
    expect(() => importerFor('auto', 'trace.json', zipkin)).toThrow(/It looks like a Zipkin JSON export \(v2 spans\), which Worldloom does not read: export the trace as OTLP JSON/);
    const alpaca = '{"instruction": "Add the numbers", "input": "2 3", "output": "5"}\n{"instruction": "Say hi", "input": "", "output": "hi"}\n';
    expect(() => importerFor('auto', 'alpaca.jsonl', alpaca)).toThrow(/It looks like an Alpaca-style instruction dataset \(instruction, input, output\), which Worldloom does not read: .*chat messages/);
  });

  it('a tool Worldloom reads, in a shape its reader does not take, is named with the format to try', () => {
    const stream = '{"type":"init","timestamp":"t","session_id":"s","model":"m"}\n';
    const like = lookalike(stream);
    expect(like?.formatId).toBe('gemini-cli');
  });
});
