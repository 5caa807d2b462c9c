// OpenTelemetry GenAI traces imported: recognised by detection, each tool call paired with its result
// (../../parsing/agent-session.ts) as a step, and what is left out said.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runImporter } from '../../testing/importer-fixtures';
import { realWorld, realWorldNote } from '../../testing/real-world';
import type { TrajectoryImporter } from '../format';
import { importerFor } from '../registry';
import { otelGenAiImporter } from './import';

const steps = (bundle: { nodes: { action: string; observation: string }[] }) => bundle.nodes.slice(1).map((n) => [n.action, n.observation]);
const whats = (skipped: { what: string }[]) => skipped.map((s) => s.what);

describe('OpenTelemetry GenAI traces (OTLP JSON)', () => {
  const text = fixture('otel-genai', 'otel-genai-trace.json');

  it('one trajectory per trace, spans in time order: tool spans and the calls and results in model messages are steps', () => {
    expect(importerFor('auto', 'traces.json', text).id).toBe('otel-genai');
    const { bundles, problems, skipped } = runImporter(otelGenAiImporter, 'traces.json', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(2);
    const [weather, files] = bundles;
    expect(weather!.trajectory.title).toBe('traced agent weather-agent (gpt-4o) · trace 0af7651916cd43dd8448eb211c80319c');
    expect(weather!.nodes[0]!.observation).toBe('What is the weather in Paris?');
    // Counted by hand: get_weather (its span's result) and get_forecast (an error status, no result attribute).
    expect(steps(weather!)).toEqual([
      ['{"name":"get_weather","arguments":{"city":"Paris"}}', '{"temp_c": 18.0}'],
      ['{"name":"get_forecast","arguments":{"city":"Paris","days":2}}', 'forecast service unavailable'],
    ]);
    expect(weather!.nodes[2]!.agentReasoning).toBe('Let me check the forecast too.');
    expect(weather!.nodes[2]!.provenance.tool).toMatchObject({ isError: true });
    // OpenLLMetry's flattened attributes: the call in one span, its result fed back in the next.
    expect(files!.nodes[0]!.observation).toBe('List the files here');
    expect(steps(files!)).toEqual([['{"name":"list_dir","arguments":{"path":"."}}', '["a.txt", "b.txt"]']]);
    expect(whats(skipped)).toContain("2 spans of other kinds (HTTP, database, the agent's own steps)");
  });

  it("a trace downloaded from Grafana Tempo ({batches} or {trace: {resourceSpans}}) reads the same", () => {
    const { resourceSpans } = JSON.parse(text) as { resourceSpans: unknown[] };
    for (const wrapped of [JSON.stringify({ batches: resourceSpans }), JSON.stringify({ trace: { resourceSpans } })]) {
      expect(importerFor('auto', 'tempo.json', wrapped).id).toBe('otel-genai');
      const { bundles, problems } = runImporter(otelGenAiImporter, 'tempo.json', wrapped);
      expect(problems).toEqual([]);
      expect(bundles.map((b) => steps(b).length)).toEqual([2, 1]);
    }
  });

  it("the Vercel AI SDK's spans (ai.toolCall, doStream) and OpenInference's flattened llm.*_messages read as steps", () => {
    const traces = fixture('otel-genai', 'otel-vercel-openinference.json');
    expect(importerFor('auto', 'export.json', traces).id).toBe('otel-genai');
    const { bundles, problems, skipped } = runImporter(otelGenAiImporter, 'export.json', traces);
    expect(problems).toEqual([]);
    const [vercel, openInference] = bundles;
    // Counted by hand: one ai.toolCall span with its result; the wrapping ai.streamText span repeats it.
    expect(vercel!.trajectory.title).toBe('traced agent refund-bot (gpt-4.1-mini) · trace 5d2e8f0a1b3c4d5e6f708192a3b4c5d6');
    expect(vercel!.nodes[0]!.observation).toBe('Can order Z-9 be refunded?');
    // Its arguments are JSON text in the span: kept as written (12.50, not 12.5).
    expect(steps(vercel!)).toEqual([['{"name":"check_refund","arguments":{"order":"Z-9","amount":12.50}}', '{"eligible":true,"reason":"within 30 days"}']]);
    // LLM spans only (no TOOL span): the call in the first span's output, its result in the second's input.
    expect(openInference!.trajectory.title).toBe('traced agent unit-helper (gpt-4o-mini) · trace 0b1c2d3e4f5061728394a5b6c7d8e9f0');
    expect(openInference!.nodes[0]!.observation).toBe('Convert 3 km to miles');
    expect(steps(openInference!)).toEqual([['{"name":"convert","arguments":{"value":3,"from":"km","to":"mi"}}', '1.864']]);
    expect(whats(skipped)).toEqual([
      "1 span of other kinds (HTTP, database, the agent's own steps)",
      "the agent's last words: Yes: order Z-9 is within the 30-day window.",
      "the agent's last words: 3 km is about 1.86 miles.",
    ]);
  });
});

describe('GenAI output messages with a reasoning part', () => {
  it("keep the model's reasoning with the call it leads to", () => {
    const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const span = (spanId: string, start: string, attributes: unknown[]) => ({ traceId: 'ab', spanId, name: spanId, startTimeUnixNano: start, attributes });
    const doc = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                span('m1', '1', [
                  attr('gen_ai.operation.name', 'chat'),
                  attr('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Is port 8080 free?' }] }])),
                  attr('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'reasoning', content: 'lsof will tell.' }, { type: 'tool_call', id: 'c1', name: 'shell', arguments: { command: 'lsof -i :8080' } }] }])),
                ]),
                span('t1', '2', [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'shell'), attr('gen_ai.tool.call.id', 'c1'), attr('gen_ai.tool.call.result', '')]),
              ],
            },
          ],
        },
      ],
    };
    const { bundles } = runImporter(otelGenAiImporter, 'r.json', JSON.stringify(doc));
    expect(steps(bundles[0]!)).toEqual([['lsof -i :8080', '']]);
    expect(bundles[0]!.nodes[1]!.agentReasoning).toBe('lsof will tell.');
  });
});

