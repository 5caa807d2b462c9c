// One goose message as the events a session is made of. goose (crates/goose, conversation/
// message) writes a message as {id?, role: user|assistant, created, content: [items],
// metadata: {userVisible, agentVisible}}, the same shape in its .jsonl files (before 1.10) and
// in sessions.db's messages.content_json (1.10 on). Content items are tagged by `type`:
// - text {text} and thinking {thinking} (older files: reasoning {text}): the person's words,
//   the agent's words and reasoning;
// - toolRequest {id, toolCall: {status: success, value: {name, arguments}} or {status: error,
//   error}}: a call; frontendToolRequest the same, for a tool the desktop app runs;
// - toolResponse {id, toolResult: {status: success, value}} where value is an MCP
//   CallToolResult {content: [items], isError?} (older: the bare list of items), or {status:
//   error, error}: the result. Each item of the result may name its audience: goose's shell
//   gives the model one copy and the person another, so only what the model was given
//   (audience absent or `assistant`) is the observation, item after item on their own lines
//   as goose joins them.
// Left out, and said: goose's notes to the person or the model (systemNotification,
// contextLengthExceeded, summarizationRequested, conversationCompacted), text goose wrote for
// the model only (a compaction summary: userVisible false), confirmation requests, redacted
// reasoning, images, and calls goose could not read (with the error it answered).
import type { AgentEvent } from '../../parsing/agent-session';
import { LeftOutTally } from '../../parsing/agent-session';
import type { ImportItem } from '../../parsing/import-item';
import { rawValueAt } from '../../parsing/json-raw';

type Rec = Record<string, unknown>;
export const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** goose's own notes, written into the conversation for the person or the model. */
const NOTES: Record<string, string> = {
  systemNotification: "goose's notice to the person (thinking, a note in line, credits used up)",
  contextLengthExceeded: "goose's note that the conversation outgrew the model's context",
  summarizationRequested: "goose's note that it summarised the conversation",
  conversationCompacted: "goose's note that it compacted the conversation",
};

/** A tool result as the model was given it: the text of every item meant for it, and what was left out. */
function resultText(result: Rec, rawLine: string, at: (string | number)[]): { content: string; isError: boolean; leftOut: string[] } {
  if (result.status === 'error') return { content: str(result.error) ?? JSON.stringify(result.error ?? null), isError: true, leftOut: [] };
  const value = result.value;
  const call = Array.isArray(value) ? { content: value } : isRec(value) ? value : {};
  const texts: string[] = [];
  const leftOut: string[] = [];
  for (const item of Array.isArray(call.content) ? call.content : []) {
    if (!isRec(item)) continue;
    const audience = isRec(item.annotations) ? item.annotations.audience : undefined;
    if (Array.isArray(audience) && !audience.includes('assistant')) {
      leftOut.push("a copy of a tool result shown to the person (audience: user), not given to the model");
      continue;
    }
    if (item.type === 'text' && typeof item.text === 'string') texts.push(item.text);
    else if (item.type === 'resource' && isRec(item.resource) && typeof item.resource.text === 'string') texts.push(item.resource.text);
    else leftOut.push(`a tool result's ${str(item.type) ?? 'untyped'} item (an image, audio, binary or a link): not text`);
  }
  // A result with only structured content: that, as goose wrote it.
  const structured = texts.length === 0 && call.structuredContent !== undefined ? rawValueAt(rawLine, [...at, 'value', 'structuredContent']) : null;
  return { content: structured ?? texts.join('\n'), isError: call.isError === true, leftOut };
}

/** Reads goose messages in order into events; calls goose could not read, and their answers, are said. */
export class GooseConversation {
  readonly events: AgentEvent[] = [];
  readonly tally = new LeftOutTally();
  private readonly unreadable = new Set<string>();

