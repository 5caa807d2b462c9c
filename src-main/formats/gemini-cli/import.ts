// gemini-cli sessions. Two layouts are read:
// - the chat recording (~/.gemini/tmp/<project>/chats/session-*.json): {sessionId,
//   projectHash, startTime, messages: [{type: user|gemini|info|error, content, thoughts,
//   toolCalls: [{id, name, args, result: [{functionResponse: {id, name, response}}],
//   status, resultDisplay}]}]}: each tool call carries its own result;
// - a saved chat (`/chat save`, checkpoint-*.json): a list of Gemini API contents
//   [{role: user|model, parts: [{text} | {functionCall: {id?, name, args}} |
//   {functionResponse: {id?, name, response}}]}], a response answering the call with its id
//   (or, without ids, the oldest open call of its name); since 0.16 wrapped as {history, authType};
//   a /restore checkpoint ({history, clientHistory, toolCall, commitHash}) holds the same list as
//   clientHistory, up to the call it was taken before;
// - the session log of gemini-cli 0.39 and later (chats/session-*.jsonl), one JSON value per
//   line: a metadata line {sessionId, projectHash, startTime, kind}, then message records as
//   above, appended again whole each time one changes (tokens and tool results arrive later:
//   the last copy of an id wins, its first line fixes its place), `{"$set": {...}}` updates
//   (a `messages` list there is gemini-cli rewriting its history after compressing or masking
//   it) and `{"$rewindTo": id}` when the person rewinds (/rewind) to before that message.
// - headless output (`gemini -p … --output-format stream-json`), an event a line: init,
//   message, tool_use, tool_result, error, result (./import.ts streamJson).
// ../../parsing/agent-session.ts makes the turns. Left out, and said: the app's info, warning and error
// notes, calls cancelled before they ran, messages a rewind took back (what follows continues
// from before them, as gemini-cli resumes the session) and turns a history rewrite made up (a
// compression summary). A rewrite's masked copy of a message never replaces what it first said.
import { agentAction, agentSessionItems, type AgentEvent } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource, SourceLine } from '../../parsing/sources';
import { jsonDocument, parseJsonDocument } from '../../parsing/json-document';
import { prettyRaw, rawItemsAt, rawValueAt } from '../../parsing/json-raw';

const FORMAT = 'gemini-cli';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A function response's payload as text: its `output` (or `error`) when that is all it says, else the JSON. */
export function responseText(response: unknown, raw: string | null = null): { text: string; isError?: boolean } {
  if (isRec(response)) {
    const keys = Object.keys(response);
    if (keys.length === 1 && typeof response.output === 'string') return { text: response.output };
    if (keys.length === 1 && typeof response.error === 'string') return { text: response.error, isError: true };
  }
  // Any other payload as JSON, laid out from the file's own text when known (numbers as written).
  return { text: typeof response === 'string' ? response : raw ? prettyRaw(raw) : JSON.stringify(response, null, 2) };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (isRec(p) && typeof p.text === 'string' ? p.text : typeof p === 'string' ? p : '')).join('\n');
  return '';
}

/**
 * `rawMessages`: each message's JSON text as the file wrote it (by index), when known, so a
 * call's arguments stay as written in the action (`2.0` stays `2.0`).
 */
