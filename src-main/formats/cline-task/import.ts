// The task history of Cline and its forks Roo Code and Kilo Code: each task's folder
// (tasks/<id>/ in the extension's storage) holds api_conversation_history.json, the
// Anthropic-style messages the extension sent to the model, [{role, content: [blocks]}].
// The agent's calls come in three shapes, by version:
// - XML in the assistant's text (Cline 1-3, Roo Code before native calls): one tool a
//   message, `<execute_command>\n<command>ls</command>\n</execute_command>`, its result in
//   the next user message as a text block `[execute_command for 'ls'] Result:` followed by
//   the result's blocks (newer Cline writes both in one block, the header on the first line);
// - `tool_use` blocks answered by the same `[name …] Result:` text (Cline with native calls);
// - `tool_use` blocks answered by `tool_result` blocks (Roo Code and Kilo Code with native calls).
// The first user message's `<task>` is the task. Left out, and said: the editor's state the
// extension appends to every user message (`<environment_details>`), its own notes (a task
// resumed, a reminder), calls it did not run (refused by the person, a second tool in one
// message) and the tools that talk to the person or the extension (attempt_completion,
// ask_followup_question, new_task…). ../../parsing/agent-session.ts makes the turns.
import { agentSessionItems, type AgentEvent } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { jsonDocument } from '../../parsing/json-document';
import { rawValueAt } from '../../parsing/json-raw';

const FORMAT = 'cline-task';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Tools the extension answers itself or that talk to the person: they change no environment. */
const HARNESS = /^(attempt_completion|ask_followup_question|plan_mode_respond|act_mode_respond|new_task|switch_mode|update_todo_list|focus_chain|condense|summarize_task|new_rule|report_bug|fetch_instructions|load_mcp_documentation)$/;