  /** One message (`value`, parsed from `rawLine`); answers the problems it has. */
  add(value: Rec, rawLine: string, line: number): Extract<ImportItem, { kind: 'problem' }>[] {
    const problems: Extract<ImportItem, { kind: 'problem' }>[] = [];
    const role = value.role;
    if ((role !== 'user' && role !== 'assistant') || !Array.isArray(value.content)) {
      return [{ kind: 'problem', line, field: 'role', reason: 'a goose message is an object with "role" (user or assistant) and a "content" list' }];
    }
    const metadata = isRec(value.metadata) ? value.metadata : {};
    const forModelOnly = metadata.userVisible === false;
    for (const [i, item] of value.content.entries()) {
      if (!isRec(item) || typeof item.type !== 'string') {
        problems.push({ kind: 'problem', line, field: `content[${i}]`, reason: 'a content item without a "type"' });
        continue;
      }
      const type = item.type;
      if (type === 'text' || type === 'thinking' || type === 'reasoning') {
        const text = str(type === 'thinking' ? item.thinking : item.text) ?? '';
        if (text.trim() === '') continue;
        if (forModelOnly && type === 'text') this.tally.add('text goose wrote for the model only', line, 'not shown to the person (userVisible false): a summary or instruction goose added when it compacted or continued the conversation');
        else if (role === 'user' && type === 'text') this.events.push({ kind: 'user', text, line });
        else this.events.push({ kind: 'thought', text, line });
      } else if (type === 'toolRequest' || type === 'frontendToolRequest') {
        const id = str(item.id) ?? `line-${line}-${i}`;
        const call = isRec(item.toolCall) ? item.toolCall : {};
        const request = isRec(call.value) ? call.value : null;
        if (call.status !== 'success' || !request || typeof request.name !== 'string') {
          this.unreadable.add(id);
          this.tally.add('tool call goose could not read', line, `the model wrote a call goose could not parse (${str(call.error) ?? 'no name'}); nothing ran, and goose answered with the error`);
          continue;
        }
        const args = request.arguments ?? {};
        const raw = isRec(args) ? rawValueAt(rawLine, ['content', i, 'toolCall', 'value', 'arguments']) : null;
        // A shell call's other arguments (a timeout) change what it does: the whole call is the action.
        const wholeCall = /shell/i.test(request.name) && isRec(args) && Object.keys(args).some((k) => k !== 'command');
        this.events.push({ kind: 'call', id, name: request.name, arguments: args, rawArguments: raw, wholeCall, line });
      } else if (type === 'toolResponse') {
        const id = str(item.id) ?? '';
        if (this.unreadable.has(id)) {
          this.tally.add("goose's answer to a call it could not read", line, 'the error goose gave the model for a call that never ran');
          continue;
        }
        if (!isRec(item.toolResult)) {
          problems.push({ kind: 'problem', line, field: `content[${i}].toolResult`, reason: 'a tool response without a toolResult' });
          continue;
        }
        const { content, isError, leftOut } = resultText(item.toolResult, rawLine, ['content', i, 'toolResult']);
        for (const what of leftOut) this.tally.add(what, line, 'the observation is what the model was given, as text');
        this.events.push({ kind: 'result', id, content, ...(isError ? { isError: true } : {}), line });
      } else if (type === 'toolConfirmationRequest' || type === 'actionRequired') {
        this.tally.add('request for the person (a confirmation or a question)', line, 'goose asked the person before acting; not the model or a tool');
      } else if (type === 'redactedThinking') {
        this.tally.add('redacted reasoning', line, 'the provider sent it encrypted; there is no text to keep');
      } else if (type === 'image') {
        this.tally.add('image', line, 'not text; Worldloom trajectories hold text');
      } else if (NOTES[type]) {
        this.tally.add(`${type} item`, line, NOTES[type]);
      } else {
        this.tally.add(`${type} item`, line, 'a kind of goose content this reader does not know; left out rather than guessed at');
      }
    }
    return problems;
  }
}
