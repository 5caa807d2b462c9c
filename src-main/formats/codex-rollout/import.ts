// Codex CLI session rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): one record per
// line, `{timestamp, type, payload}`. `response_item` payloads are the model's items: user
// and assistant messages, reasoning summaries, `function_call` (the shell tool, its command
// an argv such as ["bash", "-lc", "ls"]) and `custom_tool_call` (apply_patch, its input the
// patch), each answered by a `*_output` item with the same call_id. ../../parsing/agent-session.ts pairs
// them. Older rollouts (before the typed records) hold the items bare after a
// `{id, timestamp, instructions}` first line; both are read.
// A command's output is what it printed: the run details newer versions write before it
// ("Exit code: 1", "Wall time: …", unified exec's "Chunk ID: …", then "Output:") are taken off,
// the exit code kept as the step's error mark. A shell command the person ran themselves (`!`,
// a `<user_shell_command>` message with its result) is a step too.
// Left out, and said: `event_msg` records (the UI's copy of the same turn: user and agent
// messages, token counts, command events), `turn_context` (the settings of each turn), the
// harness's own messages (developer instructions, AGENTS.md, the environment context, which
// is kept in the root's provenance), its work-tree snapshots for /undo (`ghost_snapshot`) and
// reasoning that is only encrypted.
import { agentSessionItems, parsedArguments, type AgentEvent, LeftOutTally } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { jsonLines } from '../../parsing/json-lines';
import { lineContentKey } from '../../parsing/content-key';
import { rawValueAt } from '../../parsing/json-raw';

const FORMAT = 'codex-rollout';

type Item = Record<string, unknown>;

/** Message content parts ({type: input_text|output_text|text, text}) as text. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: { text?: unknown; type?: unknown }) => (typeof p?.text === 'string' ? p.text : p?.type === 'input_image' ? '(an image)' : '')).join('\n');
}

/**
 * The run details Codex writes before a command's output when it returns it as text: the
 * shell tool's "Exit code: 0 / Wall time: 0.1 seconds / Output:" (and "Duration:", "Total
 * output lines:"), unified exec's "Chunk ID: … / Process exited with code 0 / Original token
 * count: … / Output:" ("Command:" first in some versions; "Process running with session ID
 * 3" while it runs on).
 */
const RUN_DETAILS = /^((?:(?:Command: |Chunk ID: |Wall time: |Duration: |Exit code: |Process exited with code |Process running with session ID |Original token count: |Total output lines: )[^\n]*\n)+)Output:(?:\n|$)/;
const EXIT_CODE = /^(?:Exit code: |Process exited with code )(-?\d+)\s*$/m;

/** A command's output without its run details, and the exit code they gave. */
function withoutRunDetails(text: string): { text: string; exitCode?: number; details: boolean } {
  const m = RUN_DETAILS.exec(text);
  if (!m) return { text, details: false };
  const code = EXIT_CODE.exec(m[1]!);
  return { text: text.slice(m[0].length), ...(code ? { exitCode: Number(code[1]) } : {}), details: true };
}

/** A call's output: the shell tool wraps it as JSON {output, metadata: {exit_code}} or writes its run details before it as text; others are text or content parts. */
function outputText(output: unknown): { text: string; exitCode?: number; details?: boolean } {
  if (Array.isArray(output)) return withoutRunDetails(partsText(output));
  if (typeof output !== 'string') return { text: output === undefined || output === null ? '' : JSON.stringify(output) };
  if (output.startsWith('{')) {
    const value = parsedArguments(output) as { output?: unknown; metadata?: { exit_code?: unknown } };
    if (typeof value === 'object' && value !== null && typeof value.output === 'string') {
      return { text: value.output, ...(typeof value.metadata?.exit_code === 'number' ? { exitCode: value.metadata.exit_code } : {}) };
    }
  }
  return withoutRunDetails(output);
}

/**
 * User-role messages Codex itself writes (its "session prefix" and contextual messages across
 * versions): the environment context, AGENTS.md and skill instructions, an aborted turn, a
 * subagent's notification, context updates. Not the person's words.
 */
const HARNESS_USER_TEXT = /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions|<INSTRUCTIONS>|<user_shell_command>|<turn_aborted>|<skill[\s>]|<subagent_notification>|<context_update>|<tool_context>|<reasoning_context>)/i;
/** A shell command the person ran (`!cmd`), as Codex tells the model about it: the command, then its result with run details. */
/**
 * Whether a shell call's arguments hold more than its command (exec_command's `workdir`,
 * `timeout_ms`, `yield_time_ms`…): then the action is the whole call as the model made it, so a
 * session working in several folders keeps where each command ran.
 */
