// aider's chat history (.aider.chat.history.md, in the project's git root): one trajectory per
// session (`# aider chat started at …`). aider makes no tool calls; what it does in the project
// is apply the edits the model writes in its reply and run shell commands, and its history
// keeps what it reported about each (./chat-log.ts reads the file's layout). Read as steps:
// - a reply whose edits aider applied: the edit blocks as the model wrote them
//   (./edit-blocks.ts; the whole reply where none is found) → what aider reported:
//   `Applied edit to <file>`, commits, the linter's findings, or why the edits failed to apply;
// - a command the person typed (`/run`, `!`, `/test`, `/git`) or one the model proposed that
//   aider ran, when its output is in the history. Which aider wrote it decides: up to 0.53 a
//   command's output follows it as one message; 0.54 to 0.63 write a /run's or /test's output a
//   line at a time (each line stripped) when it was added to the chat, and a proposed
//   command's not at all; from 0.64 only /git's output is written. A command without its
//   output is named as left out: it has no observation.
// The first thing the person typed is the task; aider's questions and their answers, token
// counts, its startup banner and other commands are counted and said.
import { agentSessionItems, type AgentEvent, LeftOutTally } from '../../parsing/agent-session';
import { contentKey } from '../../parsing/content-key';
import type { IdFactory, ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import type { TrajectoryImporter } from '../format';
import { chatSessions, SESSION_HEADER, type ChatEntry, type ChatSession } from './chat-log';
import { replyEdits } from './edit-blocks';
import { sessionIds } from './sessions';

const FORMAT = 'aider-chat';

/** A question aider asked the person and the answer it wrote after it. */
const QUESTION = /\(Y\)es\/\([Nn]\)o|\[Y\/n(\/instructions)?\]|\[Yes\]: |\[No\]: |\?\s+(y|n|a|s|d|yes|no|all|skip|don't)$/i;
const USAGE = /^Tokens: /;
const EDIT_RESULT = /^(Applied edit to |Did not apply edit to |Skipping edits to |Committing .+ before applying edits|Commit [0-9a-f]{7,} )/;
const EDIT_FAILED = /^The LLM did not conform to the edit format\./;
const RUNNING = /^Running (.+)$/;
const SHELL_QUESTION = /^Run shell commands?\? /;
const OUTPUT_ADDED = /^Added \d+ lines? of output to the chat\.$/;
const UNDO_HINT = /^You can use \/undo /;
/** The person's input that runs a command: `/run`, its alias `!`, `/test`, `/git`. */
const TYPED_COMMAND = /^(?:\/run\s+|!|\/test\s+|\/(git)\s+)([\s\S]+)$/;
/** Commands that send their message to the model: aider writes the message again as the next input. */
const MODE_COMMAND = /^\/(ask|code|architect|context|help)(\s|$)/;

/** aider's own wording, not a command's output. */
const isOwn = (text: string) => QUESTION.test(text) || USAGE.test(text) || RUNNING.test(text) || OUTPUT_ADDED.test(text) || EDIT_RESULT.test(text) || EDIT_FAILED.test(text) || UNDO_HINT.test(text);

const firstLine = (text: string) => {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 100 ? `${line.slice(0, 97)}…` : line;
};

const NO_OUTPUT =
  "aider ran it, but its chat history does not keep what the command printed (aider 0.64 and later send a command's output to the model only; 0.54 to 0.63 kept a /run's output only when the person added it to the chat), so it has no observation";
/** The question aider 0.54 to 0.63 asked after a /run, before writing its output line by line when the answer added it. */
const ADD_OUTPUT_QUESTION = /^Add the output to the chat\?\s*\n?\(Y\)es\/\(n\)o\/message with instructions:\s*(.*)$/;

/** Whether `version` ("0.53.1-dev") is before `major.minor`. */
function before(version: string | undefined, minor: number): boolean | undefined {
  const m = /^0\.(\d+)/.exec(version ?? '');
  return m ? Number(m[1]) < minor : undefined;
}

/**
 * A typed command's output in the messages after it, as the aider that wrote the history kept
 * it: up to 0.53 one message right after the command; 0.54 to 0.63 one message a line (each
 * stripped by aider), after the question when there was one; later versions none.
 */
function typedOutput(run: Extract<ChatEntry, { kind: 'message' }>[], version: string | undefined): string | null {
  // Every message up to the model's reply or the next input: aider writes nothing of its own after the lines (one may read like a question: apt's "[Y/n]").
  const lineByLine = (from: number) => (run.length > from ? run.splice(0).slice(from).map((m) => m.text).join('\n') : null);
  const first = run[0];
  if (!first) return null;
  const asked = ADD_OUTPUT_QUESTION.exec(first.text);
  if (asked) return /^(n|no)$/i.test(asked[1]!.trim()) ? null : lineByLine(1);
  if (isOwn(first.text)) return null;
  const old = before(version, 54) ?? (first.text.includes('\n') || (run[1] !== undefined && QUESTION.test(run[1].text)));
  return old ? run.shift()!.text : lineByLine(0);
}

/** One session's entries as the events agent-session.ts pairs into steps. */
function sessionEvents(session: ChatSession, tally: LeftOutTally, about: { version?: string; model?: string }): AgentEvent[] {
  const events: AgentEvent[] = [];
  const entries = session.entries;
  let calls = 0;
  const step = (name: string, action: string, line: number, observation: string, isError = false) => {
    const id = `${FORMAT}-${line}-${calls++}`;
    events.push({ kind: 'call', id, name, arguments: {}, action, line }, { kind: 'result', id, content: observation, ...(isError ? { isError: true } : {}), line });
  };
  const own = (m: Extract<ChatEntry, { kind: 'message' }>) => {
    if (QUESTION.test(m.text)) tally.add("aider's question to the person, with the answer", m.line, 'the person told aider what to do; nothing ran in the project');
    else if (USAGE.test(m.text)) tally.add('token and cost report', m.line, "aider's accounting of the model call, not output of the project");
    else if (OUTPUT_ADDED.test(m.text)) tally.add('note that command output was added to the chat', m.line, 'aider saying what it sent the model; the output itself is not in the history');
    else tally.add("aider's own message (startup banner, files added, hints, warnings)", m.line, 'aider speaking about itself, not output of something run in the project');
  };

  let i = 0;
  /** The messages from i up to the next input or reply. */
  const takeMessages = () => {
    const run: Extract<ChatEntry, { kind: 'message' }>[] = [];
    while (i < entries.length && entries[i]!.kind === 'message') run.push(entries[i++] as Extract<ChatEntry, { kind: 'message' }>);
    return run;
  };

  for (const m of takeMessages()) {
    about.version ??= /^Aider v(\S+)/.exec(m.text)?.[1];
    about.model ??= /^(?:Main model|Model): (.+)$/.exec(m.text)?.[1];
    own(m);
  }
  while (i < entries.length) {
    const entry = entries[i++]!;
    const run = takeMessages();
    if (entry.kind === 'input') {
      const typed = TYPED_COMMAND.exec(entry.text);
      if (typed) {
        const command = typed[1] ? `git ${typed[2]!.trim()}` : typed[2]!.trim();
        const question = run[0];
        const output = typedOutput(run, about.version);
        // A question taken with the output it came before is still said.
        if (question && run[0] !== question && QUESTION.test(question.text)) own(question);
        if (output !== null) step('shell', command, entry.line, output);
        else events.push({ kind: 'skip', what: `the command ${firstLine(command)}`, reason: NO_OUTPUT, line: entry.line });
      } else if (MODE_COMMAND.test(entry.text)) {
        tally.add('chat mode command (/ask, /code, /architect…)', entry.line, 'aider writes the message it carries again as the next input, which is read');
      } else if (entry.text.startsWith('/')) {
        tally.add('aider command (/add, /drop, /model, /undo…)', entry.line, 'it tells aider what to send the model or how to work; nothing ran in the project that the history shows');
      } else events.push({ kind: 'user', text: entry.text, line: entry.line });
      run.forEach(own);
      continue;
    }
    if (entry.kind !== 'reply') continue;
    // What aider reported about applying the reply's edits, and the commands it then ran.
    const report: string[] = [];
    let failed = false;
    const after: (() => void)[] = [];
    for (let k = 0; k < run.length; k++) {
      const m = run[k]!;
      const next = run[k + 1];
      // What aider asks about (a file, a command) is shown just before the question.
      const subject = next !== undefined && QUESTION.test(next.text) && !QUESTION.test(m.text);
      if (next && SHELL_QUESTION.test(next.text)) {
        // The commands the model proposed, shown before the question; the answer ends it.
        if (!/:\s*[ya]\w*\s*$/i.test(next.text)) events.push({ kind: 'skip', what: `the proposed command ${firstLine(m.text)}`, reason: 'the person chose not to run it', line: m.line });
        tally.add("aider's question to the person, with the answer", next.line, 'the person told aider what to do; nothing ran in the project');
        k++;
        continue;
      }
      const running = RUNNING.exec(m.text);
      if (running) {
        const command = running[1]!;
        const output = next && !isOwn(next.text) ? next : null;
        if (output) {
          after.push(() => step('shell', command, m.line, output.text));
          k++;
        } else after.push(() => events.push({ kind: 'skip', what: `the command ${firstLine(command)}`, reason: NO_OUTPUT, line: m.line }));
        continue;
      }
      if (EDIT_RESULT.test(m.text) || EDIT_FAILED.test(m.text) || (report.length > 0 && !subject && !isOwn(m.text) && after.length === 0)) {
        if (EDIT_FAILED.test(m.text)) failed = true;
        report.push(m.text);
        continue;
      }
      own(m);
    }
    if (report.length > 0) {
      const edited = new Set(report.flatMap((r) => /^(?:Applied edit to|Did not apply edit to) (.+?)(?: \(--dry-run\))?$/.exec(r)?.[1] ?? []));
      const edits = replyEdits(entry.text, edited);
      if (edits?.words) events.push({ kind: 'thought', text: edits.words, line: entry.line });
      step('edit', edits ? edits.edits : entry.text, entry.line, report.join('\n'), failed);
    } else events.push({ kind: 'thought', text: entry.text, line: entry.line });
    after.forEach((f) => f());
  }
  return events;
}

export const aiderChatImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'aider chat history (.aider.chat.history.md)',
  detect(name, head) {
    const first = head.split('\n', 3).find((l) => l.trim() !== '') ?? '';
    if (SESSION_HEADER.test(first.replace(/\r$/, ''))) return 0.97;
    if (/(^|[\\/])\.aider\.chat\.history\.md$/.test(name)) return 0.6;
    return 0;
  },
  *parse(source: ImportSource, newId: IdFactory, now: string): Iterable<ImportItem> {
    let before = 0;
    let firstBefore: number | null = null;
    let sessions = 0;
    let imported = 0;
    const idOf = sessionIds();
    const ids: string[] = [];
    for (const session of chatSessions(source.lines(), (l) => {
      if (l.text.trim() === '') return;
      before++;
      firstBefore ??= l.lineNo;
    })) {
      const id = idOf(session.startedAt);
      ids.push(id);
      // A listing names one session of the history as `<file>#<id>`: only that one is read.
      if (source.session !== undefined && source.session !== id) continue;
      sessions++;
      const tally = new LeftOutTally();
      const about: { version?: string; model?: string } = {};
      const events = sessionEvents(session, tally, about);
      if (!events.some((e) => e.kind === 'call')) {
        // Most sessions in a history are questions, plans or a quick look: said once, not a problem.
        const typed = events.find((e) => e.kind === 'user');
        yield { kind: 'skipped', line: session.line, what: `the session started at ${session.startedAt}${typed ? `: ${firstLine(typed.text)}` : ' (nothing typed)'}`, reason: 'aider applied no edit in it and the history holds no command output: no action with an observation to import' };
        continue;
      }
      imported++;
      events.push(...tally.skips());
      const provenance = { aider: { startedAt: session.startedAt, ...(about.version ? { version: about.version } : {}), ...(about.model ? { model: about.model } : {}) } };
      const items = agentSessionItems(
        {
          format: FORMAT,
          file: source.name,
          agent: about.version ? `aider ${about.version}` : 'aider',
          sessionId: id,
          title: `aider · ${session.startedAt}`,
          actions:
            "Each action is what aider did in the project: the edits the model wrote (SEARCH/REPLACE blocks or diffs, as written; a reply whose edits are in another form, whole), or a shell command; each observation is what aider reported: the edits applied, commits and linter findings, or a command's output.",
          sourceKey: contentKey([FORMAT, session.lines.join('\n')]),
          provenance,
        },
        events,
        newId,
        now,
      );
      for (const item of items) {
        // The line a problem names is the session's, so the person can find it in a file of many sessions.
        if (item.kind === 'problem' && item.line === null) yield { ...item, line: session.line };
        else yield item;
      }
    }
    if (source.session !== undefined && sessions === 0) {
      yield { kind: 'problem', line: null, reason: `no session ${JSON.stringify(source.session)} in this aider history; its sessions are ${ids.length ? ids.join(', ') : 'none'} (named by the time each started)` };
      return;
    }
    if (before > 0 && source.session === undefined) yield { kind: 'skipped', line: firstBefore, what: `${before} line(s) before the first "# aider chat started at" header`, reason: 'aider starts every session with that header; text before it belongs to no session' };
    if (sessions === 0 && before > 0) yield { kind: 'problem', line: null, reason: 'no "# aider chat started at …" header: this is not an aider chat history, or its sessions were cut off. aider writes the header when a session starts' };
    else if (sessions > 0 && imported === 0) yield { kind: 'problem', line: null, reason: `none of its ${sessions} session(s) has an edit aider applied or a command's output: nothing to import as action and observation (each session is said above)` };
  },
};
