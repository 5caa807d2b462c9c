// Factory droid sessions (~/.factory/sessions/<project>/<session id>.jsonl): a `session_start`
// record {id, title, sessionTitle?, owner, version, cwd}, then `message` records {id, timestamp,
// parentId?, visibility?, message: {role: user|assistant, content}} whose content is Anthropic's
// Messages blocks: text, thinking, tool_use {id, name, input} from the model, tool_result
// {tool_use_id, content, is_error?} in the user turn answering it. Factory publishes no schema for
// these files; this is the shape they have as read by several independent session browsers, and
// anything else is said, not guessed at. Left out, and said: other record kinds (to-do state,
// session events…), messages meant for the model only (`visibility: llm_only`, <system-reminder>
// text), image blocks.
import { agentSessionItems, type AgentEvent } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { jsonLines } from '../../parsing/json-lines';
import { rawValueAt } from '../../parsing/json-raw';
import { lineContentKey } from '../../parsing/content-key';

const FORMAT = 'factory-droid';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A tool_result's content (a string, or text blocks) as the model got it; other blocks named, not dropped. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content.map((b) => (typeof b === 'string' ? b : isRec(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : isRec(b) && b.type === 'image' ? '(an image)' : JSON.stringify(b))).join('\n');
}

export const factoryDroidImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'Factory droid session JSONL',
  detect(_name, head) {
    const first = head.split('\n', 1)[0]!;
    if (!/^\{\s*"type"\s*:\s*"session_start"/.test(first)) return 0;
    return /"type"\s*:\s*"message"[\s\S]*"message"\s*:\s*\{\s*"role"/.test(head) || /"cwd"\s*:/.test(first) ? 0.95 : 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const events: AgentEvent[] = [];
    const key = lineContentKey(FORMAT);
    const tally = new Map<string, { count: number; line: number; reason: string }>();
    const leaveOut = (what: string, line: number, reason: string) => {
      const t = tally.get(what);
      if (t) t.count++;
      else tally.set(what, { count: 1, line, reason });
    };
    let sessionId: string | undefined;
    let title: string | undefined;
    let cwd: string | undefined;
    for (const item of jsonLines(source)) {
      if (item.kind === 'problem') {
        yield item;
        continue;
      }
      const r = item.value;
      const line = item.lineNo;
      if (!isRec(r) || typeof r.type !== 'string') {
        yield { kind: 'problem', line, field: 'type', reason: 'a Factory droid session record is an object with a "type" (session_start, message…)' };
        continue;
      }
      key.add(item.text);
      if (r.type === 'session_start') {
        sessionId ??= str(r.id);
        title ??= str(r.sessionTitle) ?? str(r.title);
        cwd ??= str(r.cwd) || undefined;
        continue;
      }
      if (r.type !== 'message') {
        leaveOut(`${r.type} record`, line, "droid's own record of the session (to-do state, session events), not the model or a tool");
        continue;
      }
      const m = r.message;
      if (!isRec(m) || (m.role !== 'user' && m.role !== 'assistant')) {
        yield { kind: 'problem', line, field: 'message.role', reason: 'a message record without message.role user or assistant' };
        continue;
      }
      const blocks: unknown[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
      const forModelOnly = r.visibility === 'llm_only';
      for (const [j, b] of blocks.entries()) {
        if (!isRec(b)) continue;
        if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') {
          const raw = isRec(b.input) ? rawValueAt(item.text, ['message', 'content', j, 'input']) : null;
          events.push({ kind: 'call', id: b.id, name: b.name, arguments: b.input ?? {}, rawArguments: raw, line });
        } else if (b.type === 'tool_result') {
          events.push({ kind: 'result', id: str(b.tool_use_id) ?? '', content: resultText(b.content), ...(b.is_error === true ? { isError: true } : {}), line });
        } else if (b.type === 'thinking' && typeof b.thinking === 'string') {
          if (b.thinking !== '') events.push({ kind: 'thought', text: b.thinking, line });
        } else if (b.type === 'text' && typeof b.text === 'string') {
          if (m.role === 'assistant') {
            if (b.text.trim() !== '') events.push({ kind: 'thought', text: b.text, line });
          } else if (forModelOnly || /^\s*<system-reminder>/.test(b.text)) leaveOut('text for the model only (llm_only, <system-reminder>)', line, 'droid wrote it for the model, not the person');
          else if (b.text.trim() !== '') events.push({ kind: 'user', text: b.text, line });
        } else if (b.type === 'image') leaveOut('image block', line, 'not text; Worldloom trajectories hold text');
        else leaveOut(`${String(b.type)} block`, line, 'a content block this reader does not know; nothing is guessed from it');
      }
    }
    for (const [what, t] of tally) events.push({ kind: 'skip', what: `${t.count} × ${what}`, reason: t.reason, line: t.line });
    yield* agentSessionItems(
      { format: FORMAT, file: source.name, agent: 'Factory droid', ...(sessionId ? { sessionId } : {}), ...(title ? { title } : {}), sourceKey: key.key(), ...(cwd ? { setting: `Working directory: ${cwd}` } : {}), provenance: { factoryDroid: { ...(cwd ? { cwd } : {}), ...(title ? { title } : {}) } } },
      events,
      newId,
      now,
    );
  },
};
