// mini-swe-agent trajectories: older files are a bare JSON list of chat messages, newer ones
// (`trajectory_format: "mini-swe-agent-1"`) `{info, messages}`. Each assistant message holds
// the agent's thought and exactly one fenced bash command; the user message after it holds
// what the command returned (`<returncode>`, `<output>`). The agent's system prompt and the
// instructions around the task are the agent's, not the environment: they are kept in the
// root's provenance and reported as skipped. The thought is the node's agentReasoning.
import { z } from 'zod';
import { chainBundle, type StepDraft } from '../../common/trajectory/build';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import type { TrajectoryImporter } from '../format';
import { contentKey } from '../../parsing/content-key';
import { contentText, jsonDocument, zodProblem } from '../../parsing/json-document';
import { shellCommandOf, toolCallAction } from '../../parsing/tool-call';

const FORMAT = 'mini-swe-agent';

const Message = z.looseObject({
  role: z.string(),
  content: z.unknown(),
  reasoning_content: z.string().nullable().optional(),
  // v2 with a tool-calling model: the command is a `bash` tool call, its output a `tool` message.
  tool_calls: z.array(z.looseObject({ function: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }) })).nullable().optional(),
});
type Message = z.infer<typeof Message>;
const Doc = z.union([
  z.array(z.unknown()),
  z.looseObject({
    messages: z.array(z.unknown()),
    trajectory_format: z.string().optional(),
    info: z
      .looseObject({
        exit_status: z.string().nullable().optional(),
        submission: z.string().nullable().optional(),
        mini_version: z.string().optional(),
        config: z.looseObject({ agent: z.looseObject({ instance_template: z.string().optional() }).optional() }).optional(),
      })
      .optional(),
  }),
]);

export const MINI_SWE_SYSTEM_PROMPT =
  'Shell environment of a software task: a Linux machine with the task\'s files, driven through bash. ' +
  'Each action is one bash command, run in a new subshell (a cd or a variable does not carry over to the next action); ' +
  'each observation is what the command printed.';

/** The commands mini-swe-agent's harness treats as "I am done": not an environment turn. */
const SUBMIT = /^\s*echo\s+(COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT)\b/;
const FENCE = /```(?:bash|sh|shell|mswea_bash_command)?[ \t]*\n([\s\S]*?)\n?```/g;

/** The agent's command (its one fenced block) and its thought (the rest), or null when it gave not exactly one. */
export function commandOf(text: string): { action: string; thought: string } | null {
  const blocks = [...text.matchAll(FENCE)];
  if (blocks.length !== 1) return null;
  const block = blocks[0]!;
  const thought = (text.slice(0, block.index) + text.slice(block.index + block[0].length)).trim().replace(/^THOUGHT:\s*/, '');
  return { action: block[1]!.replace(/\s+$/, ''), thought };
}

/** A v2 tool call as the command it runs, the message's text as the thought. */
function callOf(m: Message): { action: string; thought: string } | null {
  const calls = m.tool_calls ?? [];
  if (calls.length === 0) return null;
  const actions = calls.map((c) => {
    const args = typeof c.function.arguments === 'string' ? safeJson(c.function.arguments) : c.function.arguments;
    return shellCommandOf(c.function.name, args) ?? toolCallAction(c.function.name, args);
  });
  return { action: actions.join('\n'), thought: contentText(m.content).trim() };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** What a command returned: the `<output>` text and the exit code; other text as it is. */
export function outputOf(text: string): { observation: string; exitCode?: number } {
  const code = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text);
  const output = /<output>\n?([\s\S]*?)<\/output>/.exec(text);
  if (!code || !output) return { observation: text };
  const rest = text.replace(code[0], '').replace(output[0], '').trim();
  // Anything else the harness wrote (a warning about long output) stays beside the output.
  return { observation: rest ? `${output[1]!}${rest}` : output[1]!, exitCode: Number(code[1]) };
}

