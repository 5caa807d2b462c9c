// SWE-agent trajectories (`<instance>.traj`, one JSON document per task instance): each
// step's action (a shell or editor command in the repository) and the observation the
// environment returned. Newer files list the steps in `trajectory`; some (demonstrations,
// function-calling runs) hold only the chat `history`, whose assistant messages carry the
// action and whose following tool/user messages carry the observation.
//
// What belongs to the agent stays the agent's: its thought is the node's agentReasoning
// (never the world model's reasoning), and its system prompt, its instructions and its
// demonstrations are not the environment. The environment description is ours plus the
// command list the environment offers; the initial state is the task and the shell's
// status line. The agent's own texts are kept in the root's provenance and reported as
// skipped, so nothing is dropped silently.
import { z } from 'zod';
import { chainBundle, type StepDraft } from '../../common/trajectory/build';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import type { TrajectoryImporter } from '../format';
import { contentKey } from '../../parsing/content-key';
import { contentText, jsonDocument, zodProblem } from '../../parsing/json-document';

const FORMAT = 'swe-agent';

const Seconds = z.union([z.number(), z.string().regex(/^\s*\d+(\.\d+)?(e[+-]?\d+)?\s*$/i)]).transform(Number);

const Step = z.looseObject({
  action: z.string(),
  observation: z.string().nullable().optional(),
  thought: z.string().nullable().optional(),
  execution_time: Seconds.nullable().optional(),
  state: z.unknown().optional(),
});

const ToolCall = z.looseObject({ function: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }).optional() });
const Message = z.looseObject({
  role: z.string(),
  content: z.unknown(),
  is_demo: z.boolean().optional(),
  thought: z.string().nullable().optional(),
  action: z.string().nullable().optional(),
  tool_calls: z.array(ToolCall).nullable().optional(),
  message_type: z.string().optional(),
});
type Message = z.infer<typeof Message>;

const Traj = z.looseObject({
  trajectory: z.array(z.unknown()).optional(),
  history: z.array(z.unknown()).optional(),
  info: z.looseObject({ exit_status: z.string().nullable().optional(), submission: z.string().nullable().optional() }).optional(),
  environment: z.string().optional(),
});

export const DEFAULT_SWE_SYSTEM_PROMPT =
  'SWE environment: a checked-out software repository in a Linux shell. Each action is a shell ' +
  'command or an editor command (view, search, edit, submit) run in the repository; each ' +
  'observation is what the command printed, or the edited file excerpt.';

/** The shell status SWE-agent appends to what the environment shows: open file, directory, prompt. */
const STATUS_TAIL = /\n*(\(Open file: [^\n]*\)\n\(Current directory: [^\n]*\)\n?[^\n]*\$?)\s*$/;
const INSTRUCTIONS = /\n+INSTRUCTIONS:\n/;

/** The task statement and the shell's status out of the agent's first message; the rest is the agent's instructions. */
export function splitTaskMessage(text: string): { initialState: string; instructions: string | null } {
  const status = STATUS_TAIL.exec(text);
  const body = status ? text.slice(0, status.index) : text;
  const at = INSTRUCTIONS.exec(body);
  const task = (at ? body.slice(0, at.index) : body).trim();
  const instructions = at ? body.slice(at.index).trim() : null;
  return { initialState: status ? `${task}\n\n${status[1]!.trim()}` : task, instructions };
}

/** The commands the environment offers, as the agent's system prompt documents them (COMMANDS: …). */
export function commandList(systemPrompt: string): string | null {
  const at = systemPrompt.indexOf('COMMANDS:\n');
  if (at < 0) return null;
  const rest = systemPrompt.slice(at);
  const ends = ['\n\nPlease note', '\n\nRESPONSE FORMAT', '\n\nIf you'].map((m) => rest.indexOf(m)).filter((i) => i > 0);
  return rest.slice(0, ends.length ? Math.min(...ends) : rest.length).trim();
}