describe('tool calls inside GenAI message attributes (already-parsed JSON text)', () => {
  it('keep their arguments as the attribute wrote them, numbers and spacing of values included', () => {
    const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const output = '[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"set_price","arguments":{"sku":"A-1","price":12.50,"qty":2.0}}]},{"role":"assistant","tool_calls":[{"id":"c2","type":"function","function":{"name":"scale","arguments":{"factor":1.0e3}}}]}]';
    const doc = {
      resourceSpans: [{ scopeSpans: [{ spans: [
        { traceId: 'ab', spanId: 'm1', name: 'chat', startTimeUnixNano: '1', attributes: [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.input.messages', '[{"role":"user","parts":[{"type":"text","content":"Reprice A-1"}]}]'), attr('gen_ai.output.messages', output)] },
        { traceId: 'ab', spanId: 't1', name: 't1', startTimeUnixNano: '2', attributes: [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'set_price'), attr('gen_ai.tool.call.id', 'c1'), attr('gen_ai.tool.call.result', 'ok')] },
        { traceId: 'ab', spanId: 't2', name: 't2', startTimeUnixNano: '3', attributes: [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'scale'), attr('gen_ai.tool.call.id', 'c2'), attr('gen_ai.tool.call.result', 'scaled')] },
      ] }] }],
    };
    const { bundles } = runImporter(otelGenAiImporter, 'r.json', JSON.stringify(doc));
    expect(steps(bundles[0]!)).toEqual([
      ['{"name":"set_price","arguments":{"sku":"A-1","price":12.50,"qty":2.0}}', 'ok'],
      ['{"name":"scale","arguments":{"factor":1.0e3}}', 'scaled'],
    ]);
  });
});

