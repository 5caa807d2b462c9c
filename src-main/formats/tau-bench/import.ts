// tau-bench results (`results/*.json`, the `historical_trajectories/*.json` its repository
// publishes): a list of runs [{task_id, reward, trial?, info: {task: {instruction, actions…},
// reward_info…}, traj: [OpenAI chat messages]}], one trajectory each. In `traj` the agent's
// tool calls (`tool_calls` on an assistant message) are answered by `tool` messages that follow
// them; tau-bench reuses call ids within a run, so a result answers the latest call with its id
// that is still open. The simulated user's first message is the task; the system message (the
// domain's policy) and the user simulator's hidden instruction are kept in provenance, the
// reward too. Left out, and said: the agent's replies to the user and the user's later
// messages (the conversation around the tools).
import { agentSessionItems, type AgentEvent } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { jsonDocument } from '../../parsing/json-document';
import { contentKey } from '../../parsing/content-key';

const FORMAT = 'tau-bench';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

const textOf = (c: unknown): string =>
  typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (isRec(p) && typeof p.text === 'string' ? p.text : '')).join('') : '';

function* runEvents(traj: unknown[]): Iterable<AgentEvent> {
  const open = new Map<string, string[]>();
  let n = 0;
  let system = 0;
  for (const m of traj) {
    if (!isRec(m)) continue;
    if (m.role === 'system') system++;
    else if (m.role === 'user') yield { kind: 'user', text: textOf(m.content), line: null };
    else if (m.role === 'assistant') {
      const said = textOf(m.content);
      if (said.trim()) yield { kind: 'thought', text: said, line: null };
      for (const call of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
        if (!isRec(call) || !isRec(call.function)) continue;
        const id = `call-${++n}`;
        const written = typeof call.id === 'string' ? call.id : id;
        open.set(written, [...(open.get(written) ?? []), id]);
        const args = call.function.arguments;
        yield { kind: 'call', id, name: String(call.function.name), arguments: args, rawArguments: typeof args === 'string' ? args : null, line: null };
      }
    } else if (m.role === 'tool') {
      const written = typeof m.tool_call_id === 'string' ? m.tool_call_id : '';
      const id = open.get(written)?.pop() ?? written;
      yield { kind: 'result', id, content: textOf(m.content), line: null };
    }
  }
  if (system) yield { kind: 'skip', what: `${system} × system message (the domain's policy)`, reason: "the agent's instructions, not the environment's; kept in the root's provenance", line: null };
}

export const tauBenchImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'tau-bench results',
  detect(_name, head) {
    if (!/^\s*\[\s*\{/.test(head)) return 0;
    return /"task_id"\s*:/.test(head) && /"reward"\s*:/.test(head) && /"(traj|info)"\s*:/.test(head) ? 0.9 : 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const text = source.text();
    const value = yield* jsonDocument(text);
    if (value === undefined) return;
    if (!Array.isArray(value)) {
      yield { kind: 'problem', line: null, reason: 'not tau-bench results: expected a list of runs [{task_id, reward, info, traj: [messages]}]' };
      return;
    }
    for (const [i, run] of value.entries()) {
      if (!isRec(run) || !Array.isArray(run.traj)) {
        yield { kind: 'problem', line: null, field: `${i}.traj`, reason: `run ${i} has no "traj" message list, so there is nothing to import` };
        continue;
      }
      const task = isRec(run.info) && isRec(run.info.task) ? run.info.task : {};
      const system = run.traj.find((m) => isRec(m) && m.role === 'system') as Rec | undefined;
      const name = `task ${String(run.task_id)}${run.trial !== undefined ? ` trial ${String(run.trial)}` : ''}`;
      yield* agentSessionItems(
        {
          format: FORMAT,
          file: source.name,
          agent: 'tau-bench agent',
          sessionId: name,
          title: `tau-bench ${name} (reward ${String(run.reward)})`,
          sourceKey: contentKey([FORMAT, source.name, String(i), JSON.stringify(run.traj)]),
          provenance: {
            tauBench: {
              taskId: run.task_id,
              ...(run.trial !== undefined ? { trial: run.trial } : {}),
              reward: run.reward,
              ...(typeof task.instruction === 'string' ? { userInstruction: task.instruction } : {}),
              ...(system ? { policy: textOf(system.content) } : {}),
            },
          },
        },
        runEvents(run.traj),
        newId,
        now,
      );
    }
  },
};
