// Qwen Code sessions (~/.qwen/projects/<project>/chats/<session id>.jsonl): one record a line,
// {uuid, parentUuid, sessionId, timestamp, type: user|assistant|tool_result|system, subtype?,
// cwd, version, message?: a Gemini API content {role, parts}, isSidechain?, agentId?}. The
// parts are gemini-cli's: text (a `thought` part is reasoning), functionCall {id, name, args}
// from the model, functionResponse {id, name, response} in the tool_result record answering it.
// A subagent's records (isSidechain, its agentId) are a trajectory of their own. Left out, and
// said: system records (compression checkpoints, slash commands, telemetry, titles…), a
// second copy of a record (the same uuid) and the turns a /rewind took back (./rewinds.ts). ../../parsing/agent-session.ts makes the turns.
import { agentSessionItems, type AgentEvent, LeftOutTally } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { jsonRecordLines } from '../../parsing/json-lines';
import { rawValueAt } from '../../parsing/json-raw';
import { lineContentKey } from '../../parsing/content-key';
import { responseText } from '../gemini-cli/import';
import { rewoundRecords } from './rewinds';

const FORMAT = 'qwen-code';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Thread {
  events: AgentEvent[];
  source: ReturnType<typeof lineContentKey>;
  key: string | null;
  calls: number;
}