function describeEnvironment(systemPrompt: string | null, toolNames: readonly string[]): string {
  const commands = systemPrompt ? commandList(systemPrompt) : null;
  if (commands) return `${DEFAULT_SWE_SYSTEM_PROMPT}\n\nBesides shell commands, the environment provides these ${commands}`;
  if (toolNames.length) return `${DEFAULT_SWE_SYSTEM_PROMPT}\n\nTools the agent called: ${toolNames.join(', ')}.`;
  return DEFAULT_SWE_SYSTEM_PROMPT;
}

function stateOf(state: unknown): unknown {
  if (typeof state !== 'string') return state;
  try {
    return JSON.parse(state) as unknown;
  } catch {
    // Older files write a Python dict's repr; kept as the text it is.
    return state.trim();
  }
}

const clean = (text: string | null | undefined) => (text?.trim() ? text.trim() : null);

/** Steps from the `trajectory` list. */
function* trajectorySteps(list: readonly unknown[], file: string, steps: StepDraft[]): Iterable<ImportItem> {
  for (const [i, raw] of list.entries()) {
    const step = Step.safeParse(raw);
    if (!step.success) {
      yield zodProblem(step.error, ['trajectory', i]);
      continue;
    }
    const { action, observation, thought, execution_time, state } = step.data;
    if (action.trim() === '') {
      // A reply the agent's parser could not read (a format error): the harness answered it, not the repository.
      yield { kind: 'skipped', line: null, what: `trajectory.${i} (a step with no action)`, reason: `nothing ran in the environment; the harness answered: ${(observation ?? '').split('\n')[0]!.slice(0, 120)}` };
      continue;
    }
    steps.push({
      action: action.replace(/\s+$/, ''),
      observation: observation ?? '',
      agentReasoning: clean(thought),
      origin: 'real',
      provenance: {
        source: { format: FORMAT, file },
        step: i,
        ...(execution_time != null ? { timings: { executionSeconds: execution_time } } : {}),
        ...(state !== undefined && state !== null && state !== '' ? { sweAgent: { state: stateOf(state) } } : {}),
      },
    });
  }
}

