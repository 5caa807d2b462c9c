// OpenTelemetry traces of agents (OTLP JSON, as Langfuse, Phoenix, OpenLLMetry and the
// collector's file exporter write it: {resourceSpans: [{scopeSpans: [{spans}]}]}, one
// envelope per document or per line). One trajectory per trace, its spans in time order,
// read by the GenAI semantic conventions:
// - a tool span (`gen_ai.operation.name` = execute_tool; OpenInference TOOL; OpenLLMetry
//   tool) is a call (gen_ai.tool.name, gen_ai.tool.call.id, gen_ai.tool.call.arguments or
//   input.value) and its result (gen_ai.tool.call.result or output.value; an error status is
//   an error result);
// - a model span (chat) gives the task (the first user message), the agent's words, and
//   calls and results its messages hold (gen_ai.input.messages / gen_ai.output.messages,
//   or OpenLLMetry's flattened gen_ai.prompt.N / gen_ai.completion.N attributes, or
//   OpenInference's llm.input_messages.N.message.* / llm.output_messages.N.message.*) that no
//   tool span recorded;
// - messages as span events, the conventions' 2024 vintages: gen_ai.content.prompt /
//   gen_ai.content.completion (gen_ai.prompt, gen_ai.completion), gen_ai.user.message,
//   gen_ai.assistant.message, gen_ai.tool.message, gen_ai.choice, and
//   gen_ai.client.inference.operation.details (gen_ai.input/output.messages); a tool span's
//   arguments and result in its gen_ai.tool.message and gen_ai.choice events (Strands Agents);
// - the Vercel AI SDK's own spans (ai.operationId): an ai.toolCall span is a call and its result
//   (ai.toolCall.name, .id, .args, .result), a provider call (ai.generateText.doGenerate,
//   ai.streamText.doStream) a model span (ai.prompt.messages, ai.response.text, ai.response.toolCalls);
//   the wrapping ai.generateText / ai.streamText span repeats its steps and is counted with the others.
// ../../parsing/agent-session.ts pairs calls and results. Spans of neither kind (HTTP, database, the
// agent's own) are counted and said; a trace with no GenAI span at all is a problem that
// names what the file holds.
import { agentSessionItems, parsedArguments, type AgentEvent } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { parseJsonDocument } from '../../parsing/json-document';
import { rawValueAt } from '../../parsing/json-raw';
import { jsonObservation } from '../../parsing/tool-call';
import { isJaegerExport, jaegerSpans } from './jaeger';

/** An id or a name as text: a string or number as written, anything else (missing, an object) as nothing. */
const scalar = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

const FORMAT = 'otel-genai';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An OTLP AnyValue as a plain value. */
function anyValue(v: unknown): unknown {
  if (!isRec(v)) return v;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('boolValue' in v) return v.boolValue;
  if ('bytesValue' in v) return v.bytesValue;
  if (isRec(v.arrayValue)) return (Array.isArray(v.arrayValue.values) ? v.arrayValue.values : []).map(anyValue);
  if (isRec(v.kvlistValue)) return attributes(v.kvlistValue.values);
  return undefined;
}

function attributes(list: unknown): Rec {
  const out: Rec = {};
  for (const kv of Array.isArray(list) ? list : []) if (isRec(kv) && typeof kv.key === 'string') out[kv.key] = anyValue(kv.value);
  return out;
}

export interface Span {
  traceId: string;
  spanId: string;
  name: string;
  start: bigint;
  attrs: Rec;
  status: Rec;
  service?: string;
  /** The span's events (name and attributes), where older conventions put the messages. */
  events: { name: string; attrs: Rec }[];
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : jsonObservation(v));

interface Message {
  role: string;
  text: string;
  /** `arguments` as the source gave them: a value, or JSON text read (and kept as written) when the call is made. */
  calls: { id: string; name: string; arguments: unknown }[];
  results: { id: string; content: string }[];
}

