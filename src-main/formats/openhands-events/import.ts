// OpenHands event streams: the list of events a conversation records (the web app's "export
// trajectory", `save_trajectory_path`, the replay files of its tests), also wrapped as
// {history: [...]} in an evaluation's output (one JSON record a line, each a trajectory).
// Each event is an action {id, source: user|agent|environment, action, args,
// tool_call_metadata?} or an observation {id, observation, content, extras, cause: <the id of
// the action it answers>}. An agent's action (run, edit, read, browse…) and the observation
// that names it as its cause are a step: the call as the model wrote it (the function and
// arguments of its tool call, when the event keeps the model's response; else the action and its
// arguments as OpenHands recorded them) and the observation's content, byte for byte. The
// person's first message is the task. Left out, and said: the system prompt, the agent's state
// changes, memory recalls and condensations, `think`/`finish` (nothing ran), and actions the
// person refused.
import { agentSessionItems, type AgentEvent } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { jsonDocument, parseJsonDocument } from '../../parsing/json-document';

const FORMAT = 'openhands-events';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Actions that run nothing in the environment: what they are, and why they are left out. */
const NOT_A_STEP: Record<string, string> = {
  system: 'the system prompt and tools OpenHands gave the model',
  change_agent_state: "OpenHands changing the agent's state (init, running, finished)",
  recall: 'OpenHands looking up its own memory (microagents, workspace context) for the agent',
  condensation: 'OpenHands condensing earlier events to save context',
  condensation_request: 'the agent asking OpenHands to condense its history',
  think: 'the agent thinking aloud (the think tool logs a thought and runs nothing)',
  finish: 'the agent saying it is done',
  reject: 'the agent declining the task',
  delegate: 'the agent handing the task to another agent, whose events are its own',
};
/** Observations that answer no call of the agent's. */
const NO_ANSWER = new Set(['agent_state_changed', 'null', 'recall', 'condense', 'agent_condensation', 'delegate']);
/** Arguments OpenHands adds to an action for itself, not written by the model. */
const BOOKKEEPING = new Set(['thought', 'blocking', 'hidden', 'confirmation_state', 'security_risk', 'impl_source', 'translated_ipython_code', 'is_static', 'cwd', 'image_urls', 'wait_for_response']);

/** The call as the model wrote it: the tool call in the kept model response whose id the action names. */
function modelCall(e: Rec): { name: string; raw: string } | null {
  const meta = e.tool_call_metadata;
  if (!isRec(meta) || typeof meta.function_name !== 'string') return null;
  const choices = isRec(meta.model_response) && Array.isArray(meta.model_response.choices) ? meta.model_response.choices : [];
  for (const c of choices) {
    const calls = isRec(c) && isRec(c.message) && Array.isArray(c.message.tool_calls) ? c.message.tool_calls : [];
    for (const call of calls) {
      if (isRec(call) && call.id === meta.tool_call_id && isRec(call.function) && typeof call.function.arguments === 'string') return { name: meta.function_name, raw: call.function.arguments };
    }
  }
  return null;
}

