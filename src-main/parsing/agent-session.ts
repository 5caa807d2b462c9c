// What the session logs of coding agents and eval harnesses turn into, whatever wrote them
// (Claude Code, Codex CLI, gemini-cli, Inspect AI, OpenTelemetry GenAI traces): each reader
// hands over the session as events in order (the task, the agent's thoughts, tool calls,
// tool results) and this pairs every call with its result by id. An answered call is a
// turn: a shell command as typed, any other tool as JSON {"name","arguments"}
// (./tool-call.ts); the result is the observation. The first user message is the initial
// state (the task). Everything else is said in `skipped`: later user messages, the agent's
// replies to the user, harness tools (a to-do list, a plan) that touch no environment, and
// calls the session ended before answering.
import { chainBundle, type StepDraft } from '../common/trajectory/build';
import type { Domain } from '../common/trajectory/model';
import { contentKey } from './content-key';
import type { IdFactory, ImportItem } from './import-item';
import { parseBoundedJson } from './json-limits';
import { toolCallAction } from './tool-call';

export type AgentEvent =
  /** A message from the person (or the harness speaking for them). */
  | { kind: 'user'; text: string; line: number | null }
  /** The agent's own words or reasoning; they go with its next call. */
  | { kind: 'thought'; text: string; line: number | null }
  /**
   * `rawArguments`: the arguments' JSON text as the source wrote it, kept as written in the action (`2.0` stays `2.0`).
   * `wholeCall`: a shell call whose other arguments change what it does (the folder it runs in, its timeout) is the whole call, not only its command.
   * `action`: the action's text as the session wrote it, for an agent that acts in its reply rather than by function call (aider's edit blocks); used as is.
   */
  | { kind: 'call'; id: string; name: string; arguments: unknown; rawArguments?: string | null; wholeCall?: boolean; action?: string; line: number | null }
  | { kind: 'result'; id: string; content: string; isError?: boolean; line: number | null }
  /** Something the reader read and left out on purpose. */
  | { kind: 'skip'; what: string; reason: string; line: number | null };

/**
 * What identifies the session across imports: the source lines it came from, or the key
 * already made from them (content-key.ts lineContentKey) by a reader that keeps no text. One
 * of them is required: without either, every session of a format would share one key, and a
 * second session would be taken for the first and left out.
 */
export type SessionIdentity = { sourceText: string; sourceKey?: never } | { sourceKey: string; sourceText?: never };

export type AgentSessionInfo = SessionInfoFields & SessionIdentity;

interface SessionInfoFields {
  format: string;
  file: string;
  /** Who recorded it, for the title and the environment description ("Claude Code 2.0.1"). */
  agent: string;
  /** The session's own id, when it has one. */
  sessionId?: string;
  /** Tools the session declared ({name, description}), for the environment description. */
  tools?: { name: string; description?: string }[];
  /** Kept on the root node's provenance. */
  provenance?: Record<string, unknown>;
  /** A prefix to the initial state (the working directory a session ran in). */
  setting?: string;
  /** The trajectory's title, when the session names itself; else the agent and the session id. */
  title?: string;
  /** What each action and observation is, when the agent does not act by tool calls (the environment description's first sentence and what follows it). */
  actions?: string;
}

/** Tools the agent's harness answers itself: they change no environment. */
const HARNESS_TOOLS = /^(TodoWrite|TodoRead|update_plan|think|task_tracker|finish|submit|ExitPlanMode|exit_plan_mode|write_todos|save_memory|mark_task_complete|AskUserQuestion|request_user_input)$/i;

type ToolKind = 'terminal' | 'swe' | 'web' | 'search' | 'other';

function toolKind(name: string): ToolKind {
  if (/^(web_?search|google_web_search|search)$|WebSearch/i.test(name)) return 'search';
  if (/browser|navigate|click|playwright|^page_|web_?fetch|WebFetch/i.test(name)) return 'web';
  if (/str_replace|edit|write|read|apply_patch|create_file|view|glob|grep|^ls$|list_dir|replace|notebook|search_file_content|read_many_files/i.test(name)) return 'swe';
  if (/bash|shell|terminal|exec|run_command|^run$|^sh$|^cmd$|local_shell/i.test(name)) return 'terminal';
  return 'other';
}

function domainOf(kinds: ReadonlySet<ToolKind>): Domain {
  if (kinds.has('swe')) return 'swe';
  if (kinds.has('terminal')) return 'terminal';
  if (kinds.has('web')) return 'web';
  if (kinds.has('search')) return 'search';
  return 'mcp';
}