function ranWith(args: unknown): boolean {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return false;
  const keys = Object.keys(args).filter((k) => (args as Record<string, unknown>)[k] !== null && (args as Record<string, unknown>)[k] !== undefined);
  return keys.some((k) => k === 'command' || k === 'cmd') && keys.some((k) => k !== 'command' && k !== 'cmd');
}

const USER_SHELL = /^\s*<user_shell_command>\n<command>\n([\s\S]*?)\n<\/command>\n<result>\n([\s\S]*)\n<\/result>\n<\/user_shell_command>\s*$/;

/**
 * The command inside the shell wrapper `codex exec --json` reports (`/bin/zsh -lc 'ls -la'`,
 * `bash -lc ls`): the command as typed. A wrapper it cannot take apart is kept whole.
 */
function shellInner(command: string): string {
  const m = /^(?:\S*\/)?(?:ba|z|da|k)?sh\s+-l?c\s+([\s\S]+)$/.exec(command);
  if (!m) return command;
  const arg = m[1]!;
  if (/^'(?:[^']|'\\'')*'$/.test(arg)) return arg.slice(1, -1).replace(/'\\''/g, "'");
  if (/^"(?:[^"\\]|\\.)*"$/.test(arg)) return arg.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  return /^[^\s'"\\]+$/.test(arg) ? arg : command;
}

/** What Codex answers for a call it did not run: declined by the person or the policy, or cut off by an interrupt. */
const NOT_RUN = /^(exec command rejected( by user|: )|patch rejected( by user|: )|aborted$|aborted by user)/;

/** The events `codex exec --json` prints: a run's bookkeeping, and items as they start, change and complete. */
const EXEC_JSON_EVENT = /^(thread\.started|turn\.started|turn\.completed|turn\.failed|item\.started|item\.updated|item\.completed|error)$/;