/** What a tool's result starts with: `[name]` or `[name for '…']`, then ` Result:`. */
const RESULT_HEADER = /^\[([a-z_]+)(?: for [^\n]*?|\])?\]? Result:/;
/** What the extension answers in a call's place when it did not run it. */
const NOT_RUN: { pattern: RegExp; reason: string }[] = [
  { pattern: /^The user denied this operation\./, reason: 'the person refused it; nothing ran in the environment' },
  { pattern: /^(Skipping tool|Tool) \[?[a-z_]+.* due to user rejecting a previous tool\./, reason: 'the person had refused an earlier call of the same message, so the extension did not run it' },
  { pattern: /^Tool \[[a-z_]+\] was not executed because a tool has already been used in this message\./, reason: 'the extension runs one tool a message; it did not run this one' },
];
/** Text the extension adds to a user message for the model: what it is, and why it is left out. */
const APP_TEXT: { pattern: RegExp; what: string; reason: string }[] = [
  { pattern: /^\s*<environment_details>/, what: "the editor's state (environment_details)", reason: 'the extension appends the open files, time and working folder to every user message; not the person or a tool' },
  { pattern: /^\s*\[TASK RESUMPTION\]/, what: 'a task-resumption note', reason: 'the extension told the model the task was resumed after a pause; not the person or a tool' },
  { pattern: /^\s*# (task_progress|TODO LIST UPDATE REQUIRED)/, what: 'a to-do list reminder', reason: 'the extension reminded the model to keep a to-do list; not the person or a tool' },
  { pattern: /^\s*\[ERROR\] You did not use a tool/, what: 'a reminder to use a tool', reason: "the extension answered a reply that called no tool; not the person's words" },
];

/** A tool call written as XML in the assistant's text: `<name>` with one element per parameter, trimmed as the extension reads them. */
function xmlCall(text: string, name: string): { args: Record<string, string>; at: number } | null {
  const open = text.indexOf(`<${name}>`);
  if (open < 0) return null;
  const close = text.lastIndexOf(`</${name}>`);
  const body = text.slice(open + name.length + 2, close > open ? close : undefined);
  const args: Record<string, string> = {};
  for (const m of body.matchAll(/<([a-z_]+)>([\s\S]*?)<\/\1>/g)) args[m[1]!] ??= m[2]!.replace(/^\n|\n$/g, '').trim();
  return { args, at: open };
}

const blockText = (b: unknown): string | null => {
  if (typeof b === 'string') return b;
  if (!isRec(b)) return null;
  if (b.type === 'text' && typeof b.text === 'string') return b.text;
  if (b.type === 'image') return '(an image)';
  return null;
};

function contentOf(c: unknown): unknown[] {
  return typeof c === 'string' ? [{ type: 'text', text: c }] : Array.isArray(c) ? c : [];
}

/** A tool_result's content as text, without the `[name …] Result:` header some forks put inside it. */
function toolResultText(content: unknown): string {
  const parts = contentOf(content).map(blockText).filter((t): t is string => t !== null);
  if (parts.length > 1 && RESULT_HEADER.test(parts[0]!) && /Result:\s*$/.test(parts[0]!)) parts.shift();
  return parts.join('\n');
}

interface Pending {
  id: string;
  name: string;
}

function taskEvents(messages: Rec[], text: string): AgentEvent[] {
  const events: AgentEvent[] = [];
  const tally = new Map<string, { count: number; reason: string; index: number }>();
  const leaveOut = (what: string, reason: string, index: number) => {
    const seen = tally.get(what);
    if (seen) seen.count++;
    else tally.set(what, { count: 1, reason, index });
  };
  // A call answered with a note that it did not run is no step: it leaves with the reasoning that led to it.
  const answer = (id: string, content: string, isError: boolean, index: number) => {
    const notRun = NOT_RUN.find((x) => x.pattern.test(content));
    const at = notRun ? events.findLastIndex((e) => e.kind === 'call' && e.id === id) : -1;
    if (notRun && at >= 0) {
      let from = at;
      while (from > 0 && events[from - 1]!.kind === 'thought') from--;
      events.splice(from, at - from + 1);
      leaveOut('call the extension did not run', `${notRun.reason} (the reasoning that led to it is left out with it)`, index);
      return;
    }
    events.push({ kind: 'result', id, content, ...(isError ? { isError: true } : {}), line: null });
  };
  let pending: Pending[] = [];
  /** The assistant's text of the last message without native calls: reasoning, and maybe an XML call. */
  const said: string[] = [];
  let n = 0;
  let asked = false;
  for (const [i, m] of messages.entries()) {
    const blocks = contentOf(m.content);
    if (m.role === 'assistant') {
      pending = [];
      for (const words of said.splice(0)) events.push({ kind: 'thought', text: words, line: null });
      for (const [j, b] of blocks.entries()) {
        if (!isRec(b)) continue;
        if (b.type === 'tool_use' && typeof b.name === 'string') {
          const id = typeof b.id === 'string' && b.id ? b.id : `call-${i}-${j}`;
          pending.push({ id, name: b.name });
          if (HARNESS.test(b.name)) {
            leaveOut(`the harness call ${b.name}`, 'the agent talked to the person or the extension (a question, a completion, a to-do list); nothing ran in the environment', i);
            continue;
          }
          const raw = isRec(b.input) ? rawValueAt(text, [i, 'content', j, 'input']) : null;
          events.push({ kind: 'call', id, name: b.name, arguments: b.input ?? {}, rawArguments: raw, line: null });
        } else if (b.type === 'thinking' && typeof b.thinking === 'string') events.push({ kind: 'thought', text: b.thinking, line: null });
        else if (b.type === 'reasoning' && typeof b.text === 'string') events.push({ kind: 'thought', text: b.text, line: null });
        else if (b.type === 'text' && typeof b.text === 'string') {
          // With native calls the text is the reasoning; else it may hold an XML call, found when its result names it.
          if (blocks.some((x) => isRec(x) && x.type === 'tool_use')) events.push({ kind: 'thought', text: b.text, line: null });
          else said.push(b.text);
        } else if (b.type === 'redacted_thinking') leaveOut('redacted thinking block', 'the model provider encrypted it; there is no text to keep', i);
      }
      continue;
    }
    // A user message: the task, tool results, the person's words, the extension's notes.
    // First the assistant's words before it: an XML call in them is the tool a result here names.
    const named = blocks.flatMap((b) => {
      const h = RESULT_HEADER.exec(blockText(b) ?? '');
      return h ? [h[1]!] : [];
    });
    for (const words of said.splice(0)) {
      const name = named.find((x) => xmlCall(words, x));
      if (!name) {
        events.push({ kind: 'thought', text: words, line: null });
        continue;
      }
      const parsed = xmlCall(words, name)!;
      const before = words.slice(0, parsed.at).trim();
      if (before) events.push({ kind: 'thought', text: before, line: null });
      const id = `call-${++n}`;
      pending.push({ id, name });
      if (!HARNESS.test(name)) events.push({ kind: 'call', id, name, arguments: parsed.args, line: null });
    }
    let results = 0;
    for (let j = 0; j < blocks.length; j++) {
      const b = blocks[j];
      if (isRec(b) && b.type === 'tool_result') {
        const id = typeof b.tool_use_id === 'string' ? b.tool_use_id : '';
        const call = pending.find((p) => p.id === id);
        results++;
        if (call && HARNESS.test(call.name)) {
          leaveOut(`the harness call ${call.name} and its answer`, 'the agent talked to the person or the extension (a question, a completion, a to-do list); nothing ran in the environment', i);
          continue;
        }
        answer(id, toolResultText(b.content), b.is_error === true, i);
        continue;
      }
      const t = blockText(b);
      if (t === null) {
        leaveOut(`a user block of type ${JSON.stringify(isRec(b) ? b.type : typeof b)}`, 'not text, an image or a tool result', i);
        continue;
      }
      const header = RESULT_HEADER.exec(t);
      if (header) {
        results++;
        const name = header[1]!;
        // The result's text: the rest of this block (newer Cline), else the blocks up to the next header or note.
        let body = t.slice(t.indexOf('Result:') + 'Result:'.length).replace(/^\n/, '');
        if (body.trim() === '') {
          const parts: string[] = [];
          while (j + 1 < blocks.length) {
            const next = blockText(blocks[j + 1]);
            if (next === null || RESULT_HEADER.test(next) || APP_TEXT.some((a) => a.pattern.test(next))) break;
            parts.push(next);
            j++;
          }
          body = parts.join('\n');
        }
        const at = pending.findIndex((p) => p.name === name);
        const call: Pending | undefined = at >= 0 ? pending.splice(at, 1)[0] : undefined;
        if (!call) {
          leaveOut(`a ${name} result no call in the message before it made`, 'nothing to pair it with', i);
          continue;
        }
        if (HARNESS.test(name)) {
          leaveOut(`the harness call ${name} and its answer`, 'the agent talked to the person or the extension (a question, a completion, a to-do list); nothing ran in the environment', i);
          if (name === 'ask_followup_question' || name === 'attempt_completion') asked = true;
          continue;
        }
        answer(call.id, body, /^The tool execution failed|^\[ERROR\]/.test(body), i);
        continue;
      }
      const notRun = NOT_RUN.find((x) => x.pattern.test(t));
      if (notRun) {
        // `Tool [name] was not executed…`: the native call it names goes unanswered, and is no step.
        const named = /\[([a-z_]+)/.exec(t)?.[1];
        const at = pending.findIndex((p) => p.name === named);
        if (at >= 0) answer(pending.splice(at, 1)[0]!.id, t, true, i);
        else leaveOut('call the extension did not run', notRun.reason, i);
        continue;
      }
      const app = APP_TEXT.find((a) => a.pattern.test(t));
      if (app) {
        leaveOut(app.what, app.reason, i);
        continue;
      }
      const task = /^\s*<task>\n?([\s\S]*?)\n?<\/task>\s*$/.exec(t);
      const feedback = /^\s*<(feedback|answer|user_message)>\n?([\s\S]*?)\n?<\/\1>\s*$/.exec(t);
      events.push({ kind: 'user', text: task ? task[1]! : feedback ? feedback[2]! : t, line: null });
    }
    // Native calls the next message did not answer: the extension stopped before running them.
    if (results > 0 || asked) pending = [];
    asked = false;
  }
  for (const words of said) events.push({ kind: 'thought', text: words, line: null });
  for (const [what, t] of tally) events.push({ kind: 'skip', what: `${t.count} × ${what}`, reason: t.reason, line: null });
  return events;
}

export const clineTaskImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'Cline / Roo Code / Kilo Code task',
  detect(name, head) {
    if (!/^\s*\[\s*\{\s*"role"\s*:\s*"user"\s*,\s*"content"\s*:/.test(head)) return 0;
    if (/api_conversation_history\.json$/i.test(name)) return 0.95;
    if (/<task>/.test(head) && /<environment_details>/.test(head)) return 0.9;
    if (/\] Result:/.test(head) && /<environment_details>/.test(head)) return 0.85;
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const text = source.text();
    const value = yield* jsonDocument(text);
    if (value === undefined) return;
    if (!Array.isArray(value) || !value.every((m) => isRec(m) && (m.role === 'user' || m.role === 'assistant'))) {
      yield { kind: 'problem', line: null, reason: 'not a Cline task history: expected a list of messages [{role: user|assistant, content}] (api_conversation_history.json in the task folder)' };
      return;
    }
    const messages = value as Rec[];
    const model = messages.map((m) => (isRec(m.modelInfo) && typeof m.modelInfo.modelId === 'string' ? m.modelInfo.modelId : null)).find((x) => x !== null);
    yield* agentSessionItems(
      { format: FORMAT, file: source.name, agent: 'Cline', sourceText: text, ...(model ? { provenance: { cline: { model } } } : {}) },
      taskEvents(messages, text),
      newId,
      now,
    );
  },
};