function* recordingEvents(doc: Rec, rawMessages: readonly (string | null)[] | null): Iterable<AgentEvent> {
  const messages = Array.isArray(doc.messages) ? doc.messages : [];
  for (const [i, m] of messages.entries()) {
    if (!isRec(m)) continue;
    if (m.type === 'user') {
      const text = contentText(m.content);
      if (/^\s*\//.test(text)) yield { kind: 'skip', what: `messages.${i} (a slash command: ${text.trim().split('\n')[0]})`, reason: "one of gemini-cli's own commands; the app answered it, not the environment", line: null };
      else yield { kind: 'user', text, line: null };
    } else if (m.type === 'gemini') {
      const thoughts = Array.isArray(m.thoughts) ? m.thoughts.filter(isRec).map((t) => [t.subject, t.description].filter((s) => typeof s === 'string' && s).join(': ')) : [];
      const text = [...thoughts, contentText(m.content)].filter(Boolean).join('\n\n');
      if (text) yield { kind: 'thought', text, line: null };
      const rawCalls = rawMessages?.[i] ? rawItemsAt(rawMessages[i], ['toolCalls']) : null;
      for (const [j, call] of (Array.isArray(m.toolCalls) ? m.toolCalls : []).entries()) {
        if (!isRec(call)) continue;
        const id = String(call.id ?? `${i}:${String(call.name)}`);
        const raw = rawCalls?.[j] && isRec(call.args) ? rawValueAt(rawCalls[j], ['args']) : null;
        // A call cancelled before it ran (the person declined it, or stopped the turn) carries the
        // CLI's own "[Operation Cancelled]" note as its result: nothing ran, so it is no step.
        if (call.status === 'cancelled') {
          yield { kind: 'skip', what: `the call ${agentAction(String(call.name), call.args ?? {}, raw).split('\n')[0]!.slice(0, 100)}`, reason: 'it was cancelled before it ran (the person declined it or stopped the turn), so nothing answered it', line: null };
          continue;
        }
        yield { kind: 'call', id, name: String(call.name), arguments: call.args ?? {}, rawArguments: raw, line: null };
        // The result is a part list as the model was given it: a string, one part, or a list of
        // them (the function response, then any text or file the tool added).
        const resultParts: unknown[] = Array.isArray(call.result) ? call.result : typeof call.result === 'string' ? [{ text: call.result }] : isRec(call.result) ? [call.result] : [];
        const rawResults = rawCalls?.[j] && Array.isArray(call.result) ? rawItemsAt(rawCalls[j], ['result']) : null;
        const responses = resultParts.flatMap((r, k) => {
          if (isRec(r) && isRec(r.functionResponse)) return [{ response: r.functionResponse.response, raw: rawResults?.[k] ? rawValueAt(rawResults[k], ['functionResponse', 'response']) : null }];
          if (isRec(r) && typeof r.text === 'string') return [{ response: r.text, raw: null }];
          return [];
        });
        for (const r of resultParts) {
          const data = isRec(r) ? (isRec(r.inlineData) ? r.inlineData : isRec(r.fileData) ? r.fileData : null) : null;
          if (data) yield { kind: 'skip', what: `a file (${typeof data.mimeType === 'string' ? data.mimeType : 'binary'}) the tool ${String(call.name)} returned (call ${id})`, reason: 'it is not text; the observation keeps the text the tool returned with it', line: null };
        }
        if (responses.length) {
          const parts = responses.map((r) => responseText(r.response, r.raw));
          yield { kind: 'result', id, content: parts.map((p) => p.text).join('\n'), ...(parts.some((p) => p.isError) || call.status === 'error' ? { isError: true } : {}), line: null };
        } else if (typeof call.resultDisplay === 'string' && call.status !== 'cancelled') {
          yield { kind: 'result', id, content: call.resultDisplay, ...(call.status === 'error' ? { isError: true } : {}), line: null };
        }
      }
    } else {
      yield { kind: 'skip', what: `messages.${i} (${typeof m.type === 'string' ? `a ${m.type}` : 'an untyped'} note: ${contentText(m.content).split('\n')[0]!.slice(0, 80)})`, reason: 'the app wrote it for the person (info, a warning, an error), not the model or a tool', line: null };
    }
  }
}

function* contentsEvents(contents: unknown[], text: string, at: readonly string[]): Iterable<AgentEvent> {
  const open = new Map<string, string[]>();
  let n = 0;
  const rawContents = rawItemsAt(text, at);
  for (const [i, c] of contents.entries()) {
    if (!isRec(c) || !Array.isArray(c.parts)) continue;
    const rawParts = rawContents?.[i] ? rawItemsAt(rawContents[i], ['parts']) : null;
    for (const [j, p] of c.parts.entries()) {
      if (!isRec(p)) continue;
      if (isRec(p.functionCall)) {
        const name = String(p.functionCall.name);
        const id = typeof p.functionCall.id === 'string' ? p.functionCall.id : `call-${++n}`;
        open.set(name, [...(open.get(name) ?? []), id]);
        const raw = rawParts?.[j] && isRec(p.functionCall.args) ? rawValueAt(rawParts[j], ['functionCall', 'args']) : null;
        yield { kind: 'call', id, name, arguments: p.functionCall.args ?? {}, rawArguments: raw, line: null };
      } else if (isRec(p.functionResponse)) {
        const name = String(p.functionResponse.name);
        const id = typeof p.functionResponse.id === 'string' ? p.functionResponse.id : (open.get(name)?.shift() ?? `unmatched-${name}`);
        const { text, isError } = responseText(p.functionResponse.response, rawParts?.[j] ? rawValueAt(rawParts[j], ['functionResponse', 'response']) : null);
        yield { kind: 'result', id, content: text, ...(isError ? { isError } : {}), line: null };
      } else if (typeof p.text === 'string') {
        if (c.role === 'model') yield { kind: 'thought', text: p.text, line: null };
        else yield { kind: 'user', text: p.text, line: null };
      }
    }
  }
}

const firstWords = (m: Rec) => contentText(m.content).trim().split('\n')[0]!.slice(0, 80);

/**
 * The JSON objects of a file written one per line, each with its line; a line that is not
 * JSON, or an object `fits` refuses, comes back as a problem saying `unfit`.
 */
function* objectLines(
  source: ImportSource,
  fits: (record: Rec) => boolean,
  unfit: string,
): Generator<Extract<ImportItem, { kind: 'problem' }> | { kind: 'record'; line: SourceLine; value: Rec }> {
  for (const line of source.lines()) {
    if (line.text.trim() === '') continue;
    const parsed = parseJsonDocument(line.text);
    if ('problem' in parsed) yield { ...parsed.problem, line: line.lineNo };
    else if (!isRec(parsed.value) || !fits(parsed.value)) yield { kind: 'problem', line: line.lineNo, reason: unfit };
    else yield { kind: 'record', line, value: parsed.value };
  }
}

/**
 * A session log (.jsonl) read the way gemini-cli resumes it: each message's last copy in the
 * place of its first, a rewind dropping the messages from its target on. What was dropped,
 * and lines that are not JSON, come back as events and problems.
 */
function* sessionLog(source: ImportSource): Generator<ImportItem, { doc: Rec; rawMessages: (string | null)[]; dropped: AgentEvent[] }, undefined> {
  let meta: Rec = {};
  const messages = new Map<string, Rec>();
  // Each message's text as written, from the line whose copy gave it its tool calls.
  const raws = new Map<string, string>();
  const dropped: AgentEvent[] = [];
  for (const item of objectLines(source, () => true, 'not a gemini-cli session record: expected a JSON object on each line')) {
    if (item.kind === 'problem') {
      yield item;
      continue;
    }
    const { line, value: r } = item;
    if (typeof r.$rewindTo === 'string') {
      const ids = [...messages.keys()];
      const at = ids.indexOf(r.$rewindTo);
      // gemini-cli empties the session when the target is gone; so does this reading.
      for (const id of ids.slice(at < 0 ? 0 : at)) {
        const m = messages.get(id)!;
        const calls = Array.isArray(m.toolCalls) ? m.toolCalls.length : 0;
        dropped.push({
          kind: 'skip',
          what: `message ${id} (${typeof m.type === 'string' ? m.type : 'untyped'}${calls ? `, ${calls} tool call${calls === 1 ? '' : 's'}` : ''}: ${firstWords(m) || '(no text)'})`,
          reason: `the person rewound the session to before it (line ${line.lineNo}); gemini-cli dropped it, and what follows continues from before it`,
          line: line.lineNo,
        });
        messages.delete(id);
      }
    } else if (isRec(r.$set)) {
      const { messages: rewritten, ...rest } = r.$set;
      meta = { ...meta, ...rest };
      // A history rewrite (compression, masking of long tool output): the messages already read
      // keep what they said; a turn the rewrite made up (a summary) is said, not imported.
      for (const m of Array.isArray(rewritten) ? rewritten.filter(isRec) : []) {
        if (typeof m.id === 'string' && messages.has(m.id)) continue;
        dropped.push({ kind: 'skip', what: `message ${String(m.id)} (${String(m.type)}: ${firstWords(m) || '(no text)'})`, reason: `gemini-cli wrote it when it rewrote its history (line ${line.lineNo}), a summary of earlier turns rather than something said or run`, line: line.lineNo });
      }
    } else if (typeof r.id === 'string' && typeof r.type === 'string') {
      const earlier = messages.get(r.id);
      messages.set(r.id, earlier ? { ...earlier, ...r } : r);
      if ('toolCalls' in r || !raws.has(r.id)) raws.set(r.id, line.text);
    } else if (typeof r.sessionId === 'string') {
      // The metadata line; an older session migrated into a log may carry its messages here too.
      const { messages: list, ...rest } = r;
      meta = { ...meta, ...rest };
      const rawList = Array.isArray(list) ? rawItemsAt(line.text, ['messages']) : null;
      for (const [k, m] of (Array.isArray(list) ? list : []).entries()) {
        if (!isRec(m) || typeof m.id !== 'string') continue;
        messages.set(m.id, m);
        if (rawList?.[k]) raws.set(m.id, rawList[k]);
      }
    } else {
      yield { kind: 'problem', line: line.lineNo, reason: `not a gemini-cli session record: a line with neither a message id and type, nor $set, $rewindTo or sessionId (keys: ${Object.keys(r).slice(0, 5).join(', ')})` };
    }
  }
  return { doc: { ...meta, messages: [...messages.values()] }, rawMessages: [...messages.keys()].map((id) => raws.get(id) ?? null), dropped };
}

/** The first line of headless output (`gemini -p … --output-format stream-json`): {type: "init", session_id, model}. */
const STREAM_INIT = /^\s*\{[^\n]*"type"\s*:\s*"init"[^\n]*"session_id"\s*:/;

/**
 * Headless output, an event a line: init, message (the person's prompt; the model's text in
 * `delta` pieces), tool_use {tool_id, tool_name, parameters}, tool_result {tool_id, status,
 * output | error}, error (a warning or a stop), result (the run's end and its token counts).
 */
function* streamJson(source: ImportSource): Generator<ImportItem, { events: AgentEvent[]; sessionId?: string; model?: string }, undefined> {
  const events: AgentEvent[] = [];
  let sessionId: string | undefined;
  let model: string | undefined;
  let said = '';
  const flush = () => {
    if (said.trim()) events.push({ kind: 'thought', text: said, line: null });
    said = '';
  };
  for (const item of objectLines(source, (e) => typeof e.type === 'string', 'not a gemini-cli stream-json event: expected an object with a "type" on each line')) {
    if (item.kind === 'problem') {
      yield item;
      continue;
    }
    const { line, value: e } = item;
    if (e.type === 'init') {
      sessionId ??= typeof e.session_id === 'string' ? e.session_id : undefined;
      model ??= typeof e.model === 'string' ? e.model : undefined;
    } else if (e.type === 'message' && e.role === 'assistant') said += typeof e.content === 'string' ? e.content : '';
    else if (e.type === 'message') {
      flush();
      events.push({ kind: 'user', text: typeof e.content === 'string' ? e.content : contentText(e.content), line: line.lineNo });
    } else if (e.type === 'tool_use') {
      flush();
      const raw = isRec(e.parameters) ? rawValueAt(line.text, ['parameters']) : null;
      events.push({ kind: 'call', id: String(e.tool_id), name: String(e.tool_name), arguments: e.parameters ?? {}, rawArguments: raw, line: line.lineNo });
    } else if (e.type === 'tool_result') {
      const error = isRec(e.error) ? e.error : null;
      const failed = e.status === 'error' || error !== null;
      const content = typeof e.output === 'string' && e.output ? e.output : error ? `${typeof error.type === 'string' ? `${error.type}: ` : ''}${String(error.message ?? '')}` : '';
      events.push({ kind: 'result', id: String(e.tool_id), content, ...(failed ? { isError: true } : {}), line: line.lineNo });
    } else if (e.type === 'error') {
      flush();
      events.push({ kind: 'skip', what: `a ${typeof e.severity === 'string' ? e.severity : 'error'} from gemini-cli: ${String(e.message ?? '')}`, reason: 'the app wrote it about the run (a loop, a turn limit), not the model or a tool', line: line.lineNo });
    } else if (e.type === 'result') flush();
    else yield { kind: 'problem', line: line.lineNo, reason: `a stream-json event of a type this reader does not know: ${JSON.stringify(e.type)}` };
  }
  flush();
  return { events, ...(sessionId ? { sessionId } : {}), ...(model ? { model } : {}) };
}

export const geminiCliImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'gemini-cli session',
  detect(_name, head) {
    if (/"sessionId"\s*:/.test(head) && /"projectHash"\s*:/.test(head) && /"messages"\s*:/.test(head)) return 0.95;
    // The session log: a metadata line naming the session and the project, then records.
    const first = head.split('\n', 1)[0]!;
    if (/^\s*\{/.test(first) && /"sessionId"\s*:/.test(first) && /"projectHash"\s*:/.test(first)) return 0.95;
    if (/^\s*\[\s*\{\s*"role"\s*:\s*"(user|model)"\s*,\s*"parts"\s*:/.test(head)) return 0.85;
    if (STREAM_INIT.test(head)) return 0.9;
    // A saved chat since 0.16 ({history, authType}), and a /restore checkpoint ({history, clientHistory, toolCall, commitHash}).
    if (/^\s*\{\s*"history"\s*:\s*\[\s*\{\s*"role"\s*:\s*"(user|model)"\s*,\s*"parts"\s*:/.test(head)) return 0.85;
    if (/"clientHistory"\s*:\s*\[/.test(head) && /"toolCall"\s*:/.test(head)) return 0.8;
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const text = source.text();
    // One JSON document (a chat recording before 0.39, a saved chat), else the session log, a record a line.
    let value: unknown;
    let dropped: AgentEvent[] = [];
    let rawMessages: (string | null)[] | null = null;
    // A log's first line is a whole object with another record after it; a document's first line is
    // `{` or `[` alone (pretty-printed) or the whole document.
    if (STREAM_INIT.test(text.slice(0, 4096))) {
      const run = yield* streamJson(source);
      yield* agentSessionItems(
        { format: FORMAT, file: source.name, agent: 'gemini-cli (headless)', ...(run.sessionId ? { sessionId: run.sessionId } : {}), sourceText: text, ...(run.model ? { provenance: { geminiCli: { model: run.model } } } : {}) },
        run.events,
        newId,
        now,
      );
      return;
    }
    const isLog = /^\s*\{[^\n]*\}[ \t\r]*\n\s*\{/.test(text);
    if (isLog) ({ doc: value, rawMessages, dropped } = yield* sessionLog(source));
    else {
      value = yield* jsonDocument(text);
      if (value === undefined) return;
    }
    let events: Iterable<AgentEvent>;
    let sessionId: string | undefined;
    let model: string | undefined;
    if (isRec(value) && Array.isArray(value.messages)) {
      events = [...dropped, ...recordingEvents(value, isLog ? rawMessages : rawItemsAt(text, ['messages']))];
      sessionId = typeof value.sessionId === 'string' ? value.sessionId : undefined;
      const first = value.messages.find((m) => isRec(m) && typeof m.model === 'string') as Rec | undefined;
      model = first?.model as string | undefined;
    } else if (Array.isArray(value) && value.every((c) => isRec(c) && Array.isArray(c.parts))) events = contentsEvents(value, text, []);
    else if (isRec(value) && Array.isArray(value.history) && value.history.every((c) => isRec(c) && Array.isArray(c.parts))) events = contentsEvents(value.history, text, ['history']);
    else if (isRec(value) && Array.isArray(value.clientHistory)) events = contentsEvents(value.clientHistory, text, ['clientHistory']);
    else {
      yield {
        kind: 'problem',
        line: null,
        field: 'messages',
        reason: 'not a gemini-cli session: expected a chat recording {sessionId, projectHash, messages: [...]}, a session log (one record a line), or a saved chat [{role, parts: [...]}] / {history: [...]}',
      };
      return;
    }
    yield* agentSessionItems(
      { format: FORMAT, file: source.name, agent: 'gemini-cli', ...(sessionId ? { sessionId } : {}), sourceText: text, ...(model ? { provenance: { geminiCli: { model } } } : {}) },
      events,
      newId,
      now,
    );
  },
};
