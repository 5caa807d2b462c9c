// Claude Code session files (~/.claude/projects/<project>/<session>.jsonl): one record per
// line. `user` and `assistant` records carry an Anthropic message: the assistant's content
// blocks are its thinking, its text and its `tool_use` calls; the next user record answers
// them with `tool_result` blocks (matched by tool_use_id). ../../parsing/agent-session.ts pairs them.
// A shell command the person ran themselves (bash mode: `<bash-input>` and its
// `<bash-stdout>`) is a step too. A slash command that expands into a prompt (/init, a
// custom command) is the person's request: the command as typed, and with no arguments the
// prompt it expanded into. A subagent's own conversation (`isSidechain`: inline in older
// versions, a file of its own in newer ones) is a trajectory of its own. Left out, and said:
// the records of the app itself (summaries, file-history snapshots, queue operations, progress
// and system notes), messages the harness added (`isMeta`, the /compact summary, local slash
// commands and their output, the reminders it appends to tool results) and the interruptions
// a person made.
import { agentSessionItems, type AgentEvent, LeftOutTally } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { jsonRecordLines } from '../../parsing/json-lines';
import { placeClaudeCodeSession } from './resumed-in-workspace';
import { rawValueAt } from '../../parsing/json-raw';
import { lineContentKey } from '../../parsing/content-key';
import { rewoundRecords } from './branches';

/** Why a content block was not read: its type is one this reader does not know, or it has none. */
const blockNote = (who: string, type: unknown) =>
  typeof type === 'string' ? `${who} block of type ${JSON.stringify(type)} that this reader does not know` : `${who} block without a "type" (text, tool_use, tool_result…)`;

const FORMAT = 'claude-code';

type Block = { type?: unknown; text?: unknown; thinking?: unknown; id?: unknown; name?: unknown; input?: unknown; tool_use_id?: unknown; content?: unknown; is_error?: unknown };

/**
 * Reminders Claude Code appends to what a tool returned (after a file's text: "consider whether
 * it would be considered malware"): the harness talking to the model, not the tool's output.
 */
const SYSTEM_REMINDER = /\n{0,2}<system-reminder>[\s\S]*?<\/system-reminder>\n?/g;

/** A tool result's content (text, or text and image blocks) as text, and whether a harness reminder was taken out of it. */
function resultText(content: unknown): { text: string; reminders: number } {
  const raw = rawResultText(content);
  let reminders = 0;
  const text = raw.includes('<system-reminder>')
    ? raw.replace(SYSTEM_REMINDER, () => {
        reminders++;
        return '';
      })
    : raw;
  return { text, reminders };
}

function rawResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((b: Block) => {
      if (typeof b === 'string') return b;
      if (b?.type === 'text' && typeof b.text === 'string') return b.text;
      if (b?.type === 'image') return '(an image)';
      return JSON.stringify(b);
    })
    .join('\n');
}

/** What Claude Code answers for a call it did not run because permission was refused (versions 1.0-2.1). */
const REFUSED = /^(The user doesn't want to (proceed with|take) this (tool use|action)|Claude requested permissions to [\s\S]*but you haven't granted it yet)/;

/** User text the harness wrote, not the person: slash commands, their output, caveats. */
const HARNESS_TEXT = /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr)>/;
/** Other text in a user turn that the app wrote, not the person: what it is and why it is left out. */
const APP_TEXT: { pattern: RegExp; what: string; reason: string }[] = [
  { pattern: /^\s*<system-reminder>/, what: 'reminder the harness added', reason: 'Claude Code told the model something (<system-reminder>); not the person or a tool' },
  { pattern: /^\s*<task-notification>/, what: 'background task notification', reason: "Claude Code told the agent that a background command or subagent finished; not the person's words, and what it printed is read by a later call" },
  { pattern: /^\s*<(ide_opened_file|ide_selection|ide_diagnostics)>/, what: 'editor context the IDE added', reason: "the IDE told the model which file or lines the person had open; not the person's words" },
  { pattern: /^\s*<user-memory-input>/, what: 'note the person saved to memory (#)', reason: 'kept by Claude Code in CLAUDE.md for later sessions; not a request to the agent' },
];
const INTERRUPTED = /^\[Request interrupted by user( for tool use)?\]$/;
/** A shell command the person ran in Claude Code's bash mode, and what it printed. */
const BASH_INPUT = /^\s*<bash-input>([\s\S]*?)<\/bash-input>\s*$/;
const BASH_OUTPUT = /^\s*<bash-stdout>([\s\S]*?)<\/bash-stdout>\s*(?:<bash-stderr>([\s\S]*?)<\/bash-stderr>)?\s*$/;
/** A slash command as Claude Code records it: `<command-name>/init</command-name>` and its `<command-args>`. */
const COMMAND_NAME = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
/** The caveat Claude Code puts before a local command's output, which is not a command's prompt. */
const CAVEAT = /^\s*Caveat:/;

