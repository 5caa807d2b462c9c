// GitHub Copilot CLI sessions (~/.copilot/session-state/<session id>/events.jsonl): one event a
// line, {type, data, id, timestamp, parentId, agentId?}, as the Copilot SDK's session-events
// schema describes them. `session.start` names the session, the CLI's version and the working
// folder (data.context.cwd); `user.message` {content, source?} is the person (source `system`: the
// harness); `assistant.reasoning` {content} and `assistant.message` {content, reasoningText?,
// toolRequests: [{toolCallId, name, arguments}]} are the model; `tool.execution_start` {toolCallId,
// toolName, arguments} is a call running; `tool.execution_complete` {toolCallId, success,
// result: {content (what the model was given), detailedContent?}, error?: {message}} answers it.
// Events carrying `agentId` (earlier: data.parentToolCallId) are a sub-agent's: a trajectory of
// their own. Left out, and said: every other event kind (turns, usage, permissions, compaction…),
// the harness's messages, `report_intent` calls, calls the person ran themselves.
import { agentSessionItems, type AgentEvent, LeftOutTally } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { jsonRecordLines } from '../../parsing/json-lines';
import { rawValueAt } from '../../parsing/json-raw';
import { lineContentKey } from '../../parsing/content-key';

const FORMAT = 'copilot-cli';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Copilot CLI's tool for telling the person what it is doing: it changes nothing. */
const OWN_TOOLS = new Set(['report_intent']);

interface Thread {
  events: AgentEvent[];
  source: ReturnType<typeof lineContentKey>;
  key: string | null;
  calls: Set<string>;
  /** Reasoning already said, by text: it may come both on the message and as its own event, in either order. */
  reasoningSaid: Set<string>;
}