/** Arguments given as a JSON string (OpenAI-style calls) as a value. */
export function parsedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  try {
    return parseBoundedJson(args);
  } catch {
    return args;
  }
}

const COMMAND_FIELDS = ['command', 'cmd', 'keystrokes', 'script'] as const;

/** `["bash", "-lc", "ls -la"]` → `ls -la`; another argv joined with spaces, quoting words that need it. */
function argvCommand(argv: readonly unknown[]): string | null {
  if (!argv.every((a) => typeof a === 'string')) return null;
  const words = argv as string[];
  if (words.length === 3 && /(^|\/)(ba|z|da|k)?sh$/.test(words[0]!) && /^-l?c$|^-cl$/.test(words[1]!)) return words[2]!;
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(' ');
}

/**
 * The action text: the command a shell tool ran, else the call as JSON, its arguments as the
 * source wrote them when their text is given.
 */
export function agentAction(name: string, args: unknown, rawArguments?: string | null, wholeCall = false): string {
  const value = parsedArguments(args);
  if (!wholeCall && toolKind(name) === 'terminal' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const field = COMMAND_FIELDS.find((f) => f in value);
    const command = field ? (value as Record<string, unknown>)[field] : undefined;
    if (typeof command === 'string') return command.replace(/\r?\n$/, '');
    if (Array.isArray(command)) {
      const text = argvCommand(command);
      if (text !== null) return text;
    }
  }
  return toolCallAction(name, value, typeof value === 'object' && value !== null ? rawArguments : null);
}

const firstLine = (text: string) => {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 100 ? `${line.slice(0, 97)}…` : line;
};