/** GenAI messages as the current conventions write them: [{role, parts: [{type: text|tool_call|tool_call_response…}]}]. */
function semconvMessages(value: unknown): Message[] {
  const list = typeof value === 'string' ? parsedArguments(value) : value;
  if (!Array.isArray(list)) return [];
  /** A call's arguments as the attribute's JSON text wrote them (`2.0` stays `2.0`), else the value read from it. */
  const asWritten = (args: unknown, path: readonly (string | number)[]): unknown =>
    typeof value === 'string' && typeof args === 'object' && args !== null ? (rawValueAt(value, path) ?? args) : args;
  return list.flatMap((m, i) => {
    if (!isRec(m)) return [];
    const out: Message = { role: String(m.role ?? ''), text: '', calls: [], results: [] };
    const text: string[] = typeof m.content === 'string' ? [m.content] : [];
    // OpenAI-shaped content parts: [{type: "text", text}].
    for (const p of Array.isArray(m.content) ? m.content.filter(isRec) : []) if (typeof p.text === 'string') text.push(p.text);
    for (const [j, p] of (Array.isArray(m.parts) ? m.parts : []).entries()) {
      if (!isRec(p)) continue;
      // The model's reasoning (type "reasoning") is its own words too: it goes with the next call.
      if ((p.type === 'text' || p.type === 'reasoning') && typeof p.content === 'string') text.push(p.content);
      else if (p.type === 'tool_call') out.calls.push({ id: String(p.id), name: String(p.name), arguments: asWritten(p.arguments, [i, 'parts', j, 'arguments']) ?? {} });
      else if (p.type === 'tool_call_response') out.results.push({ id: String(p.id), content: asText(p.response ?? p.result) });
    }
    // OpenAI-shaped messages some exporters write instead.
    for (const [j, c] of (Array.isArray(m.tool_calls) ? m.tool_calls : []).entries()) {
      if (!isRec(c)) continue;
      const fn = isRec(c.function) ? c.function : c;
      out.calls.push({ id: String(c.id), name: String(fn.name), arguments: asWritten(fn.arguments, isRec(c.function) ? [i, 'tool_calls', j, 'function', 'arguments'] : [i, 'tool_calls', j, 'arguments']) ?? {} });
    }
    if (m.role === 'tool' && typeof m.tool_call_id === 'string') out.results.push({ id: m.tool_call_id, content: text.join('\n') });
    else out.text = text.join('\n');
    return [out];
  });
}

/**
 * Flattened attributes of a list, grouped by item in order: with `key` matching
 * `<prefix>.<index>.<rest>`, the attributes of each index as one record keyed by <rest>.
 */
function indexedGroups(attrs: Rec, key: RegExp): Rec[] {
  const byIndex = new Map<number, Rec>();
  for (const [name, value] of Object.entries(attrs)) {
    const m = key.exec(name);
    if (!m) continue;
    const i = Number(m[1]);
    byIndex.set(i, { ...(byIndex.get(i) ?? {}), [m[2]!]: value });
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, group]) => group);
}

/** OpenLLMetry's flattened messages: gen_ai.prompt.0.role, gen_ai.completion.0.tool_calls.1.name, … */
function flattenedMessages(attrs: Rec, prefix: 'gen_ai.prompt' | 'gen_ai.completion'): Message[] {
  return indexedGroups(attrs, new RegExp(`^${prefix.replace('.', '\\.')}\\.(\\d+)\\.(.+)$`)).map((f) => {
    const calls: Message['calls'] = [];
    for (let j = 0; f[`tool_calls.${j}.name`] !== undefined; j++) calls.push({ id: String(f[`tool_calls.${j}.id`] ?? `call-${j}`), name: String(f[`tool_calls.${j}.name`]), arguments: f[`tool_calls.${j}.arguments`] ?? {} });
    const role = String(f.role ?? (prefix === 'gen_ai.completion' ? 'assistant' : 'user'));
    const content = asText(f.content);
    return role === 'tool' && f.tool_call_id !== undefined
      ? { role, text: '', calls, results: [{ id: String(f.tool_call_id), content }] }
      : { role, text: content, calls, results: [] };
  });
}