/** The task out of the agent's first message, cut from the instance template around it. */
export function taskOf(text: string, template: string | undefined): { task: string; instructions: string | null; system: string | null } {
  let start = 0;
  let end = text.length;
  const slot = template?.indexOf('{{task}}') ?? -1;
  if (template && slot >= 0) {
    const before = template.slice(0, slot);
    if (before && text.startsWith(before)) start = before.length;
    const after = template.slice(slot + '{{task}}'.length).split(/\{\{|\{%/)[0]!.trim();
    const cut = after ? text.indexOf(after.split('\n')[0]!, start) : -1;
    if (cut > start) end = cut;
  } else {
    const prefix = /^Please solve this issue:\s*/.exec(text);
    if (prefix) start = prefix[0].length;
    const cut = text.indexOf('\n\nYou can execute bash commands', start);
    if (cut > start) end = cut;
  }
  const system = /<system_information>\s*([\s\S]*?)\s*<\/system_information>/.exec(text)?.[1] ?? null;
  const raw = text.slice(start, end);
  const task = raw.trim();
  // The instructions with the task's place marked, whitespace and all: the first message is their sum.
  const around = raw.slice(raw.trimEnd().length);
  const instructions = start > 0 || end < text.length ? `${text.slice(0, start)}{{task}}${around}${text.slice(end)}` : null;
  return { task, instructions, system };
}

export const miniSweAgentImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'mini-swe-agent trajectory (.json)',
  detect(_name, head) {
    if (/"trajectory_format"\s*:\s*"mini-swe-agent/.test(head)) return 0.98;
    // The format tag comes last; in a long run only `info` (first) is in the head.
    if (head.trimStart().startsWith('{') && /"mini_version"\s*:|"minisweagent\./.test(head)) return 0.95;
    const start = head.trimStart();
    // A bare message list whose assistant turns fence bash commands.
    if (start.startsWith('[') && /"role"\s*:\s*"system"/.test(head) && /"role"\s*:\s*"(user|assistant)"/.test(head) && head.includes('```')) return 0.6;
    if (start.startsWith('[') && /"role"\s*:/.test(head) && /<returncode>/.test(head)) return 0.7;
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const text = source.text();
    const value = yield* jsonDocument(text);
    if (value === undefined) return;
    const parsed = Doc.safeParse(value);
    if (!parsed.success) {
      yield { kind: 'problem', line: null, reason: 'a mini-swe-agent file is a list of chat messages, or an object with a "messages" list; this file is neither' };
      return;
    }
    const rawMessages = Array.isArray(parsed.data) ? parsed.data : parsed.data.messages;
    const info = Array.isArray(parsed.data) ? undefined : parsed.data.info;
    const at = Array.isArray(parsed.data) ? [] : ['messages'];
    const messages: { m: Message; index: number }[] = [];
    for (const [index, raw] of rawMessages.entries()) {
      const msg = Message.safeParse(raw);
      if (msg.success) messages.push({ m: msg.data, index });
      else yield zodProblem(msg.error, [...at, index]);
    }
    const where = (index: number) => [...at, index].join('.');
    const systemMsg = messages.find((x) => x.m.role === 'system');
    const taskAt = messages.findIndex((x) => x.m.role === 'user');
    const first = taskAt >= 0 ? taskOf(contentText(messages[taskAt]!.m.content), info?.config?.agent?.instance_template) : null;

    const steps: StepDraft[] = [];
    for (let k = taskAt + 1; k < messages.length; k++) {
      const { m, index } = messages[k]!;
      if (m.role !== 'assistant') {
        yield { kind: 'skipped', line: null, what: `${where(index)} (a ${m.role} message after no command)`, reason: 'it answers no command of the agent, so it is no turn' };
        continue;
      }
      const replies: { m: Message; index: number }[] = [];
      while (k + 1 < messages.length && messages[k + 1]!.m.role !== 'assistant') replies.push(messages[++k]!);
      const reply = replies[0] ?? null;
      const command = callOf(m) ?? commandOf(contentText(m.content));
      if (!command) {
        yield {
          kind: 'skipped',
          line: null,
          what: `${where(index)} (a reply without exactly one command)${reply ? ` and the harness's answer ${where(reply.index)}` : ''}`,
          reason: 'the harness rejected the reply and nothing ran in the environment',
        };
        continue;
      }
      if (SUBMIT.test(command.action)) {
        yield {
          kind: 'skipped',
          line: null,
          what: `${where(index)} (the submit command ${command.action.trim()})`,
          reason: "it tells the harness the agent is done; the environment's reply is the harness's, not a turn",
        };
        continue;
      }
      if (replies.length === 0) {
        yield { kind: 'skipped', line: null, what: `${where(index)} (the last command, ${command.action.split('\n')[0]!.slice(0, 80)})`, reason: 'the file ends before the environment answered it' };
        continue;
      }
      const outputs = replies.map((r) => outputOf(contentText(r.m.content)));
      const observation = outputs.map((o) => o.observation).join('\n');
      const exitCode = outputs.find((o) => o.exitCode !== undefined)?.exitCode;
      const thought = [m.reasoning_content?.trim(), command.thought].filter(Boolean).join('\n\n');
      steps.push({
        action: command.action,
        observation,
        agentReasoning: thought || null,
        origin: 'real',
        provenance: { source: { format: FORMAT, file: source.name }, messageIndex: index, ...(exitCode !== undefined ? { exitCode } : {}) },
      });
    }
    if (steps.length === 0) {
      yield { kind: 'problem', line: null, field: at.join('.') || '(document)', reason: 'no assistant message with a command and its output: nothing to import' };
      return;
    }
    const systemPrompt = systemMsg ? contentText(systemMsg.m.content) : null;
    if (systemPrompt !== null) {
      yield { kind: 'skipped', line: null, what: "the agent's system prompt", reason: "it tells the agent how to answer, not what the environment is; kept in the root's provenance (miniSweAgent.agentSystemPrompt)" };
    }
    if (first?.instructions) {
      yield { kind: 'skipped', line: null, what: "the agent's instructions around the task", reason: "advice to the agent, not the environment's state; the task is the initial state, the instructions are kept in the root's provenance (miniSweAgent.agentInstructions)" };
    }
    const initialState = first ? [first.task, first.system ? `System: ${first.system}` : ''].filter(Boolean).join('\n\n') : '';
    const name = source.name.replace(/\.(traj\.)?json$/i, '');
    const exitStatus = info?.exit_status ?? null;
    yield {
      kind: 'trajectory',
      bundle: chainBundle(
        {
          title: `${name} (mini-swe-agent${exitStatus ? `, ${exitStatus}` : ''})`,
          domain: 'swe',
          systemPrompt: MINI_SWE_SYSTEM_PROMPT,
          initialState,
          sourceKey: contentKey([FORMAT, text]),
          rootProvenance: {
            source: { format: FORMAT, file: source.name, sampleId: name },
            miniSweAgent: {
              exitStatus,
              ...(info?.mini_version ? { version: info.mini_version } : {}),
              ...(systemPrompt !== null ? { agentSystemPrompt: systemPrompt } : {}),
              ...(first?.instructions ? { agentInstructions: first.instructions } : {}),
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