describe('an OTLP logs export given where traces are read', () => {
  it('is recognised as OpenTelemetry and told to export the traces instead', () => {
    const logs = JSON.stringify({ resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ logRecords: [{ body: { stringValue: 'gemini_cli.tool_call' } }] }] }] });
    expect(importerFor('auto', 'telemetry.json', logs).id).toBe('otel-genai');
    const { bundles, problems } = runImporter(otelGenAiImporter, 'telemetry.json', logs);
    expect(bundles).toEqual([]);
    expect(problems.map((p) => p.reason)).toEqual([expect.stringMatching(/^an OpenTelemetry logs export, not traces: .*export the traces/)]);
  });
});

describe("OpenLLMetry's @tool span, which names no call id", () => {
  it('is the run of the call the model asked for (one step, not two), its input unwrapped from {args, kwargs} and its output from JSON', () => {
    const traces = fixture('otel-genai', 'otel-openllmetry-tool-span.json');
    const { bundles, problems } = runImporter(otelGenAiImporter, 'traces.json', traces);
    expect(problems).toEqual([]);
    expect(steps(bundles[0]!)).toEqual([['{"name":"get_weather","arguments":{"city":"Rome","days":1.0}}', '22 C, clear']]);
    expect(bundles[0]!.nodes[1]!.provenance.tool).toMatchObject({ callId: 'call_w' });
  });
});

describe('OpenTelemetry GenAI traces whose messages are span events (the 2024 conventions, Strands Agents)', () => {
  it('gen_ai.content.prompt/completion, gen_ai.user.message/choice/tool.message events and a tool span whose arguments and result are events read as steps', () => {
    const traces = fixture('otel-genai', 'otel-span-events.json');
    expect(importerFor('auto', 'traces.json', traces).id).toBe('otel-genai');
    const { bundles, problems, skipped } = runImporter(otelGenAiImporter, 'traces.json', traces);
    expect(problems).toEqual([]);
    expect(bundles.map((b) => [b.nodes[0]!.observation, steps(b)])).toEqual([
      // Strands: the execute_tool span carries its arguments (gen_ai.tool.message) and result (gen_ai.choice) as events.
      ['What is 17 * 23?', [['{"name":"calculator","arguments":{"expression":"17 * 23"}}', '391']]],
      // gen_ai.content.prompt / gen_ai.content.completion holding OpenAI-shaped messages.
      ['What is in /etc?', [['{"name":"ls","arguments":{"path":"/etc"}}', 'hosts\npasswd']]],
      // gen_ai.user.message, gen_ai.choice, then the result fed back in a gen_ai.tool.message.
      ['Weather in Oslo?', [['{"name":"weather","arguments":{"city":"Oslo"}}', '-3 C, snow']]],
    ]);
    expect(bundles[0]!.nodes[1]!.agentReasoning).toBe('I will use the calculator.');
    // The agent span starts first but its answer comes last: said, not taken as the first step's reasoning.
    expect(whats(skipped)).toEqual([
      'the answer on the agent span invoke_agent MathBuddy: 17 * 23 is 391.',
      "the agent's last words: 17 * 23 is 391.",
      "the agent's last words: /etc holds hosts and passwd.",
      "the agent's last words: It is -3 C and snowing in Oslo.",
    ]);
  });
});

const REAL = realWorld();
const real = (p: string) => join(REAL, p);

describe.skipIf(!existsSync(REAL))(`the OTLP example envelope from the shared real files (${realWorldNote()})`, () => {
  const run = (importer: TrajectoryImporter, path: string) => runImporter(importer, path.split('/').pop()!, readFileSync(real(path), 'utf8'));

  it('the OTLP example envelope: recognised; its one generic span is named as not GenAI', () => {
    const text = readFileSync(real('traces/otlp-example-trace.json'), 'utf8');
    expect(importerFor('auto', 'trace.json', text).id).toBe('otel-genai');
    const { bundles, problems } = run(otelGenAiImporter, 'traces/otlp-example-trace.json');
    expect(bundles).toEqual([]);
    expect(problems.map((p) => p.reason)).toEqual([expect.stringMatching(/^trace 5B8EFFF798038103D269B633813FC60C: none of its 1 span \(I'm a server span\) follows the GenAI conventions/)]);
  });
});
