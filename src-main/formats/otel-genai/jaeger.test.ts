// A Jaeger JSON export of GenAI spans reads as the same trace exported as OTLP: tags are the
// attributes, the process names the service, an ERROR status tag marks a failed tool.
import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { otelGenAiImporter } from './import';

const tag = (key: string, value: unknown, type = typeof value === 'number' ? 'int64' : typeof value === 'boolean' ? 'bool' : 'string') => ({ key, type, value });
const exported = {
  data: [
    {
      traceID: '5ab1c0ffee',
      spans: [
        {
          traceID: '5ab1c0ffee',
          spanID: 's-chat',
          operationName: 'chat gpt-4.1',
          references: [],
          startTime: 1760000000000000,
          duration: 900000,
          tags: [
            tag('gen_ai.operation.name', 'chat'),
            tag('gen_ai.request.model', 'gpt-4.1'),
            tag('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Is the disk full?' }] }])),
          ],
          logs: [],
          processID: 'p1',
        },
        {
          traceID: '5ab1c0ffee',
          spanID: 's-df',
          operationName: 'execute_tool shell',
          references: [{ refType: 'CHILD_OF', traceID: '5ab1c0ffee', spanID: 's-chat' }],
          startTime: 1760000001000000,
          duration: 20000,
          tags: [tag('gen_ai.operation.name', 'execute_tool'), tag('gen_ai.tool.name', 'shell'), tag('gen_ai.tool.call.id', 'call_1'), tag('gen_ai.tool.call.arguments', '{"command":"df -h /"}'), tag('gen_ai.tool.call.result', '/dev/sda1  40G  39G  1G  98% /')],
          logs: [],
          processID: 'p1',
        },
        {
          traceID: '5ab1c0ffee',
          spanID: 's-du',
          operationName: 'execute_tool shell',
          references: [],
          startTime: 1760000002000000,
          duration: 20000,
          tags: [tag('gen_ai.operation.name', 'execute_tool'), tag('gen_ai.tool.name', 'shell'), tag('gen_ai.tool.call.id', 'call_2'), tag('gen_ai.tool.call.arguments', '{"command":"du -sh /var"}'), tag('otel.status_code', 'ERROR'), tag('otel.status_description', 'permission denied')],
          logs: [],
          processID: 'p1',
        },
      ],
      processes: { p1: { serviceName: 'ops-agent', tags: [] } },
      warnings: null,
    },
  ],
  total: 0,
  limit: 0,
  offset: 0,
  errors: null,
};

describe('Jaeger JSON export of GenAI spans', () => {
  it('is recognised as an OpenTelemetry GenAI trace', () => {
    expect(importerFor('auto', 'trace-5ab1.json', JSON.stringify(exported, null, 2)).id).toBe('otel-genai');
  });

  it('reads the trace as its OTLP export would read: the task, each tool span a step, an ERROR status a failed tool', () => {
    const { bundles, problems } = runImporter(otelGenAiImporter, 'trace-5ab1.json', JSON.stringify(exported));
    expect(problems).toEqual([]);
    const b = bundles[0]!;
    expect(b.nodes[0]!.observation).toContain('Is the disk full?');
    expect(b.nodes.slice(1).map((n) => [n.action, n.observation])).toEqual([
      ['df -h /', '/dev/sda1  40G  39G  1G  98% /'],
      ['du -sh /var', 'permission denied'],
    ]);
    expect(b.nodes[2]!.provenance).toMatchObject({ tool: { isError: true } });
    expect(b.trajectory.title).toContain('ops-agent');
  });

  it('one trace as the Jaeger UI models it (no "data" wrapper) reads the same', () => {
    const one = JSON.stringify(exported.data[0]);
    expect(importerFor('auto', 'trace.json', one).id).toBe('otel-genai');
    const { bundles } = runImporter(otelGenAiImporter, 'trace.json', one);
    expect(bundles[0]!.nodes.slice(1).map((n) => n.action)).toEqual(['df -h /', 'du -sh /var']);
  });
});