export const qwenCodeImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'Qwen Code session JSONL',
  detect(_name, head) {
    const first = head.split('\n', 1)[0]!;
    // Claude Code's records share uuid/parentUuid/sessionId; a Qwen Code record's type may be tool_result, and its message has parts.
    if (!/"uuid"\s*:/.test(first) || !/"parentUuid"\s*:/.test(first) || !/"sessionId"\s*:/.test(first)) return 0;
    if (/"type"\s*:\s*"(user|assistant|tool_result|system)"/.test(head) && /"parts"\s*:\s*\[/.test(head)) return 0.97;
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const main: Thread = { events: [], source: lineContentKey(FORMAT), key: null, calls: 0 };
    const sides = new Map<string, Thread>();
    const seen = new Set<string>();
    // What a rewind took back (./rewinds.ts): Qwen Code resumes the chain from the newest record, not the file in order.
    const rewound = rewoundRecords(source);
    const tally = new LeftOutTally();
    const leaveOut = (what: string, line: number, reason: string) => tally.add(what, line, reason);
    let sessionId: string | undefined;
    let version: string | undefined;
    let cwd: string | undefined;
    let model: string | undefined;
    for (const item of jsonRecordLines(source, 'type', 'a Qwen Code record is an object with a "type" (user, assistant, tool_result, system)')) {
      if (item.kind === 'problem') {
        yield item;
        continue;
      }
      const r = item.value;
      const line = item.lineNo;
      sessionId ??= typeof r.sessionId === 'string' ? r.sessionId : undefined;
      version ??= typeof r.version === 'string' ? r.version : undefined;
      cwd ??= typeof r.cwd === 'string' && r.cwd ? r.cwd : undefined;
      model ??= typeof r.model === 'string' ? r.model : undefined;
      const key = r.isSidechain === true ? (typeof r.agentId === 'string' ? r.agentId : 'subagent') : null;
      const thread = key === null ? main : (sides.get(key) ?? { events: [], source: lineContentKey(FORMAT), key, calls: 0 });
      if (key !== null) sides.set(key, thread);
      thread.source.add(item.text);
      if (typeof r.uuid === 'string') {
        if (seen.has(r.uuid)) {
          leaveOut('copy of a record already read (the same uuid)', line, 'Qwen Code wrote the record again; the first copy is imported');
          continue;
        }
        seen.add(r.uuid);
        const rewindAt = rewound.get(r.uuid);
        if (rewindAt !== undefined) {
          leaveOut('record a rewind took back', line, `the person rewound the conversation to before it (/rewind, line ${rewindAt}); Qwen Code no longer shows or resumes it, and the steps follow the conversation as it went on`);
          continue;
        }
      }
      if (r.type === 'system' && r.subtype === 'rewind') {
        leaveOut('rewind (/rewind)', line, 'Qwen Code marks where the person rewound the conversation; the turns it took back are left out and said, and the conversation goes on from here');
        continue;
      }
      if (r.type === 'system') {
        leaveOut(`system record (${typeof r.subtype === 'string' ? r.subtype : 'no subtype'})`, line, "Qwen Code's own bookkeeping (a compression checkpoint, a slash command, telemetry, a title), not the model or a tool");
        continue;
      }
      const parts = isRec(r.message) && Array.isArray(r.message.parts) ? r.message.parts : null;
      if (!parts) {
        yield { kind: 'problem', line, field: 'message.parts', reason: `a ${r.type} record without message parts` };
        continue;
      }
      for (const [j, p] of parts.entries()) {
        if (!isRec(p)) continue;
        if (isRec(p.functionCall)) {
          const call = p.functionCall;
          const raw = isRec(call.args) ? rawValueAt(item.text, ['message', 'parts', j, 'functionCall', 'args']) : null;
          thread.events.push({ kind: 'call', id: typeof call.id === 'string' ? call.id : `line-${line}-${j}`, name: String(call.name), arguments: call.args ?? {}, rawArguments: raw, line });
          thread.calls++;
        } else if (isRec(p.functionResponse)) {
          const res = p.functionResponse;
          const rawResponse = rawValueAt(item.text, ['message', 'parts', j, 'functionResponse', 'response']);
          const id = typeof res.id === 'string' ? res.id : '';
          if (isRec(r.toolCallResult) && r.toolCallResult.status === 'cancelled') {
            // The person (or the approval mode) cancelled the call before it ran: no step, and its reasoning leaves with it.
            const at = thread.events.findLastIndex((e) => e.kind === 'call' && e.id === id);
            let from = at;
            while (from > 0 && thread.events[from - 1]!.kind === 'thought') from--;
            if (at >= 0) thread.events.splice(from, at - from + 1);
            leaveOut('call cancelled before it ran', line, 'Qwen Code did not run it (the person cancelled or refused it); nothing ran in the environment');
            continue;
          }
          const { text, isError } = responseText(res.response, rawResponse);
          const failed = isError || (isRec(r.toolCallResult) && (r.toolCallResult.status === 'error' || r.toolCallResult.error != null));
          thread.events.push({ kind: 'result', id, content: text, ...(failed ? { isError: true } : {}), line });
        } else if (typeof p.text === 'string') {
          if (r.type === 'assistant' || p.thought === true) thread.events.push({ kind: 'thought', text: p.text, line });
          else thread.events.push({ kind: 'user', text: p.text, line });
        } else if (isRec(p.inlineData) || isRec(p.fileData)) leaveOut('file or image part', line, 'not text; Worldloom trajectories hold text');
      }
    }
    main.events.push(...tally.skips());
    const agent = `Qwen Code${version ? ` ${version}` : ''}`;
    const provenance = { qwenCode: { ...(cwd ? { cwd } : {}), ...(version ? { version } : {}), ...(model ? { model } : {}) } };
    yield* agentSessionItems({ format: FORMAT, file: source.name, agent, ...(sessionId ? { sessionId } : {}), sourceKey: main.source.key(), ...(cwd ? { setting: `Working directory: ${cwd}` } : {}), provenance }, main.events, newId, now);
    for (const side of sides.values()) {
      yield* agentSessionItems(
        { format: FORMAT, file: source.name, agent: `${agent} subagent`, ...(sessionId ? { sessionId: `${sessionId}:${side.key}` } : {}), sourceKey: side.source.key(), ...(cwd ? { setting: `Working directory: ${cwd}` } : {}), provenance: { qwenCode: { ...provenance.qwenCode, subagent: side.key } } },
        side.events,
        newId,
        now,
      );
    }
  },
};