/** Why the app's records that copy or accompany a turn are left out, where the generic reason would mislead. */
const APP_RECORD_REASONS: Record<string, string> = {
  agent_progress: "a subagent's messages relayed while it ran; its own file (<session>/subagents/agent-<id>.jsonl) holds the whole conversation: import that file for its steps",
  bash_progress: "a running command's output as it streamed; the tool result holds the whole output",
  hook_progress: "a hook the person configured ran (SessionStart, PreToolUse…); the app's business, not the agent's",
  compact_boundary: 'where /compact (or an automatic compaction) cut the context; the turns before it are in the file',
  init: "print mode's opening record: the session's settings (working directory, tools, model)",
  result: "print mode's closing record: the reply it printed (the agent's last words) and what the run cost",
  stream_event: 'a piece of a message as it streamed (--include-partial-messages); the whole message follows',
};

/** One conversation in the file: the session's own, or a subagent's (a sidechain). */
interface Thread {
  events: AgentEvent[];
  /** The key of the lines it came from (the text itself is not kept: a session file can be very large). */
  source: ReturnType<typeof lineContentKey>;
  records: number;
  line: number;
  /** The subagent's id (newer versions) or the uuid its chain starts at (older ones). */
  key: string | null;
  calls: number;
}

export const claudeCodeImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'Claude Code session JSONL',
  detect(name, head) {
    // Newer versions open a session with the app's own records (queue operations, file
    // snapshots, permission modes, hook attachments), sometimes many: read the whole head.
    let app = 0;
    for (const line of head.split('\n')) {
      if (!line.trimStart().startsWith('{')) continue;
      if (/"sessionId"\s*:/.test(line) && /"type"\s*:\s*"(user|assistant)"/.test(line) && /"(parentUuid|isSidechain|userType)"\s*:/.test(line)) return 0.96;
      if (/"type"\s*:\s*"summary"/.test(line) && /"leafUuid"\s*:/.test(line)) app = 0.9;
      // Print mode's stream (`claude -p --output-format stream-json`): its settings, then messages naming their session.
      else if (/"type"\s*:\s*"system"/.test(line) && /"subtype"\s*:\s*"init"/.test(line) && /"session_id"\s*:/.test(line) && /"(claude_code_version|permissionMode|slash_commands|apiKeySource)"\s*:/.test(line)) return 0.93;
      else if (/"type"\s*:\s*"(user|assistant)"/.test(line) && /"session_id"\s*:/.test(line) && /"parent_tool_use_id"\s*:/.test(line)) return 0.93;
      else if (/"type"\s*:\s*"file-history-snapshot"/.test(line) && /"trackedFileBackups"\s*:/.test(line)) app = Math.max(app, 0.85);
      else if (/"type"\s*:\s*"queue-operation"/.test(line) && /"operation"\s*:/.test(line) && /"sessionId"\s*:/.test(line)) app = Math.max(app, 0.85);
    }
    return app;
  },
  // A resumed session imported apart from the one it resumed continues that one's trajectory, or is already in it.
  placeInWorkspace: placeClaudeCodeSession,
  *parse(source: ImportSource, newId, now, options): Iterable<ImportItem> {
    const main: Thread = { events: [], source: lineContentKey(FORMAT), records: 0, line: 1, key: null, calls: 0 };
    /** Subagent conversations by their key, in the order they start. */
    const sides = new Map<string, Thread>();
    /** A sidechain record's uuid → the key of the subagent conversation it belongs to. */
    const sideOf = new Map<string, string>();
    /** The prompt each Task call gave its subagent → the call's id, to say which call started a subagent. */
    const taskPrompts = new Map<string, string>();
    /** A subagent's key → the Task call that started it, where the file says so (print mode). */
    const startedBy = new Map<string, string>();
    /** Whether this is print mode's stream rather than a session file: its prompt is not in it. */
    let printMode = false;
    const problems: ImportItem[] = [];
    let sessionId: string | undefined;
    /** The sessions the main conversation's records were written in, in order: more than one where this session resumed another (./continued.ts). */
    const writtenIn: string[] = [];
    /** The session each call of the main conversation was written in: a resumed file's copied calls name the session they were first written in. */
    const callWrittenIn = new Map<string, string>();
    let version: string | undefined;
    let cwd: string | undefined;
    let summary: string | undefined;
    /** The person's own shell command waiting for its output (bash mode). */
    let bashId: string | null = null;
    /** A slash command waiting to see whether a prompt it expanded into follows (/init) or not (/cost). */
    let command: { name: string; args: string; line: number } | null = null;
    const commandPrompts: { command: string; prompt: string }[] = [];
    let reminders = 0;
    let reminderLine = 0;
    const tally = new LeftOutTally();
    // What a rewind took back (./branches.ts), and the records already read, by uuid: a file
    // can hold the same record twice (a resumed or streamed session of older versions).
    const rewound = rewoundRecords(source);
    const seen = new Set<string>();
    const leaveOut = (what: string, line: number, reason: string) => tally.add(what, line, reason);
    const commandLeftOut = () => {
      if (command) leaveOut('slash command or its output', command.line, "the person ran one of Claude Code's own commands (/cost, /clear…); the app answered it, not the environment");
      command = null;
    };
    for (const item of jsonRecordLines(source, 'type', 'a Claude Code record is an object with a "type" (user, assistant, summary…)')) {
      if (item.kind === 'problem') {
        problems.push(item);
        continue;
      }
      const line = item.lineNo;
      const r = item.value;
      if (r.type === 'summary') {
        main.source.add(item.text);
        main.records++;
        if (typeof r.summary === 'string') summary ??= r.summary;
        leaveOut('session summary', line, "the app's title for the session, not a turn; the first is the trajectory's title");
        continue;
      }
      if (r.type !== 'user' && r.type !== 'assistant') {
        main.source.add(item.text);
        main.records++;
        if (r.type === 'system' && r.subtype === 'init') {
          // Print mode's stream (`claude -p --output-format stream-json`) opens with the session's settings.
          printMode = true;
          sessionId ??= typeof r.session_id === 'string' ? r.session_id : undefined;
          version ??= typeof r.claude_code_version === 'string' ? r.claude_code_version : undefined;
          cwd ??= typeof r.cwd === 'string' && r.cwd ? r.cwd : undefined;
        }
        const kind = r.type === 'progress' ? (r.data as { type?: unknown } | undefined)?.type : r.type === 'system' ? r.subtype : undefined;
        const what = typeof kind === 'string' ? `${r.type} record (${kind})` : `${r.type} record`;
        leaveOut(what, line, APP_RECORD_REASONS[typeof kind === 'string' ? kind : r.type] ?? "the app's own bookkeeping (file backups, queue, progress, system notes), not a message between the agent and its tools");
        continue;
      }
      const uuid = typeof r.uuid === 'string' ? r.uuid : null;
      if (uuid && seen.has(uuid)) {
        main.source.add(item.text);
        leaveOut('copy of a message already read (the same uuid)', line, 'Claude Code wrote the message again (older versions repeat the conversation when a session is resumed or fed by stream-json); the first copy is imported');
        continue;
      }
      if (uuid) seen.add(uuid);
      const rewindAt = uuid ? rewound.get(uuid) : undefined;
      if (rewindAt !== undefined) {
        main.source.add(item.text);
        leaveOut('message a rewind took back', line, `the person rewound the conversation to before it and went on with the prompt on line ${rewindAt}; Claude Code no longer shows or sends it, and the steps follow the conversation as it went on`);
        continue;
      }
      sessionId ??= typeof r.sessionId === 'string' ? r.sessionId : typeof r.session_id === 'string' ? r.session_id : undefined;
      if (typeof r.sessionId === 'string' && r.isSidechain !== true && writtenIn.at(-1) !== r.sessionId) writtenIn.push(r.sessionId);
      version ??= typeof r.version === 'string' ? r.version : undefined;
      cwd ??= typeof r.cwd === 'string' ? r.cwd : undefined;
      let thread = main;
      if (r.isSidechain === true || typeof r.parent_tool_use_id === 'string') {
        // A subagent's conversation: its records chain by parentUuid from its first prompt
        // (older versions interleave several in the session's file); newer ones name it (agentId);
        // print mode's stream names the Task call that started it (parent_tool_use_id).
        const parent = typeof r.parentUuid === 'string' ? sideOf.get(r.parentUuid) : undefined;
        const key = typeof r.parent_tool_use_id === 'string' ? r.parent_tool_use_id : typeof r.agentId === 'string' ? r.agentId : (parent ?? uuid ?? `line-${line}`);
        if (typeof r.parent_tool_use_id === 'string') startedBy.set(key, r.parent_tool_use_id);
        if (uuid) sideOf.set(uuid, key);
        thread = sides.get(key) ?? { events: [], source: lineContentKey(FORMAT), records: 0, line, key, calls: 0 };
        sides.set(key, thread);
      }
      thread.source.add(item.text);
      thread.records++;
      const events = thread.events;
      const message = r.message as { content?: unknown } | undefined;
      const content = message?.content;
      if (r.type === 'user' && r.isMeta === true) {
        const text = typeof content === 'string' ? content : Array.isArray(content) ? (content as Block[]).map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n') : '';
        if (command && thread === main && text.trim() && !CAVEAT.test(text)) {
          // The prompt a slash command expanded into (/init's instructions, a custom command's
          // file with its ARGUMENTS): the person's request is the command as typed.
          const typed = `${command.name}${command.args ? ` ${command.args}` : ''}`;
          commandPrompts.push({ command: typed, prompt: text });
          events.push({ kind: 'user', text: command.args ? typed : `${typed}\n\n${text}`, line: command.line });
          if (command.args) leaveOut(`prompt of the slash command ${command.name}`, line, "the instructions the command's file gave the model around the person's words; kept in the root's provenance (claudeCode.commandPrompts)");
          command = null;
          continue;
        }
        leaveOut('message the harness added (isMeta)', line, 'written by Claude Code for the model (a caveat, a reminder), not by the person or a tool');
        continue;
      }
      if (thread === main) commandLeftOut();
      if (r.type === 'assistant' && (r.isApiErrorMessage === true || (message as { model?: unknown } | undefined)?.model === '<synthetic>')) {
        leaveOut("message the app wrote in the agent's place", line, 'Claude Code wrote it (model <synthetic>: an API error, a notice), not the model; nothing reached the environment');
        continue;
      }
      if (r.type === 'user' && r.isCompactSummary === true) {
        leaveOut('summary of the conversation so far (/compact)', line, "Claude Code's summary of earlier turns, written to save context; the turns themselves are in the file");
        continue;
      }
      const blocks: Block[] = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? (content as Block[]) : [];
      if (blocks.length === 0) {
        problems.push({ kind: 'problem', line, field: 'message.content', reason: 'a user or assistant record without message content' });
        continue;
      }
      let said: Extract<AgentEvent, { kind: 'user' }> | null = null;
      for (const [index, b] of blocks.entries()) {
        if (r.type === 'assistant') {
          if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') {
            // The input's text as the line wrote it, so the action keeps its numbers and key order.
            const raw = typeof b.input === 'object' && b.input !== null ? rawValueAt(item.text, ['message', 'content', index, 'input']) : null;
            events.push({ kind: 'call', id: b.id, name: b.name, arguments: b.input ?? {}, rawArguments: raw, line });
            if (thread === main && typeof r.sessionId === 'string') callWrittenIn.set(b.id, r.sessionId);
            thread.calls++;
            const prompt = (b.input as { prompt?: unknown } | undefined)?.prompt;
            if (typeof prompt === 'string') taskPrompts.set(prompt, b.id);
          } else if (b.type === 'tool_use') problems.push({ kind: 'problem', line, field: 'message.content', reason: 'a tool_use block without a string "id" and "name": its result cannot be paired with it' });
          else if (b.type === 'thinking' && typeof b.thinking === 'string') events.push({ kind: 'thought', text: b.thinking, line });
          else if (b.type === 'text' && typeof b.text === 'string') events.push({ kind: 'thought', text: b.text, line });
          else if (b.type === 'redacted_thinking') leaveOut('redacted thinking block', line, 'the model provider encrypted it; there is no text to keep');
          else problems.push({ kind: 'problem', line, field: 'message.content', reason: blockNote('an assistant', b.type) });
        } else if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
          const result = resultText(b.content);
          if (b.is_error === true && (REFUSED.test(result.text) || r.toolUseResult === 'User rejected tool use')) {
            // The person (or the permission settings) did not let the call run: no step, said.
            const at = events.findLastIndex((e) => e.kind === 'call' && e.id === b.tool_use_id);
            if (at >= 0) {
              const call = events[at] as Extract<AgentEvent, { kind: 'call' }>;
              // The reasoning that led to it goes with it: it explains no call that ran.
              let from = at;
              while (from > 0 && events[from - 1]!.kind === 'thought') from--;
              events.splice(from, at - from + 1);
              thread.calls--;
              leaveOut(`call the person did not let run (${call.name})`, line, 'Claude Code did not run it: the person refused permission (or its settings did) or stopped the agent; nothing ran in the environment (the reasoning that led to it is left out with it)');
              continue;
            }
          }
          if (Array.isArray(b.content) && (b.content as Block[]).some((x) => x?.type === 'image')) leaveOut('image in a tool result', line, "Worldloom trajectories hold text; the observation says '(an image)' where the tool returned one");
          if (result.reminders && !reminders) reminderLine = line;
          reminders += result.reminders;
          events.push({ kind: 'result', id: b.tool_use_id, content: result.text, ...(b.is_error === true ? { isError: true } : {}), line });
        } else if (b.type === 'text' && typeof b.text === 'string' && BASH_INPUT.test(b.text)) {
          // The person ran a shell command themselves (`!` in Claude Code): a real terminal step.
          bashId = `bash-input-${line}`;
          if (thread === main && typeof r.sessionId === 'string') callWrittenIn.set(bashId, r.sessionId);
          events.push({ kind: 'call', id: bashId, name: 'Bash', arguments: { command: BASH_INPUT.exec(b.text)![1]! }, line });
          thread.calls++;
        } else if (b.type === 'text' && typeof b.text === 'string' && BASH_OUTPUT.test(b.text) && bashId) {
          const m = BASH_OUTPUT.exec(b.text)!;
          events.push({ kind: 'result', id: bashId, content: [m[1], m[2]].filter((x) => x && x.trim() !== '').join('\n'), line });
          bashId = null;
        } else if (b.type === 'text' && typeof b.text === 'string') {
          if (INTERRUPTED.test(b.text.trim())) leaveOut('interruption by the person', line, 'the person stopped the agent; nothing reached the environment');
          else if (thread === main && COMMAND_NAME.test(b.text)) {
            // Whether the command is the person's request (a prompt follows) or the app's own
            // business (/cost, /clear: its output follows) shows in the next record.
            commandLeftOut();
            command = { name: COMMAND_NAME.exec(b.text)![1]!, args: (COMMAND_ARGS.exec(b.text)?.[1] ?? '').trim(), line };
          } else if (HARNESS_TEXT.test(b.text)) leaveOut('slash command or its output', line, "the person ran one of Claude Code's own commands (/cost, /clear…); the app answered it, not the environment");
          else {
            const app = APP_TEXT.find((a) => a.pattern.test(b.text as string));
            if (app) leaveOut(app.what, line, app.reason);
            else if (said) said.text += `\n\n${b.text}`;
            else {
              // The person's words: the text blocks of one message are one message.
              said = { kind: 'user', text: b.text, line };
              events.push(said);
            }
          }
        } else if (b.type === 'image') leaveOut('image the person attached', line, 'Worldloom trajectories hold text; the image is not kept');
        else problems.push({ kind: 'problem', line, field: 'message.content', reason: blockNote('a user', b.type) });
      }
    }
    commandLeftOut();
    if (reminders) leaveOut(`${reminders} × reminder Claude Code appended to a tool result`, reminderLine, 'the harness told the model something (<system-reminder>) after what the tool returned; the observation keeps what the tool returned');
    yield* problems;
    if (printMode && !main.events.some((e) => e.kind === 'user')) {
      main.events.push({ kind: 'skip', what: 'the prompt', reason: 'print mode takes it on the command line and does not write it to the stream; the initial state holds only the working directory', line: null });
    }
    main.events.push(...tally.skips());
    // A resumed session's file opens with its copy of the conversation it resumed, written with that session's id: the session is the one written last.
    const resumedFrom = [...new Set(writtenIn.slice(0, -1))].filter((id) => id !== writtenIn.at(-1));
    if (resumedFrom.length) sessionId = writtenIn.at(-1);
    const agent = `Claude Code${version ? ` ${version}` : ''}`;
    const provenance = { ...(resumedFrom.length ? { resumedFrom } : {}), ...(summary ? { summary } : {}), ...(cwd ? { cwd } : {}), ...(version ? { version } : {}) };
    const elsewhere = options?.conversationIn;
    if (elsewhere && (main.records > 0 || main.events.some((e) => e.kind !== 'skip'))) {
      // A resumed session carried on in another file of this import (./continued.ts): imported from there, once.
      for (const ev of main.events) if (ev.kind === 'skip') yield { kind: 'skipped', line: ev.line, what: ev.what, reason: ev.reason };
      yield {
        kind: 'skipped',
        line: null,
        what: `the session's own conversation (${main.calls} tool call${main.calls === 1 ? '' : 's'})`,
        reason: elsewhere.copy
          ? `${elsewhere.file} holds the same conversation: Claude Code copied it there when the session was resumed, and nothing followed; it is imported from there, once`
          : `continued in ${elsewhere.file}: Claude Code copied the conversation into that session when this one was resumed, and it went on there; it is imported from there, once, with the turns that followed`,
      };
    } else if (main.calls > 0 || sides.size === 0) {
      // The session's own conversation, unless the file holds only subagents' (a subagent's own file).
      if (main.records === 0 && main.events.length === 0) return;
      const own = agentSessionItems(
        {
          format: FORMAT,
          file: source.name,
          agent,
          ...(sessionId ? { sessionId } : {}),
          sourceKey: main.source.key(),
          ...(summary ? { title: `${summary} (Claude Code)` } : {}),
          ...(cwd ? { setting: `Working directory: ${cwd}` } : {}),
          provenance: { claudeCode: { ...provenance, ...(commandPrompts.length ? { commandPrompts } : {}) } },
        },
        main.events,
        newId,
        now,
      );
      for (const item of own) {
        // A resumed session says how many of its first steps it copied from the session it resumed, so a later import can continue that session's trajectory (./resumed-in-workspace.ts).
        if (item.kind === 'trajectory' && resumedFrom.length) {
          // For each session it resumed: how many of its first steps run to the last one written in that session.
          const copiedSteps: Record<string, number> = {};
          for (const [i, n] of item.bundle.nodes.slice(1).entries()) {
            const written = callWrittenIn.get(String((n.provenance.tool as { callId?: unknown } | undefined)?.callId));
            if (written && written !== sessionId) copiedSteps[written] = i + 1;
          }
          (item.bundle.nodes[0]!.provenance.claudeCode as Record<string, unknown>).copiedSteps = copiedSteps;
        }
        yield item;
      }
    } else {
      // Only the app's own records besides the subagents: what was left out is still said.
      for (const ev of main.events) if (ev.kind === 'skip') yield { kind: 'skipped', line: ev.line, what: ev.what, reason: ev.reason };
      if (main.events.some((e) => e.kind !== 'skip')) yield { kind: 'skipped', line: main.line, what: 'the session\'s own messages (no tool call)', reason: 'the session only talked; its subagents made the tool calls and are imported as their own trajectories' };
    }
    let n = 0;
    for (const side of sides.values()) {
      n++;
      if (side.calls === 0) {
        // Newer versions run /compact as a subagent of its own (agent-acompact-*.jsonl): it only writes the summary.
        const compaction = side.key?.startsWith('acompact') === true;
        yield {
          kind: 'skipped',
          line: side.line,
          what: compaction ? `the compaction agent's conversation (${side.records} records)` : `subagent conversation ${n} (${side.records} records) without a tool call`,
          reason: compaction ? 'Claude Code summarising the session to save context; it calls no tool' : 'the subagent only talked (a warm-up, an answer from memory): there is no action and observation to import',
        };
        continue;
      }
      const first = side.events.find((e): e is Extract<AgentEvent, { kind: 'user' }> => e.kind === 'user');
      const taskCall = startedBy.get(side.key ?? '') ?? (first ? taskPrompts.get(first.text) : undefined);
      yield* agentSessionItems(
        {
          format: FORMAT,
          file: source.name,
          agent: `${agent} subagent`,
          ...(sessionId ? { sessionId: `${sessionId}:${side.key}` } : {}),
          sourceKey: side.source.key(),
          ...(summary ? { title: `${summary} (Claude Code subagent ${n})` } : {}),
          ...(cwd ? { setting: `Working directory: ${cwd}` } : {}),
          provenance: { claudeCode: { ...provenance, subagent: { key: side.key, ...(taskCall ? { taskCallId: taskCall } : {}) } } },
        },
        side.events,
        newId,
        now,
      );
    }
  },
};