export const copilotCliImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'GitHub Copilot CLI session events.jsonl',
  detect(_name, head) {
    const first = head.split('\n', 1)[0]!;
    if (/"type"\s*:\s*"session\.(start|resume)"/.test(first) && /"data"\s*:/.test(first)) return 0.97;
    // A file cut from a longer log: the event envelope and Copilot's own event kinds.
    if (/"type"\s*:\s*"(user\.message|assistant\.(message|turn_start)|tool\.execution_(start|complete))"/.test(first) && /"parentId"\s*:/.test(first)) return 0.9;
    // `copilot -p … --output-format json` prints the same events, led by ephemeral ones (MCP server
    // status, skills loaded, tools updated) before any session or message event: the envelope (a
    // dotted kind, a data object, a parentId) and one of Copilot's message or tool kinds further on.
    if (/^\{"type"\s*:\s*"[a-z_]+(\.[a-z_]+)+"\s*,\s*"data"\s*:/.test(first) && /"parentId"\s*:/.test(first) &&
      /"type"\s*:\s*"(user\.message|assistant\.message|tool\.execution_complete|session\.(start|resume))"/.test(head)) return 0.85;
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const thread = (key: string | null): Thread => ({ events: [], source: lineContentKey(FORMAT), key, calls: new Set(), reasoningSaid: new Set() });
    const main = thread(null);
    const subs = new Map<string, Thread>();
    const ownCalls = new Set<string>();
    const tally = new LeftOutTally();
    const leaveOut = (what: string, line: number, reason: string) => tally.add(what, line, reason);
    let sessionId: string | undefined;
    let version: string | undefined;
    let cwd: string | undefined;
    let model: string | undefined;
    const shape = 'a Copilot CLI event is an object with a "type" and a "data" object';
    for (const item of jsonRecordLines(source, 'type', shape)) {
      if (item.kind === 'problem') {
        yield item;
        continue;
      }
      const r = item.value;
      const line = item.lineNo;
      if (!isRec(r.data)) {
        yield { kind: 'problem', line, field: 'data', reason: shape };
        continue;
      }
      const d = r.data;
      const key = str(r.agentId) ?? str(d.parentToolCallId) ?? null;
      const t = key === null ? main : (subs.get(key) ?? thread(key));
      if (key !== null) subs.set(key, t);
      t.source.add(item.text);
      switch (r.type) {
        case 'session.start':
        case 'session.resume':
          sessionId ??= str(d.sessionId);
          version ??= str(d.copilotVersion);
          cwd ??= isRec(d.context) ? str(d.context.cwd) : undefined;
          break;
        case 'session.model_change':
          model ??= str(d.newModel);
          break;
        case 'user.message': {
          const content = str(d.content) ?? '';
          if (d.source === 'system') leaveOut('harness message (user.message from the system)', line, 'Copilot CLI wrote it for the model, not the person');
          else if (content.trim() !== '') t.events.push({ kind: 'user', text: content, line });
          break;
        }
        case 'assistant.reasoning': {
          // The JSON output prints this (ephemeral) event after the message that carries the same text.
          const text = str(d.content);
          if (text && !t.reasoningSaid.has(text)) {
            t.reasoningSaid.add(text);
            t.events.push({ kind: 'thought', text, line });
          }
          break;
        }
        case 'assistant.message': {
          const reasoning = str(d.reasoningText);
          // The reasoning may also come as its own assistant.reasoning event, before or after: it is said once.
          if (reasoning && !t.reasoningSaid.has(reasoning)) {
            t.reasoningSaid.add(reasoning);
            t.events.push({ kind: 'thought', text: reasoning, line });
          }
          const content = str(d.content);
          if (content && content.trim() !== '') t.events.push({ kind: 'thought', text: content, line });
          for (const [j, c] of (Array.isArray(d.toolRequests) ? d.toolRequests : []).entries()) {
            if (!isRec(c) || typeof c.toolCallId !== 'string' || typeof c.name !== 'string') {
              yield { kind: 'problem', line, field: `data.toolRequests[${j}]`, reason: 'a tool request without toolCallId or name' };
              continue;
            }
            if (OWN_TOOLS.has(c.name)) {
              ownCalls.add(c.toolCallId);
              leaveOut(`${c.name} call`, line, 'Copilot CLI telling the person what it is doing; nothing ran in the environment');
              continue;
            }
            const raw = isRec(c.arguments) ? rawValueAt(item.text, ['data', 'toolRequests', j, 'arguments']) : null;
            t.events.push({ kind: 'call', id: c.toolCallId, name: c.name, arguments: c.arguments ?? {}, rawArguments: raw, line });
            t.calls.add(c.toolCallId);
          }
          break;
        }
        case 'tool.execution_start': {
          const id = str(d.toolCallId);
          const name = str(d.toolName);
          if (!id || !name || t.calls.has(id) || ownCalls.has(id)) break;
          if (OWN_TOOLS.has(name)) {
            ownCalls.add(id);
            leaveOut(`${name} call`, line, 'Copilot CLI telling the person what it is doing; nothing ran in the environment');
            break;
          }
          // A call no assistant message asked for (an earlier version's log): the call as it ran.
          const raw = isRec(d.arguments) ? rawValueAt(item.text, ['data', 'arguments']) : null;
          t.events.push({ kind: 'call', id, name, arguments: d.arguments ?? {}, rawArguments: raw, line });
          t.calls.add(id);
          break;
        }
        case 'tool.execution_complete': {
          const id = str(d.toolCallId) ?? '';
          if (ownCalls.has(id)) break;
          if (d.isUserRequested === true && !t.calls.has(id)) {
            leaveOut('command the person ran', line, 'the person ran it, not the agent');
            break;
          }
          if (d.success === false || isRec(d.error)) {
            const message = isRec(d.error) ? (str(d.error.message) ?? JSON.stringify(d.error)) : (isRec(d.result) ? str(d.result.content) : undefined) ?? 'failed (no message)';
            t.events.push({ kind: 'result', id, content: message, isError: true, line });
          } else {
            // result.content is what the model was given; detailedContent is the fuller text shown to the person.
            const content = isRec(d.result) ? (str(d.result.content) ?? str(d.result.detailedContent) ?? '') : '';
            t.events.push({ kind: 'result', id, content, line });
          }
          break;
        }
        default:
          leaveOut(`${r.type} event`, line, "Copilot CLI's record of the session (turns, usage, permissions, progress), not the model or a tool");
      }
    }
    main.events.push(...tally.skips());
    const agent = `GitHub Copilot CLI${version ? ` ${version}` : ''}`;
    const provenance = { copilotCli: { ...(cwd ? { cwd } : {}), ...(version ? { version } : {}), ...(model ? { model } : {}) } };
    const setting = cwd ? { setting: `Working directory: ${cwd}` } : {};
    yield* agentSessionItems({ format: FORMAT, file: source.name, agent, ...(sessionId ? { sessionId } : {}), sourceKey: main.source.key(), ...setting, provenance }, main.events, newId, now);
    for (const sub of subs.values()) {
      yield* agentSessionItems(
        { format: FORMAT, file: source.name, agent: `${agent} sub-agent`, ...(sessionId ? { sessionId: `${sessionId}:${sub.key}` } : {}), sourceKey: sub.source.key(), ...setting, provenance: { copilotCli: { ...provenance.copilotCli, subagent: sub.key } } },
        sub.events,
        newId,
        now,
      );
    }
  },
};