/** One session's events as a trajectory, with what was left out. */
export function* agentSessionItems(info: AgentSessionInfo, events: Iterable<AgentEvent>, newId: IdFactory, now: string): Iterable<ImportItem> {
  const skip = (line: number | null, what: string, reason: string): ImportItem => ({ kind: 'skipped', line, what, reason });
  let task: string | null = null;
  const thoughts: string[] = [];
  const later: string[] = [];
  const kinds = new Set<ToolKind>();
  interface Open {
    name: string;
    args: unknown;
    raw: string | null;
    wholeCall: boolean;
    text: string | undefined;
    line: number | null;
    thought: string | null;
    userMessages: string[];
    step?: StepDraft;
    harness: boolean;
  }
  const calls = new Map<string, Open>();
  const order: Open[] = [];
  const items: ImportItem[] = [];
  for (const ev of events) {
    if (ev.kind === 'skip') items.push(skip(ev.line, ev.what, ev.reason));
    else if (ev.kind === 'user') {
      if (task === null) task = ev.text;
      else {
        // What the agent said since its last call ended its turn: a reply to the person, not
        // the reasoning of the next call (which answers this new message).
        if (thoughts.length) {
          items.push(skip(ev.line, `the agent's reply to the person: ${firstLine(thoughts.join('\n'))}`, 'it answered the person after its last tool call; the next call answers their new message'));
          thoughts.length = 0;
        }
        later.push(ev.text);
        items.push(skip(ev.line, `a later user message: ${firstLine(ev.text)}`, "the person spoke to the agent; it is not the environment's output. Kept in the next turn's provenance (userMessages)"));
      }
    } else if (ev.kind === 'thought') {
      if (ev.text.trim()) thoughts.push(ev.text.trim());
    } else if (ev.kind === 'call') {
      const harness = HARNESS_TOOLS.test(ev.name);
      // A harness call (a to-do list) is not a step, so the reasoning before it stays for the
      // next call that is one, instead of leaving with the harness call.
      const open: Open = { name: ev.name, args: ev.arguments, raw: ev.rawArguments ?? null, wholeCall: ev.wholeCall ?? false, text: ev.action, line: ev.line, thought: !harness && thoughts.length ? thoughts.splice(0).join('\n\n') : null, userMessages: harness ? [] : later.splice(0), harness };
      if (calls.has(ev.id)) {
        items.push({ kind: 'problem', line: ev.line, field: 'id', reason: `tool call id ${JSON.stringify(ev.id)} is used twice; the second call was not read` });
        continue;
      }
      calls.set(ev.id, open);
      order.push(open);
    } else {
      const open = calls.get(ev.id);
      if (!open) {
        items.push({ kind: 'problem', line: ev.line, field: 'id', reason: ev.id ? `a tool result for ${JSON.stringify(ev.id)}, which no earlier call made: nothing to pair it with` : 'a tool result that names no call (its call id is missing): nothing to pair it with' });
        continue;
      }
      if (open.step || open.harness) {
        if (open.harness) {
          items.push(skip(open.line, `the harness call ${open.name} and its answer: ${firstLine(ev.content) || '(empty)'}`, "the agent told its own harness something (a to-do list, a plan, done) or asked the person a question; nothing ran in the environment"));
          open.harness = false;
          open.step = undefined;
          calls.delete(ev.id);
          order.splice(order.indexOf(open), 1);
        } else if (open.step) open.step.observation += `\n${ev.content}`;
        continue;
      }
      kinds.add(toolKind(open.name));
      open.step = {
        action: open.text ?? agentAction(open.name, open.args, open.raw, open.wholeCall),
        observation: ev.content,
        agentReasoning: open.thought,
        origin: 'real',
        provenance: {
          source: { format: info.format, file: info.file, ...(open.line !== null ? { line: open.line } : {}) },
          tool: { name: open.name, callId: ev.id, ...(ev.isError ? { isError: true } : {}) },
          ...(open.userMessages.length ? { userMessages: open.userMessages } : {}),
        },
      };
    }
  }
  for (const open of order) {
    if (open.step) continue;
    if (open.harness) items.push(skip(open.line, `the harness call ${open.name}`, 'the agent told its own harness something (a to-do list, a plan, done) or asked the person a question; nothing ran in the environment'));
    else items.push(skip(open.line, `the call ${firstLine(open.text ?? agentAction(open.name, open.args, open.raw, open.wholeCall))}`, 'the session ends (or was interrupted) before the tool answered it, so it has no observation'));
  }
  if (thoughts.length) items.push(skip(null, `the agent's last words: ${firstLine(thoughts.join('\n'))}`, 'a reply to the person after its last tool call, not an action on the environment'));
  yield* items;
  const steps = order.flatMap((o) => (o.step ? [o.step] : []));
  if (steps.length === 0) {
    yield { kind: 'problem', line: null, reason: `${info.sessionId ? `${info.sessionId}: ` : ''}no tool call with a result: the agent only talked, so there is no action and observation to import` };
    return;
  }
  const domain = domainOf(kinds);
  const tools = (info.tools ?? []).filter((t) => !HARNESS_TOOLS.test(t.name));
  const toolList = tools.length ? `\n\nTools the environment provides:\n${tools.map((t) => `- ${t.name}${t.description ? `: ${t.description.split('\n')[0]!.trim()}` : ''}`).join('\n')}` : '';
  const where = domain === 'terminal' ? 'Terminal' : domain === 'swe' ? 'Software engineering' : domain === 'web' ? 'Web' : domain === 'search' ? 'Search' : 'Tool';
  yield {
    kind: 'trajectory',
    bundle: chainBundle(
      {
        title: info.title ?? `${info.agent} · ${info.sessionId ?? info.file}`,
        domain,
        systemPrompt:
          `${where} environment of a ${info.agent} session. ` +
          (info.actions ?? 'Each action is a tool call: a shell command as typed, any other tool as JSON {"name", "arguments"}; each observation is what the tool returned.') +
          toolList,
        initialState: [info.setting, task].filter((s) => s && s.trim()).join('\n\n'),
        sourceKey: info.sourceKey ?? contentKey([info.format, info.sourceText]),
        rootProvenance: {
          source: { format: info.format, file: info.file, ...(info.sessionId ? { sampleId: info.sessionId } : {}) },
          ...(info.provenance ?? {}),
        },
        steps,
      },
      newId,
      now,
    ),
  };
}

/**
 * What a reader left out on purpose, counted by kind: many reasons repeat hundreds of times in a
 * long session, so each kind is said once, as "N × what", at the line it was first seen.
 */
export class LeftOutTally {
  private readonly kinds = new Map<string, { count: number; line: number | null; reason: string }>();

  add(what: string, line: number | null, reason: string): void {
    const kind = this.kinds.get(what);
    if (kind) kind.count++;
    else this.kinds.set(what, { count: 1, line, reason });
  }

  /** One skip event per kind, in the order the kinds were first seen (a `what` that already counts itself is kept as is). */
  skips(): Extract<AgentEvent, { kind: 'skip' }>[] {
    return [...this.kinds].map(([what, k]) => ({ kind: 'skip', what: /^\d+ × /.test(what) ? what : `${k.count} × ${what}`, reason: k.reason, line: k.line }));
  }
}