/** OpenInference's flattened messages: llm.input_messages.0.message.role, …message.tool_calls.0.tool_call.function.name, … */
function openInferenceMessages(attrs: Rec, side: 'input' | 'output'): Message[] {
  return indexedGroups(attrs, new RegExp(`^llm\\.${side}_messages\\.(\\d+)\\.message\\.(.+)$`)).map((f) => {
    const calls: Message['calls'] = [];
    for (let j = 0; f[`tool_calls.${j}.tool_call.function.name`] !== undefined; j++) {
      calls.push({ id: String(f[`tool_calls.${j}.tool_call.id`] ?? `call-${j}`), name: String(f[`tool_calls.${j}.tool_call.function.name`]), arguments: f[`tool_calls.${j}.tool_call.function.arguments`] ?? {} });
    }
    // Content as one string, or as parts: contents.0.message_content.text.
    const parts: string[] = [];
    for (let j = 0; f[`contents.${j}.message_content.type`] !== undefined || f[`contents.${j}.message_content.text`] !== undefined; j++) {
      if (typeof f[`contents.${j}.message_content.text`] === 'string') parts.push(f[`contents.${j}.message_content.text`] as string);
    }
    const content = typeof f.content === 'string' ? f.content : parts.join('\n');
    const role = String(f.role ?? (side === 'output' ? 'assistant' : 'user'));
    return role === 'tool' && f.tool_call_id !== undefined ? { role, text: '', calls, results: [{ id: String(f.tool_call_id), content }] } : { role, text: content, calls, results: [] };
  });
}

/** The Vercel AI SDK's prompt (ai.prompt.messages): [{role, content: text | [{type: text|tool-call|tool-result, …}]}]. */
function vercelMessages(value: unknown): Message[] {
  const list = typeof value === 'string' ? parsedArguments(value) : value;
  if (!Array.isArray(list)) return [];
  return list.filter(isRec).map((m) => {
    const out: Message = { role: String(m.role ?? ''), text: '', calls: [], results: [] };
    const text: string[] = typeof m.content === 'string' ? [m.content] : [];
    for (const p of Array.isArray(m.content) ? m.content.filter(isRec) : []) {
      if (p.type === 'text' && typeof p.text === 'string') text.push(p.text);
      // AI SDK 4 wrote args/result, 5 writes input/output ({type, value}).
      else if (p.type === 'tool-call') out.calls.push({ id: scalar(p.toolCallId), name: scalar(p.toolName), arguments: p.input ?? p.args ?? {} });
      else if (p.type === 'tool-result') {
        const output = isRec(p.output) && 'value' in p.output ? p.output.value : (p.output ?? p.result);
        out.results.push({ id: scalar(p.toolCallId), content: asText(output) });
      }
    }
    out.text = text.join('\n');
    return out;
  });
}

/** The calls a Vercel AI SDK provider span answered with (ai.response.toolCalls: [{toolCallId, toolName, args | input}]). */
function vercelCalls(value: unknown): Message['calls'] {
  const list = typeof value === 'string' ? parsedArguments(value) : value;
  return (Array.isArray(list) ? list.filter(isRec) : []).map((c) => ({ id: scalar(c.toolCallId), name: scalar(c.toolName), arguments: c.input ?? c.args ?? {} }));
}

