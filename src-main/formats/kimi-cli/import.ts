// Kimi CLI sessions (~/.kimi/sessions/<md5 of the working folder>/<session id>/context.jsonl):
// the model's history, one record a line, as Kimi CLI writes it (its soul/context.py). Its own
// records have a role starting with `_`: `_system_prompt` {content}, `_checkpoint` {id} and
// `_usage` {token_count}. Every other line is a kosong Message: {role: user|assistant|tool|system,
// content: a string or a list of parts ({type: text, text}, {type: think, think}, image/audio/
// video URLs), tool_calls?: [{type: function, id, function: {name, arguments: a JSON string}}],
// tool_call_id?}. A tool's result is a `tool` message: Kimi CLI's own note on it wrapped in
// `<system>…</system>` (`<system>ERROR: …</system>` when the call failed), then the tool's
// output. A rewind or /clear rewrites the file without what was undone, so it is read in order.
// Left out, and said: the system prompt, checkpoints, token counts, the harness's
// `<system>CHECKPOINT n</system>` and `<system-reminder>` messages, media parts.
import { agentSessionItems, type AgentEvent, LeftOutTally } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { jsonRecordLines } from '../../parsing/json-lines';
import { lineContentKey } from '../../parsing/content-key';
import { kimiWorkDir } from './sessions';

const FORMAT = 'kimi-cli';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Kimi CLI's own record kinds, which no chat format writes. */
const OWN_RECORD = /"role"\s*:\s*"_(system_prompt|checkpoint|usage)"/;
const HARNESS_MESSAGE = /^\s*(<system>CHECKPOINT \d+<\/system>|<system-reminder>)/;
/** Tools Kimi CLI answers itself: they change nothing outside the conversation. */
const OWN_TOOLS = new Set(['SetTodoList']);

/** A message's text parts, in order, and what else it held. */
function partsOf(content: unknown): { texts: string[]; thinks: string[]; media: number } {
  if (typeof content === 'string') return { texts: [content], thinks: [], media: 0 };
  const out = { texts: [] as string[], thinks: [] as string[], media: 0 };
  if (!Array.isArray(content)) return out;
  for (const p of content) {
    if (!isRec(p)) continue;
    if (p.type === 'text' && typeof p.text === 'string') out.texts.push(p.text);
    else if (p.type === 'think' && typeof p.think === 'string') {
      if (p.think !== '') out.thinks.push(p.think);
    } else out.media++;
  }
  return out;
}

export const kimiCliImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'Kimi CLI session context.jsonl',
  detect(name, head) {
    if (OWN_RECORD.test(head)) return 0.96;
    // A session of one exchange may not have reached a checkpoint yet: the file's name and a kosong message say it.
    if (/(^|[\\/])context(_\d+)?\.jsonl$/.test(name) && /^\{"role"\s*:\s*"(user|assistant|tool)"/.test(head)) return 0.6;
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const events: AgentEvent[] = [];
    const key = lineContentKey(FORMAT);
    const tally = new LeftOutTally();
    const leaveOut = (what: string, line: number, reason: string) => tally.add(what, line, reason);
    let systemPrompt: string | undefined;
    let tokenCount: number | undefined;
    const ownCalls = new Set<string>();
    for (const item of jsonRecordLines(source, 'role', 'a Kimi CLI context record is an object with a "role" (user, assistant, tool, or its own _system_prompt, _checkpoint, _usage)')) {
      if (item.kind === 'problem') {
        yield item;
        continue;
      }
      const r = item.value;
      const line = item.lineNo;
      key.add(item.text);
      if (r.role === '_system_prompt') {
        if (typeof r.content === 'string') systemPrompt = r.content;
        leaveOut('system prompt', line, "Kimi CLI's instructions to the model, not the task; kept in the provenance");
        continue;
      }
      if (r.role === '_checkpoint' || r.role === '_usage') {
        if (r.role === '_usage' && typeof r.token_count === 'number') tokenCount = r.token_count;
        leaveOut(`${r.role.slice(1)} record`, line, "Kimi CLI's bookkeeping (where a rewind may go back to, the context's size), not the model or a tool");
        continue;
      }
      const { texts, thinks, media } = partsOf(r.content);
      if (media > 0) leaveOut('image, audio or video part', line, 'not text; Worldloom trajectories hold text');
      if (r.role === 'tool') {
        const id = typeof r.tool_call_id === 'string' ? r.tool_call_id : '';
        // Each part is what the model was given; they are kept as written, one after another on their own lines.
        const content = texts.join('\n');
        events.push({ kind: 'result', id, content, ...(/^<system>ERROR:/.test(texts[0] ?? '') ? { isError: true } : {}), line });
      } else if (r.role === 'assistant') {
        for (const t of thinks) events.push({ kind: 'thought', text: t, line });
        for (const t of texts) if (t.trim() !== '') events.push({ kind: 'thought', text: t, line });
        for (const [j, c] of (Array.isArray(r.tool_calls) ? r.tool_calls : []).entries()) {
          if (!isRec(c) || !isRec(c.function) || typeof c.function.name !== 'string') {
            yield { kind: 'problem', line, field: `tool_calls[${j}]`, reason: 'a tool call without function.name' };
            continue;
          }
          const name = c.function.name;
          const raw = typeof c.function.arguments === 'string' ? c.function.arguments : null;
          let args: unknown = raw ?? {};
          try {
            if (raw !== null) args = JSON.parse(raw) as unknown;
          } catch {
            // Arguments the model wrote as broken JSON stay as the text it wrote.
          }
          if (OWN_TOOLS.has(name)) {
            if (typeof c.id === 'string') ownCalls.add(c.id);
            leaveOut(`${name} call`, line, "Kimi CLI's to-do list, kept by the harness; nothing ran in the environment");
            continue;
          }
          // Shell's other arguments (a timeout, running in the background) change what it does: the whole call is the action.
          const wholeCall = name === 'Shell' && isRec(args) && Object.keys(args).some((k) => k !== 'command');
          events.push({ kind: 'call', id: typeof c.id === 'string' ? c.id : `line-${line}-${j}`, name, arguments: args, rawArguments: raw, wholeCall, line });
        }
      } else if (r.role === 'user') {
        const text = texts.join('\n');
        if (HARNESS_MESSAGE.test(text)) leaveOut('harness message (checkpoint marker or system reminder)', line, 'Kimi CLI wrote it for the model, not the person');
        else if (text !== '') events.push({ kind: 'user', text, line });
      } else leaveOut(`${r.role} message`, line, "a system message in the conversation: the harness's, not the person's or a tool's");
    }
    // A to-do call's result goes with the call.
    const kept = events.filter((e) => e.kind !== 'result' || !ownCalls.has(e.id));
    kept.push(...tally.skips());
    const provenance = { kimiCli: { ...(systemPrompt !== undefined ? { systemPrompt } : {}), ...(tokenCount !== undefined ? { tokenCount } : {}) } };
    const cwd = systemPrompt !== undefined ? kimiWorkDir(JSON.stringify(systemPrompt)) : null;
    const setting = cwd ? { setting: `Working directory: ${cwd}` } : {};
    yield* agentSessionItems({ format: FORMAT, file: source.name, agent: 'Kimi CLI', sourceKey: key.key(), ...setting, provenance }, kept, newId, now);
  },
};
