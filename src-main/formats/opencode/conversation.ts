// opencode sessions as trajectories. However opencode kept a session (its JSON storage before
// 1.2, its opencode.db from 1.2, an `opencode export` document), it is read into the same lines
// (./records.ts): the session's info, then each message's info followed by its parts, in the
// order opencode reads them back. This pairs what each tool part says, its input and its
// state's output (or error), into calls and results (../../parsing/agent-session.ts). Every
// session is its own trajectory: a sub-agent's (the `task` tool starts one, with a parentID)
// too. A session the person reverted (/undo) keeps what opencode shows: the undone messages and
// parts are said, not imported. What opencode wrote for itself (step markers, snapshots,
// patches, synthetic text, retries) is said too.
import { agentSessionItems, type AgentEvent, LeftOutTally } from '../../parsing/agent-session';
import { lineContentKey } from '../../parsing/content-key';
import type { IdFactory, ImportItem } from '../../parsing/import-item';
import { jsonLines } from '../../parsing/json-lines';
import type { ImportSource } from '../../parsing/sources';
import { isRec, type Rec } from './records';

/** Tools opencode answers itself: nothing runs in the environment. */
const OWN_TOOLS: Record<string, string> = {
  question: 'opencode asked the person a question and gave the model their answer; nothing ran in the environment',
  plan_exit: 'the agent asked opencode to leave plan mode; nothing ran in the environment',
  invalid: 'opencode stood in for a call whose arguments did not fit the tool: it told the model so, and nothing ran',
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The ids from which a reverted session is undone: opencode hides them, and drops them at the next prompt. */
interface Reverted {
  messageID: string;
  partID?: string;
}

class SessionReader {
  readonly events: AgentEvent[] = [];
  readonly tally = new LeftOutTally();
  readonly problems: ImportItem[] = [];
  readonly key = lineContentKey('opencode');
  messages = 0;
  private role: string | null = null;
  private messageID: string | null = null;
  private userText: string[] = [];
  private userLine: number | null = null;
  private readonly reverted: Reverted | null;
  /** The current message is the summary opencode had the model write when it compacted the conversation. */
  private summary = false;

  constructor(readonly info: Rec) {
    const r = isRec(info.revert) ? info.revert : null;
    this.reverted = r && str(r.messageID) ? { messageID: String(r.messageID), ...(str(r.partID) ? { partID: String(r.partID) } : {}) } : null;
  }

  private isUndone(messageID: string, partID?: string): boolean {
    const r = this.reverted;
    if (!r) return false;
    if (messageID > r.messageID) return true;
    if (messageID < r.messageID) return false;
    return r.partID === undefined || (partID !== undefined && partID >= r.partID);
  }

  private flushUser(): void {
    if (this.userText.length) this.events.push({ kind: 'user', text: this.userText.join('\n\n'), line: this.userLine });
    this.userText = [];
  }

  message(m: Rec, line: number): void {
    this.flushUser();
    this.messages++;
    this.role = typeof m.role === 'string' ? m.role : null;
    this.messageID = str(m.id) ?? null;
    this.userLine = line;
    this.summary = this.role === 'assistant' && m.summary === true;
    // An undone message is said by its parts.
    if (this.messageID && this.isUndone(this.messageID)) return;
    if (this.role === 'assistant' && isRec(m.error)) {
      this.tally.add(`model reply that ended in an error (${str(m.error.name) ?? 'unnamed'})`, line, 'the call to the model failed or was stopped (opencode kept what came before); its tool calls that ran are imported');
    }
  }

  part(p: Rec, line: number): void {
    const type = typeof p.type === 'string' ? p.type : '';
    const messageID = str(p.messageID) ?? this.messageID ?? '';
    if (this.isUndone(messageID, str(p.id))) {
      this.tally.add('part the person undid (/undo)', line, 'the person reverted the session to before it: opencode hides it and drops it at the next prompt, so it is not part of the session');
      return;
    }
    if (this.role === 'user') this.userPart(p, type, line);
    else if (this.role === 'assistant') this.assistantPart(p, type, line);
    else this.tally.add(`part of a ${this.role ?? 'role-less'} message`, line, 'opencode writes parts to user and assistant messages only');
  }

  private userPart(p: Rec, type: string, line: number): void {
    if (type === 'text') {
      const text = typeof p.text === 'string' ? p.text : '';
      if (p.synthetic === true) this.tally.add("text opencode added to the person's message (synthetic)", line, 'opencode wrote it for the model (a file the person attached, read for them, or an instruction), not the person');
      else if (p.ignored === true) this.tally.add('text opencode marked ignored', line, 'opencode does not send it to the model');
      else if (text.trim() !== '') this.userText.push(text);
    } else if (type === 'file') this.tally.add('file attached to a message', line, `the person attached ${str(p.filename) ?? str(p.mime) ?? 'a file'}; Worldloom trajectories hold text (a text file's content, when opencode read it, is a synthetic part)`);
    else if (type === 'agent') this.tally.add('@agent mention', line, 'the person named a sub-agent; what it did is its own session, imported as its own trajectory');
    else if (type === 'subtask') this.tally.add('sub-agent task the person started', line, 'it ran as its own session, imported as its own trajectory');
    else if (type === 'compaction') this.tally.add('compaction request', line, "opencode's marker that it summarised the conversation so far; the summary is the next assistant message");
    else this.tally.add(`${type || 'untyped'} part of a user message`, line, 'not text the person wrote');
  }

  private assistantPart(p: Rec, type: string, line: number): void {
    if (type === 'reasoning' || type === 'text') {
      const text = typeof p.text === 'string' ? p.text : '';
      if (this.summary) this.tally.add('summary opencode had the model write when it compacted the conversation', line, "a summary of the session so far for the model's next turns, not an action");
      else if (text.trim() !== '') this.events.push({ kind: 'thought', text, line });
    } else if (type === 'tool') this.toolPart(p, line);
    else if (type === 'step-start' || type === 'step-finish') this.tally.add(`${type} marker`, line, "opencode's bookkeeping around each call to the model (a snapshot of the files, tokens, cost), not a tool call");
    else if (type === 'snapshot' || type === 'patch') this.tally.add(`${type} record`, line, "opencode's record of the files a step changed (a git snapshot), not a tool call; the calls that changed them are imported");
    else if (type === 'retry') this.tally.add('retry record', line, 'the model API failed and opencode asked again; the answer it got is imported');
    else if (type === 'agent' || type === 'subtask' || type === 'compaction' || type === 'file') this.tally.add(`${type} part of an assistant message`, line, 'not a tool call or its result');
    else this.tally.add(`${type || 'untyped'} part`, line, 'a part opencode writes that is not a tool call, its result or the text around it');
  }

  private toolPart(p: Rec, line: number): void {
    const name = str(p.tool) ?? '';
    const state = isRec(p.state) ? p.state : null;
    const id = str(p.callID) ?? str(p.id) ?? `line-${line}`;
    if (!name || !state) {
      this.problems.push({ kind: 'problem', line, field: 'tool', reason: 'a tool part without its tool name or state' });
      return;
    }
    if (OWN_TOOLS[name]) {
      this.tally.add(`${name} call`, line, OWN_TOOLS[name]);
      return;
    }
    const input = isRec(state.input) ? state.input : {};
    // A shell call's other arguments (its folder, timeout, description) are part of the call as written.
    const wholeCall = /^(bash|shell)$/.test(name) && Object.keys(input).some((k) => k !== 'command');
    this.events.push({ kind: 'call', id, name, arguments: input, wholeCall, line });
    if (state.status === 'completed') {
      if (Array.isArray(state.attachments) && state.attachments.length) this.tally.add('file attached to a tool result', line, 'an image or file the tool gave the model beside its text; Worldloom trajectories hold text');
      this.events.push({ kind: 'result', id, content: typeof state.output === 'string' ? state.output : JSON.stringify(state.output ?? ''), line });
    } else if (state.status === 'error') {
      // A call the person interrupted keeps what it printed until then, which is what opencode gives the model.
      const metadata = isRec(state.metadata) ? state.metadata : {};
      const interrupted = metadata.interrupted === true && typeof metadata.output === 'string' ? metadata.output : null;
      this.events.push({ kind: 'result', id, content: interrupted ?? (typeof state.error === 'string' ? state.error : JSON.stringify(state.error ?? '')), isError: true, line });
    }
    // pending or running: the call stays unanswered, and is said so.
  }

  finish(): AgentEvent[] {
    this.flushUser();
    return [...this.events, ...this.tally.skips()];
  }
}

/** Every session in the lines, each its own trajectory. */
export function* opencodeSessionItems(source: ImportSource, format: string, newId: IdFactory, now: string): Iterable<ImportItem> {
  let reader: SessionReader | null = null;
  function* finish(): Iterable<ImportItem> {
    if (!reader) return;
    const r = reader;
    reader = null;
    yield* r.problems;
    const id = str(r.info.id);
    if (r.messages === 0) {
      yield { kind: 'problem', line: null, reason: `${id ? `${id}: ` : ''}the session has no messages` };
      return;
    }
    const parent = str(r.info.parentID);
    const directory = str(r.info.directory);
    const title = str(r.info.title);
    const provenance = {
      opencode: {
        ...(id ? { sessionId: id } : {}),
        ...(parent ? { parentSessionId: parent } : {}),
        ...(str(r.info.projectID) ? { projectId: str(r.info.projectID) } : {}),
        ...(str(r.info.version) ? { version: str(r.info.version) } : {}),
      },
    };
    const agent = parent ? 'opencode sub-agent' : 'opencode';
    yield* agentSessionItems(
      {
        format,
        file: source.name,
        agent,
        ...(id ? { sessionId: id } : {}),
        sourceKey: r.key.key(),
        ...(directory ? { setting: `Working directory: ${directory}` } : {}),
        ...(title ? { title: `${agent} · ${title}` } : {}),
        provenance,
      },
      r.finish(),
      newId,
      now,
    );
  }
  for (const item of jsonLines(source)) {
    if (item.kind === 'problem') {
      if (reader) (reader as SessionReader).problems.push(item);
      else yield item;
      continue;
    }
    const v = item.value;
    if (isRec(v) && isRec(v.session)) {
      yield* finish();
      reader = new SessionReader(v.session);
      reader.key.add(item.text);
      continue;
    }
    if (!reader) {
      yield { kind: 'problem', line: item.lineNo, reason: 'an opencode message or part before any session' };
      continue;
    }
    const current: SessionReader = reader;
    current.key.add(item.text);
    if (isRec(v) && isRec(v.message)) current.message(v.message, item.lineNo);
    else if (isRec(v) && isRec(v.part)) current.part(v.part, item.lineNo);
    else current.problems.push({ kind: 'problem', line: item.lineNo, reason: 'a line that is neither an opencode session, message nor part' });
  }
  yield* finish();
}