function* historyEvents(history: unknown[]): Iterable<AgentEvent> {
  const tally = new Map<string, { count: number; reason: string }>();
  const leaveOut = (what: string, reason: string) => {
    const seen = tally.get(what);
    if (seen) seen.count++;
    else tally.set(what, { count: 1, reason });
  };
  const refused = new Set<string>();
  for (const e of history) {
    if (isRec(e) && e.observation === 'user_rejected' && e.cause !== undefined) refused.add(String(e.cause));
  }
  for (const e of history) {
    if (!isRec(e)) continue;
    const id = e.id === undefined ? null : String(e.id);
    const args = isRec(e.args) ? e.args : {};
    if (typeof e.action === 'string') {
      const thought = typeof args.thought === 'string' ? args.thought : typeof e.thought === 'string' ? e.thought : '';
      if (e.action === 'message') {
        const content = typeof args.content === 'string' ? args.content : typeof e.message === 'string' ? e.message : '';
        if (e.source === 'user') yield { kind: 'user', text: content, line: null };
        else yield { kind: 'thought', text: content, line: null };
        continue;
      }
      if (e.action in NOT_A_STEP) {
        if (thought.trim()) yield { kind: 'thought', text: thought, line: null };
        leaveOut(`${e.action} action`, `${NOT_A_STEP[e.action]}; nothing ran in the environment`);
        continue;
      }
      if (id !== null && refused.has(id)) {
        leaveOut(`${e.action} action the person refused`, 'OpenHands asked for confirmation and the person said no; nothing ran (the reasoning that led to it is left out with it)');
        continue;
      }
      if (thought.trim()) yield { kind: 'thought', text: thought, line: null };
      const call = modelCall(e);
      if (call) yield { kind: 'call', id: id ?? '', name: call.name, arguments: call.raw, rawArguments: call.raw, line: null };
      else {
        const written = Object.fromEntries(Object.entries(args).filter(([k]) => !BOOKKEEPING.has(k)));
        yield { kind: 'call', id: id ?? '', name: e.action, arguments: written, line: null };
      }
      continue;
    }
    if (typeof e.observation === 'string') {
      if (e.observation === 'user_rejected') continue;
      if (NO_ANSWER.has(e.observation) || e.cause === undefined || e.cause === null) {
        leaveOut(`${e.observation} observation`, "OpenHands' own note (a state change, a recall, an empty answer to a message), not a tool's output");
        continue;
      }
      const content = typeof e.content === 'string' ? e.content : JSON.stringify(e.content ?? '');
      yield { kind: 'result', id: String(e.cause), content, ...(e.observation === 'error' ? { isError: true } : {}), line: null };
      continue;
    }
    leaveOut('event that is neither an action nor an observation', 'it has no "action" or "observation" field');
  }
  for (const [what, t] of tally) yield { kind: 'skip', what: `${t.count} × ${what}`, reason: t.reason, line: null };
}

/** The first line of a list of events, or of a record holding one as `history`. */
const EVENT = /"source"\s*:\s*"(user|agent|environment)"/;
const KIND = /"(action|observation)"\s*:\s*"[a-z_]+"/;

export const openHandsEventsImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'OpenHands event stream',
  detect(_name, head) {
    if (!EVENT.test(head) || !KIND.test(head)) return 0;
    if (/^\s*\[\s*\{/.test(head)) return 0.9;
    if (/^\s*\{/.test(head) && /"history"\s*:\s*\[\s*\{/.test(head)) return 0.85;
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const text = source.text();
    // An evaluation's output has a record a line; an export is one document.
    const lines = text.split('\n').filter((l) => l.trim());
    const isLines = lines.length > 1 && lines.every((l) => /^\s*\{/.test(l) && /\}\s*$/.test(l));
    const records: { value: unknown; line: number | null; text: string }[] = [];
    if (isLines) {
      let n = 0;
      for (const l of text.split('\n')) {
        n++;
        if (!l.trim()) continue;
        const parsed = parseJsonDocument(l);
        if ('problem' in parsed) yield { ...parsed.problem, line: n };
        else records.push({ value: parsed.value, line: n, text: l });
      }
    } else {
      const value = yield* jsonDocument(text);
      if (value === undefined) return;
      records.push({ value, line: null, text });
    }
    for (const r of records) {
      const history = Array.isArray(r.value) ? r.value : isRec(r.value) && Array.isArray(r.value.history) ? r.value.history : null;
      if (!history) {
        yield { kind: 'problem', line: r.line, reason: 'not an OpenHands event stream: expected a list of events [{id, source, action | observation, …}] or a record with one as "history"' };
        continue;
      }
      const meta = isRec(r.value) ? r.value : {};
      const sessionId = typeof meta.instance_id === 'string' ? meta.instance_id : undefined;
      yield* agentSessionItems(
        { format: FORMAT, file: source.name, agent: 'OpenHands', ...(sessionId ? { sessionId } : {}), sourceText: r.text, ...(sessionId ? { provenance: { openhands: { instanceId: sessionId } } } : {}) },
        historyEvents(history),
        newId,
        now,
      );
    }
  },
};