export const codexRolloutImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'Codex CLI session rollout JSONL',
  detect(name, head) {
    const first = head.split('\n').find((l) => l.trim() !== '') ?? '';
    if (/"type"\s*:\s*"(session_meta|response_item|turn_context|event_msg)"/.test(first) && /"payload"\s*:/.test(first)) return 0.96;
    // `codex exec --json` (headless runs, CI): a thread, then turns of items.
    if (/"type"\s*:\s*"thread\.started"/.test(first) && /"thread_id"\s*:/.test(first)) return 0.93;
    // The same output captured with what Codex printed before it (a warning, "Reading prompt from stdin…"): text lines, then the thread.
    const firstJson = head.split('\n').find((l) => l.trimStart().startsWith('{')) ?? '';
    if (!first.trimStart().startsWith('{') && /"type"\s*:\s*"thread\.started"/.test(firstJson) && /"thread_id"\s*:/.test(firstJson)) return 0.92;
    if (/"type"\s*:\s*"turn\.started"/.test(first) && /"type"\s*:\s*"item\.(started|completed)"/.test(head)) return 0.9;
    if (/(^|[\\/])rollout-[^\\/]*\.jsonl$/i.test(name) && /"(instructions|record_type)"\s*:|"type"\s*:\s*"(message|function_call|reasoning)"/.test(head)) return 0.9;
    // An older rollout under another name: its first line is the session ({id, timestamp,
    // instructions or git}, no type), then bare response items and state records.
    if (/^\{/.test(first.trim()) && /"id"\s*:/.test(first) && /"timestamp"\s*:/.test(first) && /"(instructions|git|originator|cli_version)"\s*:/.test(first) && !/"type"\s*:/.test(first)) {
      const rest = head.slice(head.indexOf(first) + first.length);
      if (/"record_type"\s*:\s*"state"|"type"\s*:\s*"(message|function_call|function_call_output|reasoning|local_shell_call)"/.test(rest)) return 0.88;
    }
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const events: AgentEvent[] = [];
    // The key of the lines read (their text is not kept: a rollout can be very large).
    const lines = lineContentKey(FORMAT);
    let records = 0;
    const problems: ImportItem[] = [];
    const meta: Record<string, unknown> = {};
    const harness: string[] = [];
    let details = 0;
    let detailsLine = 0;
    const tally = new LeftOutTally();
    const leaveOut = (what: string, line: number, reason: string) => tally.add(what, line, reason);
    /** A call Codex answered without running it (the person declined, or stopped the turn): no step, said with the reasoning before it. */
    const dropCall = (id: string, line: number): boolean => {
      const at = events.findLastIndex((e) => e.kind === 'call' && e.id === id);
      if (at < 0) return false;
      const call = events[at] as Extract<AgentEvent, { kind: 'call' }>;
      let from = at;
      while (from > 0 && events[from - 1]!.kind === 'thought') from--;
      events.splice(from, at - from + 1);
      leaveOut(`call that did not run (${call.name})`, line, 'Codex did not run it: the person declined it (or the approval policy did) or stopped the turn; nothing ran in the environment (the reasoning that led to it is left out with it)');
      return true;
    };
    /** Whether this is `codex exec --json` output rather than a rollout: its prompt is not in it. */
    let execJson = false;
    const readExecEvent = (r: Item, line: number) => {
      if (r.type === 'thread.started') {
        if (typeof r.thread_id === 'string') meta.id ??= r.thread_id;
        return;
      }
      if (r.type !== 'item.completed') {
        const failed = r.type === 'turn.failed' || r.type === 'error';
        leaveOut(`${String(r.type)} event`, line, failed ? 'the run reported an error of its own (the model or the connection), not a result of a tool' : String(r.type).startsWith('item.') ? 'an item in progress; its completed event is read' : "the run's own bookkeeping (turns and their token counts)");
        return;
      }
      const it = (r.item ?? {}) as Item;
      const id = typeof it.id === 'string' ? it.id : `item-${line}`;
      switch (it.type) {
        case 'reasoning':
        case 'agent_message':
          if (typeof it.text === 'string') events.push({ kind: 'thought', text: it.text, line });
          break;
        case 'command_execution': {
          if (it.status === 'declined') {
            events.push({ kind: 'call', id, name: 'shell', arguments: {}, line });
            dropCall(id, line);
            break;
          }
          const failed = (typeof it.exit_code === 'number' && it.exit_code !== 0) || it.status === 'failed';
          events.push({ kind: 'call', id, name: 'shell', arguments: { command: typeof it.command === 'string' ? shellInner(it.command) : it.command }, line });
          events.push({ kind: 'result', id, content: typeof it.aggregated_output === 'string' ? it.aggregated_output : '', ...(failed ? { isError: true } : {}), line });
          break;
        }
        case 'mcp_tool_call': {
          const name = `mcp__${String(it.server)}__${String(it.tool)}`;
          const error = (it.error as { message?: unknown } | null | undefined)?.message;
          const content = (it.result as { content?: unknown } | null | undefined)?.content;
          events.push({ kind: 'call', id, name, arguments: it.arguments ?? {}, rawArguments: rawValueAt(lineText, ['item', 'arguments']), line });
          events.push({ kind: 'result', id, content: typeof error === 'string' ? error : partsText(content), ...(typeof error === 'string' || it.status === 'failed' ? { isError: true } : {}), line });
          break;
        }
        case 'file_change':
          // The patch's text is not in the event: the files it changed and whether it applied are.
          events.push({ kind: 'call', id, name: 'file_change', arguments: { changes: it.changes ?? [] }, rawArguments: rawValueAt(lineText, ['item', 'changes']) !== null ? `{"changes":${rawValueAt(lineText, ['item', 'changes'])}}` : null, line });
          events.push({ kind: 'result', id, content: typeof it.status === 'string' ? it.status : '', ...(it.status === 'failed' ? { isError: true } : {}), line });
          break;
        case 'web_search':
          leaveOut('web search the provider ran', line, 'the model provider searched on its side; the run holds no result to observe');
          break;
        case 'todo_list':
        case 'plan_update':
          leaveOut(`${it.type} item`, line, 'the agent told its own harness its plan; nothing ran in the environment');
          break;
        case 'error':
          leaveOut('error item', line, 'the run reported an error of its own, not a result of a tool');
          break;
        default:
          problems.push({ kind: 'problem', line, field: 'item.type', reason: typeof it.type === 'string' ? `an item of type ${JSON.stringify(it.type)} that this reader does not know` : 'an item without a "type" (command_execution, agent_message…)' });
      }
    };
    let lineText = '';
    // Lines that are not JSON before the first record: text Codex printed before `exec --json`'s events, when both were captured together.
    const before: Extract<ImportItem, { kind: 'problem' }>[] = [];
    for (const rec of jsonLines(source)) {
      if (rec.kind === 'problem') {
        if (records === 0 && rec.reason.startsWith('not valid JSON')) before.push(rec);
        else problems.push(rec);
        continue;
      }
      const line = rec.lineNo;
      lineText = rec.text;
      lines.add(rec.text);
      records++;
      const r = rec.value as Item;
      if (typeof r !== 'object' || r === null) {
        problems.push({ kind: 'problem', line, reason: 'a rollout line is a JSON object' });
        continue;
      }
      if (typeof r.type === 'string' && EXEC_JSON_EVENT.test(r.type) && r.payload === undefined) {
        execJson = true;
        readExecEvent(r, line);
        continue;
      }
      let item: Item;
      if (r.type === 'session_meta' && typeof r.payload === 'object' && r.payload !== null) {
        Object.assign(meta, r.payload);
        continue;
      } else if (r.type === 'response_item' && typeof r.payload === 'object' && r.payload !== null) item = r.payload as Item;
      else if (r.type === 'event_msg') {
        leaveOut('event_msg record', line, "the UI's copy of the same turn (user and agent messages, token counts, command events); the response items hold it");
        continue;
      } else if (r.type === 'turn_context') {
        leaveOut('turn_context record', line, "each turn's settings (model, sandbox, approval policy), not a message");
        continue;
      } else if (r.type === 'compacted') {
        leaveOut('compaction summary', line, "the harness summarised the context to save space; nothing reached the environment");
        continue;
      } else if (r.record_type === 'state') {
        leaveOut('state record', line, "the CLI's own bookkeeping, not a message");
        continue;
      } else if (line === 1 && typeof r.id === 'string' && r.type === undefined) {
        // An older rollout's first line: the session's id, time and instructions.
        Object.assign(meta, r);
        continue;
      } else if (typeof r.type === 'string' && r.payload === undefined) item = r;
      else {
        problems.push({ kind: 'problem', line, field: 'type', reason: r.type === undefined ? 'a record without a "type"; each line of a rollout is a record with a type and a payload' : `a record of type ${JSON.stringify(r.type)} that this reader does not know` });
        continue;
      }
      switch (item.type) {
        case 'message': {
          // An image the person attached is not text to keep: said, not written into the task as a placeholder.
          const images = item.role === 'user' && Array.isArray(item.content) ? item.content.filter((p: { type?: unknown }) => p?.type === 'input_image').length : 0;
          if (images) leaveOut('image the person attached', line, 'Worldloom trajectories hold text; the image is not kept');
          const text = partsText(images ? (item.content as { type?: unknown }[]).filter((p) => p?.type !== 'input_image') : item.content);
          const shell = item.role === 'user' ? USER_SHELL.exec(text) : null;
          if (item.role === 'assistant') events.push({ kind: 'thought', text, line });
          else if (item.role === 'user' && !HARNESS_USER_TEXT.test(text)) events.push({ kind: 'user', text, line });
          else if (shell) {
            // The person ran a shell command themselves: a real terminal step.
            const id = `user-shell-${line}`;
            const result = withoutRunDetails(shell[2]!);
            if (result.details && !details++) detailsLine = line;
            events.push({ kind: 'call', id, name: 'shell', arguments: { command: shell[1]! }, line });
            events.push({ kind: 'result', id, content: result.text, ...(result.exitCode !== undefined && result.exitCode !== 0 ? { isError: true } : {}), line });
          }
          else {
            harness.push(text);
            leaveOut(`${typeof item.role === 'string' ? item.role : 'a'} message the harness wrote (instructions, environment context)`, line, "Codex's own instructions and settings for the model; kept in the root's provenance (codex.harnessMessages)");
          }
          break;
        }
        case 'reasoning': {
          const summary = Array.isArray(item.summary) ? partsText(item.summary) : '';
          const content = Array.isArray(item.content) ? partsText(item.content) : '';
          const text = [summary, content].filter(Boolean).join('\n\n');
          if (text) events.push({ kind: 'thought', text, line });
          else leaveOut('encrypted reasoning', line, 'the model provider encrypted it; there is no text to keep');
          break;
        }
        case 'function_call': {
          const args = parsedArguments(item.arguments);
          // The arguments' text as the model wrote it, so the action keeps its numbers as written.
          const raw = typeof item.arguments === 'string' && typeof args === 'object' && args !== null ? item.arguments : null;
          events.push({ kind: 'call', id: String(item.call_id ?? item.id), name: String(item.name), arguments: args, rawArguments: raw, ...(ranWith(args) ? { wholeCall: true } : {}), line });
          break;
        }
        case 'custom_tool_call':
          events.push({ kind: 'call', id: String(item.call_id ?? item.id), name: String(item.name), arguments: item.input, line });
          break;
        case 'local_shell_call': {
          const { type: _exec, ...action } = (item.action ?? {}) as Record<string, unknown>;
          // The folder, timeout and environment it ran with are kept beside the command, as Codex wrote them.
          events.push({ kind: 'call', id: String(item.call_id ?? item.id), name: 'local_shell', arguments: action, rawArguments: Object.keys(action).length > 1 ? JSON.stringify(action) : null, ...(ranWith(action) ? { wholeCall: true } : {}), line });
          break;
        }
        case 'function_call_output':
        case 'custom_tool_call_output':
        case 'local_shell_call_output': {
          const { text, exitCode, details: had } = outputText(item.output);
          if (Array.isArray(item.output) && item.output.some((x: { type?: unknown }) => x?.type === 'input_image')) leaveOut('image in a tool result', line, "Worldloom trajectories hold text; the observation says '(an image)' where the tool returned one");
          if (had && !details++) detailsLine = line;
          if (NOT_RUN.test(text) && dropCall(String(item.call_id), line)) break;
          events.push({ kind: 'result', id: String(item.call_id), content: text, ...(exitCode !== undefined && exitCode !== 0 ? { isError: true } : {}), line });
          break;
        }
        case 'ghost_snapshot':
          leaveOut('work-tree snapshot (ghost_snapshot)', line, "Codex's own git snapshot of the work tree, kept so /undo can restore it; nothing ran in the environment");
          break;
        case 'web_search_call':
          leaveOut('web search the provider ran', line, "the model provider searched on its side; the rollout holds no result to observe");
          break;
        default:
          problems.push({ kind: 'problem', line, field: 'payload.type', reason: typeof item.type === 'string' ? `an item of type ${JSON.stringify(item.type)} that this reader does not know` : 'a payload without a "type" (message, function_call, function_call_output…)' });
      }
    }
    if (before.length && execJson) events.push({ kind: 'skip', what: `${before.length} line${before.length === 1 ? '' : 's'} of text before the run's first event`, reason: "what Codex printed besides its JSON events (a warning, a note that it reads the prompt), captured with them; not part of the run", line: before[0]!.line });
    else problems.unshift(...before);
    if (details) leaveOut(`${details} × run details before a command's output`, detailsLine, "Codex's note of how the command ran (exit code, wall time, token count), not what it printed; a non-zero exit code marks the step as an error");
    if (execJson && !events.some((e) => e.kind === 'user')) {
      events.push({ kind: 'skip', what: 'the prompt', reason: '`codex exec --json` takes it on the command line and does not print it; the initial state is empty', line: null });
    }
    yield* problems;
    events.push(...tally.skips());
    if (records === 0) return;
    const version = typeof meta.cli_version === 'string' ? meta.cli_version : undefined;
    // Older rollouts name the working directory only in the environment context they sent the model.
    const contextCwd = harness.map((h) => /<cwd>([^<\n]+)<\/cwd>|^Current working directory: (.+)$/m.exec(h)).find((m) => m);
    const cwd = typeof meta.cwd === 'string' ? meta.cwd : contextCwd ? (contextCwd[1] ?? contextCwd[2])!.trim() : undefined;
    yield* agentSessionItems(
      {
        format: FORMAT,
        file: source.name,
        agent: `Codex CLI${version ? ` ${version}` : ''}`,
        ...(typeof meta.id === 'string' ? { sessionId: meta.id } : {}),
        sourceKey: lines.key(),
        ...(cwd ? { setting: `Working directory: ${cwd}` } : {}),
        provenance: {
          codex: {
            ...(cwd ? { cwd } : {}),
            ...(version ? { cliVersion: version } : {}),
            ...(typeof meta.instructions === 'string' ? { instructions: meta.instructions } : {}),
            // Newer versions (about 0.13x on) name them base_instructions, an object {text}.
            ...(typeof (meta.base_instructions as { text?: unknown } | undefined)?.text === 'string' ? { instructions: (meta.base_instructions as { text: string }).text } : {}),
            ...(harness.length ? { harnessMessages: harness } : {}),
          },
        },
      },
      events,
      newId,
      now,
    );
  },
};