/** An event's message content as text: a string, or JSON of parts ([{text}]) or of a message ({content}). */
function eventText(v: unknown): string {
  const value = typeof v === 'string' && /^\s*[[{]/.test(v) ? parsedArguments(v) : v;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((p) => (typeof p === 'string' ? p : isRec(p) ? eventText(p.text ?? p.content ?? '') : '')).filter(Boolean).join('\n');
  if (isRec(value)) return 'content' in value || 'text' in value ? eventText(value.content ?? value.text) : isRec(value.message) ? eventText(value.message) : jsonObservation(value);
  return value === undefined || value === null ? '' : String(value);
}

/** A message carried by an event attribute: JSON of {role, content, tool_calls} (or a list of them), or plain text. */
function eventMessages(v: unknown, role: string): Message[] {
  const value = typeof v === 'string' && /^\s*[[{]/.test(v) ? parsedArguments(v) : v;
  const list = Array.isArray(value) && value.every(isRec) && value.some((m) => 'role' in m) ? value : isRec(value) && ('role' in value || 'tool_calls' in value) ? [value] : null;
  if (list) return semconvMessages(list.map((m) => (isRec(m) && !('role' in m) ? { ...m, role } : m)));
  const message = isRec(value) && isRec(value.message) ? value.message : null;
  if (message) return eventMessages(message, role);
  const text = eventText(value);
  return text ? [{ role, text, calls: [], results: [] }] : [];
}

const MESSAGE_EVENTS = /^gen_ai\.(content\.prompt|content\.completion|(system|user|assistant|tool)\.message|choice|client\.inference\.operation\.details)$/;

/** The input and output messages a span's events hold, by the event conventions. */
function spanEventMessages(events: Span['events']): { input: Message[]; output: Message[] } {
  const input: Message[] = [];
  const output: Message[] = [];
  for (const { name, attrs: e } of events) {
    const body = e.content ?? e.message ?? e['gen_ai.event.content'];
    if (name === 'gen_ai.content.prompt') input.push(...eventMessages(e['gen_ai.prompt'], 'user'));
    else if (name === 'gen_ai.content.completion') output.push(...eventMessages(e['gen_ai.completion'], 'assistant'));
    else if (name === 'gen_ai.user.message') input.push(...eventMessages(body, 'user').map((m) => ({ ...m, role: 'user' })));
    else if (name === 'gen_ai.assistant.message') {
      const m = eventMessages(body, 'assistant')[0] ?? { role: 'assistant', text: '', calls: [], results: [] };
      const toolCalls = typeof e.tool_calls === 'string' ? parsedArguments(e.tool_calls) : e.tool_calls;
      input.push({ ...m, calls: [...m.calls, ...semconvMessages([{ role: 'assistant', tool_calls: toolCalls }])[0]!.calls] });
    } else if (name === 'gen_ai.tool.message') {
      const id = e.id ?? e['gen_ai.tool.call.id'] ?? e.tool_call_id;
      if (id !== undefined) input.push({ role: 'tool', text: '', calls: [], results: [{ id: String(id), content: eventText(body) }] });
    } else if (name === 'gen_ai.choice') output.push(...eventMessages(body, 'assistant'));
    else if (name === 'gen_ai.client.inference.operation.details') {
      input.push(...semconvMessages(e['gen_ai.input.messages']));
      output.push(...semconvMessages(e['gen_ai.output.messages']));
    }
  }
  return { input, output };
}

/** OpenLLMetry's @tool input is the Python call, {"args": [...], "kwargs": {...}}: the keyword arguments when there are no positional ones. */
function traceloopInput(v: unknown): unknown {
  if (v === undefined) return undefined;
  const value = parsedArguments(v);
  if (isRec(value) && isRec(value.kwargs) && Array.isArray(value.args) && value.args.length === 0 && Object.keys(value).length === 2) return (typeof v === 'string' ? rawValueAt(v, ['kwargs']) : null) ?? value.kwargs;
  return v;
}

/** OpenLLMetry's @tool output is the return value as JSON: a string comes back as its text, not its quoted form. */
function traceloopOutput(v: unknown): unknown {
  if (v === undefined) return undefined;
  const value = parsedArguments(v);
  return typeof value === 'string' ? value : v;
}

const VERCEL_MODEL_CALLS = /^ai\.(generateText|streamText|generateObject|streamObject)\.(doGenerate|doStream)$/;

function isToolSpan(a: Rec): boolean {
  return a['gen_ai.operation.name'] === 'execute_tool' || a['openinference.span.kind'] === 'TOOL' || a['traceloop.span.kind'] === 'tool' || a['ai.operationId'] === 'ai.toolCall';
}

/** A model span by its events alone (the 2024 conventions, Strands Agents): it holds message events. */
const hasMessageEvents = (s: Span) => s.events.some((e) => MESSAGE_EVENTS.test(e.name));

function isModelSpan(a: Rec): boolean {
  return (
    ['chat', 'text_completion', 'generate_content'].includes(String(a['gen_ai.operation.name'])) ||
    a['openinference.span.kind'] === 'LLM' ||
    'gen_ai.input.messages' in a ||
    'gen_ai.prompt.0.role' in a ||
    'gen_ai.prompt.0.content' in a ||
    VERCEL_MODEL_CALLS.test(String(a['ai.operationId']))
  );
}

function* traceEvents(spans: Span[]): Iterable<AgentEvent> {
  const calls = new Set<string>();
  const results = new Set<string>();
  // Calls a model asked for that no result has answered yet, by tool name, oldest first: a tool
  // span that names no call id (OpenLLMetry's @tool, some OpenInference tools) is the run of one.
  const pending = new Map<string, string[]>();
  let other = 0;
  const call = function* (id: string, name: string, args: unknown): Iterable<AgentEvent> {
    if (calls.has(id)) return;
    calls.add(id);
    pending.set(name, [...(pending.get(name) ?? []), id]);
    // Arguments written as JSON text keep that text in the action (`12.50` stays `12.50`).
    const value = parsedArguments(args);
    const raw = typeof args === 'string' && typeof value === 'object' && value !== null ? args : null;
    yield { kind: 'call', id, name, arguments: value, rawArguments: raw, line: null };
  };
  const result = function* (id: string, content: string, isError = false): Iterable<AgentEvent> {
    if (results.has(id)) return;
    results.add(id);
    for (const [name, ids] of pending) if (ids.includes(id)) pending.set(name, ids.filter((x) => x !== id));
    yield { kind: 'result', id, content, ...(isError ? { isError } : {}), line: null };
  };
  let taskSeen = false;
  for (const s of spans) {
    const a = s.attrs;
    if (isToolSpan(a)) {
      const name = String(a['gen_ai.tool.name'] ?? a['tool.name'] ?? a['ai.toolCall.name'] ?? a['traceloop.entity.name'] ?? s.name.replace(/^execute_tool\s+/, ''));
      const named = a['gen_ai.tool.call.id'] ?? a['tool_call.id'] ?? a['ai.toolCall.id'];
      const id = named !== undefined ? String(named) : (pending.get(name)?.[0] ?? s.spanId);
      // Strands Agents puts the arguments in a gen_ai.tool.message event and the result in a gen_ai.choice event.
      const argsEvent = s.events.find((e) => e.name === 'gen_ai.tool.message')?.attrs;
      const resultEvent = s.events.find((e) => e.name === 'gen_ai.choice')?.attrs;
      yield* call(id, name, a['gen_ai.tool.call.arguments'] ?? a['input.value'] ?? a['ai.toolCall.args'] ?? a['ai.toolCall.input'] ?? a['tool.parameters'] ?? traceloopInput(a['traceloop.entity.input']) ?? argsEvent?.content ?? {});
      const eventResult = resultEvent ? (resultEvent.message ?? resultEvent.content) : undefined;
      const out = a['gen_ai.tool.call.result'] ?? a['output.value'] ?? a['ai.toolCall.result'] ?? a['ai.toolCall.output'] ?? traceloopOutput(a['traceloop.entity.output']) ?? (eventResult !== undefined ? eventText(eventResult) : undefined);
      const failed = s.status.code === 2 || s.status.code === 'STATUS_CODE_ERROR';
      if (out !== undefined) yield* result(id, asText(out), failed);
      else if (failed) yield* result(id, String(s.status.message ?? 'the tool failed'), true);
    } else if (isModelSpan(a) || hasMessageEvents(s)) {
      const vercel = VERCEL_MODEL_CALLS.test(String(a['ai.operationId']));
      const fromEvents = spanEventMessages(s.events);
      const input =
        'gen_ai.input.messages' in a ? semconvMessages(a['gen_ai.input.messages'])
        : fromEvents.input.length ? fromEvents.input
        : vercel ? vercelMessages(a['ai.prompt.messages'])
        : 'llm.input_messages.0.message.role' in a ? openInferenceMessages(a, 'input')
        : flattenedMessages(a, 'gen_ai.prompt');
      const output =
        'gen_ai.output.messages' in a ? semconvMessages(a['gen_ai.output.messages'])
        : fromEvents.output.length ? fromEvents.output
        : vercel ? [{ role: 'assistant', text: typeof a['ai.response.text'] === 'string' ? a['ai.response.text'] : '', calls: vercelCalls(a['ai.response.toolCalls']), results: [] }]
        : Object.keys(a).some((k) => k.startsWith('llm.output_messages.')) ? openInferenceMessages(a, 'output')
        : flattenedMessages(a, 'gen_ai.completion');
      for (const m of input) {
        if (!taskSeen && m.role === 'user' && m.text) {
          taskSeen = true;
          yield { kind: 'user', text: m.text, line: null };
        }
        // Results fed back to the model answer calls made in an earlier span.
        for (const r of m.results) if (calls.has(r.id)) yield* result(r.id, r.content);
      }
      // The span around a whole agent run starts first but answers last: its output is the run's
      // final answer to the person, not the reasoning before the first call.
      const agentRun = a['gen_ai.operation.name'] === 'invoke_agent' || a['openinference.span.kind'] === 'AGENT' || a['traceloop.span.kind'] === 'agent' || a['traceloop.span.kind'] === 'workflow';
      for (const m of output) {
        if (agentRun) {
          if (m.text) yield { kind: 'skip', what: `the answer on the agent span ${s.name || s.spanId}: ${m.text.split('\n')[0]!.slice(0, 80)}`, reason: "the agent's reply to the person at the end of the run, recorded on the span that wraps it; not an action on the environment", line: null };
          continue;
        }
        if (m.text) yield { kind: 'thought', text: m.text, line: null };
        for (const c of m.calls) yield* call(c.id, c.name, c.arguments);
      }
    } else other++;
  }
  if (other) yield { kind: 'skip', what: `${other} span${other === 1 ? '' : 's'} of other kinds (HTTP, database, the agent's own steps)`, reason: 'neither a model call nor a tool call by the GenAI conventions: no action or observation in them', line: null };
}

/** The OTLP envelopes of the file: one JSON document, or one per line (the collector's file exporter). */
function* envelopes(source: ImportSource): Iterable<{ doc: unknown; line: number | null } | { problem: ImportItem }> {
  const text = source.text();
  const whole = parseJsonDocument(text);
  if (!('problem' in whole)) {
    yield { doc: whole.value, line: null };
    return;
  }
  for (const line of source.lines()) {
    if (line.text.trim() === '') continue;
    const one = parseJsonDocument(line.text);
    if ('problem' in one) yield { problem: { ...one.problem, line: line.lineNo } };
    else yield { doc: one.value, line: line.lineNo };
  }
}

export const otelGenAiImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'OpenTelemetry GenAI traces (OTLP JSON)',
  detect(_name, head) {
    // OTLP logs or metrics are not traces, but they are this format's nearest kin: taken here so the
    // person is told what to export instead of that the format could not be told.
    if (/^\s*\{\s*"resource(Logs|Metrics)"\s*:/.test(head)) return 0.5;
    // A Jaeger JSON export ({"data": [{"traceID", "spans"}]}, or one trace {"traceID", "spans", "processes"}).
    if ((/^\s*\{\s*"data"\s*:\s*\[/.test(head) || /^\s*\{\s*"traceID"\s*:/.test(head)) && /"traceID"\s*:/.test(head) && /"spans"\s*:/.test(head)) return /"gen_ai\.|"openinference\.span\.kind"|"traceloop\.span\.kind"|"ai\.operationId"/.test(head) ? 0.96 : 0.8;
    const tempo = /^\s*\{\s*"(batches|trace)"\s*:/.test(head) && /"(scopeSpans|instrumentationLibrarySpans)"\s*:/.test(head);
    if (!tempo && !/^\s*\{\s*"resourceSpans"\s*:/.test(head)) return 0;
    return /"gen_ai\.|"openinference\.span\.kind"|"traceloop\.span\.kind"|"ai\.operationId"/.test(head) ? 0.96 : 0.8;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const traces = new Map<string, Span[]>();
    let spanCount = 0;
    let refused = 0;
    for (const env of envelopes(source)) {
      if ('problem' in env) {
        yield env.problem;
        continue;
      }
      // Grafana Tempo hands traces out as {"batches": [...]} (its older API) or {"trace": {"resourceSpans": [...]}}.
      const doc = env.doc;
      if (isJaegerExport(doc)) {
        for (const span of jaegerSpans(doc)) {
          spanCount++;
          const trace = traces.get(span.traceId);
          if (trace) trace.push(span);
          else traces.set(span.traceId, [span]);
        }
        continue;
      }
      const resourceSpans = !isRec(doc) ? undefined : Array.isArray(doc.resourceSpans) ? doc.resourceSpans : Array.isArray(doc.batches) ? doc.batches : isRec(doc.trace) && Array.isArray(doc.trace.resourceSpans) ? doc.trace.resourceSpans : undefined;
      if (!resourceSpans) {
        refused++;
        const other = isRec(env.doc) ? (Array.isArray(env.doc.resourceLogs) ? 'logs' : Array.isArray(env.doc.resourceMetrics) ? 'metrics' : null) : null;
        yield {
          kind: 'problem',
          line: env.line,
          field: 'resourceSpans',
          reason: other
            ? `an OpenTelemetry ${other} export, not traces: tool calls and model calls are read from spans; export the traces (the collector's file exporter writes {"resourceSpans": ...} for its traces pipeline)`
            : 'not an OTLP JSON trace export: expected {"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}',
        };
        continue;
      }
      for (const rs of resourceSpans.filter(isRec)) {
        const service = attributes(isRec(rs.resource) ? rs.resource.attributes : undefined)['service.name'];
        for (const ss of (Array.isArray(rs.scopeSpans) ? rs.scopeSpans : Array.isArray(rs.instrumentationLibrarySpans) ? rs.instrumentationLibrarySpans : []).filter(isRec)) {
          for (const sp of (Array.isArray(ss.spans) ? ss.spans : []).filter(isRec)) {
            spanCount++;
            const traceId = scalar(sp.traceId);
            let start = 0n;
            try {
              start = BigInt(String(sp.startTimeUnixNano ?? '0'));
            } catch {
              start = 0n;
            }
            const events = (Array.isArray(sp.events) ? sp.events.filter(isRec) : []).map((e) => ({ name: scalar(e.name), attrs: attributes(e.attributes) }));
            const span: Span = { traceId, spanId: scalar(sp.spanId), name: scalar(sp.name), start, attrs: attributes(sp.attributes), status: isRec(sp.status) ? sp.status : {}, events, ...(typeof service === 'string' ? { service } : {}) };
            const trace = traces.get(traceId);
            // In place: one trace may hold thousands of spans, and copying it for each would be quadratic.
            if (trace) trace.push(span);
            else traces.set(traceId, [span]);
          }
        }
      }
    }
    if (spanCount === 0) {
      // Every envelope already said why it is not traces; "no spans" would only repeat it.
      if (!refused) yield { kind: 'problem', line: null, field: 'resourceSpans', reason: 'the export holds no spans: nothing to import' };
      return;
    }
    for (const [traceId, spans] of traces) {
      spans.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
      if (!spans.some((s) => isToolSpan(s.attrs) || isModelSpan(s.attrs) || hasMessageEvents(s))) {
        yield {
          kind: 'problem',
          line: null,
          reason: `trace ${traceId}: none of its ${spans.length} span${spans.length === 1 ? '' : 's'} (${[...new Set(spans.map((s) => s.name))].slice(0, 3).join(', ')}) follows the GenAI conventions (gen_ai.operation.name chat or execute_tool, OpenInference or OpenLLMetry span kinds, the Vercel AI SDK's ai.toolCall): it records no model or tool call to import`,
        };
        continue;
      }
      const service = spans.find((s) => s.service)?.service;
      const model = spans.map((s) => s.attrs['gen_ai.request.model'] ?? s.attrs['gen_ai.response.model'] ?? s.attrs['llm.model_name'] ?? s.attrs['ai.model.id']).find((m) => typeof m === 'string') as string | undefined;
      yield* agentSessionItems(
        {
          format: FORMAT,
          file: source.name,
          agent: `traced agent${service ? ` ${service}` : ''}${model ? ` (${model})` : ''}`,
          sessionId: `trace ${traceId}`,
          sourceText: `${traceId}:${spans.map((s) => `${s.spanId}:${JSON.stringify(s.attrs)}`).join('\n')}`,
          provenance: { trace: { traceId, spans: spans.length, ...(service ? { service } : {}), ...(model ? { model } : {}) } },
        },
        traceEvents(spans),
        newId,
        now,
      );
    }
  },
};