/** The action an assistant history message took: its `action` field, else its tool call. */
function historyAction(m: Message): string | null {
  if (typeof m.action === 'string' && m.action.trim() !== '') return m.action.replace(/\s+$/, '');
  const call = m.tool_calls?.[0]?.function;
  if (call) return JSON.stringify({ name: call.name, arguments: typeof call.arguments === 'string' ? safeJson(call.arguments) : (call.arguments ?? {}) });
  return null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Steps from `history` alone: each assistant action paired with the tool/user messages after it. */
function* historySteps(messages: readonly { m: Message; index: number }[], file: string, steps: StepDraft[]): Iterable<ImportItem> {
  for (let k = 0; k < messages.length; k++) {
    const { m, index } = messages[k]!;
    if (m.role !== 'assistant') continue;
    const action = historyAction(m);
    const replies: string[] = [];
    while (k + 1 < messages.length && messages[k + 1]!.m.role !== 'assistant') replies.push(contentText(messages[++k]!.m.content));
    if (action === null) {
      yield { kind: 'skipped', line: null, what: `history.${index} (an assistant message without an action)`, reason: 'no command reached the environment, so there is no turn to import' };
      continue;
    }
    steps.push({
      action,
      observation: replies.join('\n'),
      agentReasoning: clean(m.thought ?? contentText(m.content)),
      origin: 'real',
      provenance: { source: { format: FORMAT, file }, step: steps.length, historyIndex: index },
    });
  }
}

export const sweAgentImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'SWE-agent trajectory (.traj)',
  detect(name, head) {
    if (/\.traj$/i.test(name)) return 0.9;
    const start = head.trimStart();
    if (start.startsWith('{') && /"(trajectory|history)"\s*:/.test(head) && /"(observation|thought|agent)"/.test(head) && !head.includes('"schema_version"') && !head.includes('mini-swe-agent')) {
      return 0.7;
    }
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const text = source.text();
    const value = yield* jsonDocument(text);
    if (value === undefined) return;
    const parsed = Traj.safeParse(value);
    if (!parsed.success) {
      yield zodProblem(parsed.error);
      return;
    }
    const traj = parsed.data;
    if (!traj.trajectory && !traj.history) {
      yield {
        kind: 'problem',
        line: null,
        field: 'trajectory',
        reason: 'the file has neither a "trajectory" list of steps nor a "history" of messages, so it holds no SWE-agent turns; is it a SWE-agent .traj file?',
      };
      return;
    }
    const history: { m: Message; index: number }[] = [];
    let demos = 0;
    for (const [index, raw] of (traj.history ?? []).entries()) {
      const msg = Message.safeParse(raw);
      if (!msg.success) {
        yield zodProblem(msg.error, ['history', index]);
        continue;
      }
      if (msg.data.is_demo) demos++;
      else history.push({ m: msg.data, index });
    }
    const systemAt = history.findIndex((h) => h.m.role === 'system');
    const taskAt = history.findIndex((h) => h.m.role === 'user');
    const system = systemAt >= 0 ? contentText(history[systemAt]!.m.content) : null;
    const taskText = taskAt >= 0 ? contentText(history[taskAt]!.m.content) : null;

    const steps: StepDraft[] = [];
    if (traj.trajectory) yield* trajectorySteps(traj.trajectory, source.name, steps);
    else yield* historySteps(history.slice(taskAt + 1), source.name, steps);
    if (steps.length === 0) {
      yield { kind: 'problem', line: null, field: traj.trajectory ? 'trajectory' : 'history', reason: 'no step with an action was found, so there is nothing to import' };
      return;
    }

    const { initialState, instructions } = taskText ? splitTaskMessage(taskText) : { initialState: '', instructions: null };
    if (system !== null) {
      yield { kind: 'skipped', line: null, what: "the agent's system prompt", reason: "it tells the agent how to act, not what the environment is; kept in the root's provenance (sweAgent.agentSystemPrompt), and its command list is in the environment description" };
    }
    if (instructions) {
      yield { kind: 'skipped', line: null, what: "the agent's instructions in its first message", reason: "they are advice to the agent, not the environment's state; the task and the shell status are the initial state, the instructions are kept in the root's provenance (sweAgent.agentInstructions)" };
    }
    if (demos > 0) {
      yield { kind: 'skipped', line: null, what: `${demos} demonstration message${demos === 1 ? '' : 's'} (is_demo)`, reason: "a demonstration belongs to the agent's prompt, not to this environment's run" };
    }
    const toolNames = [...new Set(history.flatMap((h) => (h.m.tool_calls ?? []).flatMap((c) => (c.function ? [c.function.name] : []))))];
    const instance = source.name.replace(/\.(traj|json)$/i, '');
    const exitStatus = traj.info?.exit_status ?? null;
    yield {
      kind: 'trajectory',
      bundle: chainBundle(
        {
          title: `${instance} (SWE-agent${exitStatus ? `, ${exitStatus}` : ''})`,
          domain: 'swe',
          systemPrompt: describeEnvironment(system, toolNames),
          initialState,
          sourceKey: contentKey([FORMAT, text]),
          rootProvenance: {
            source: { format: FORMAT, file: source.name, sampleId: instance },
            sweAgent: {
              exitStatus,
              submitted: Boolean(traj.info?.submission),
              ...(traj.environment ? { environment: traj.environment } : {}),
              ...(system !== null ? { agentSystemPrompt: system } : {}),
              ...(instructions ? { agentInstructions: instructions } : {}),
            },
          },
          steps,
        },
        newId,
        now,
      ),
    };
  },
};
