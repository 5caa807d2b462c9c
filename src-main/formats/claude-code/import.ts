// Claude Code session files (~/.claude/projects/<project>/<session>.jsonl): one record per
// line. `user` and `assistant` records carry an Anthropic message: the assistant's content
// blocks are its thinking, its text and its `tool_use` calls; the next user record answers
// them with `tool_result` blocks (matched by tool_use_id). ../../parsing/agent-session.ts pairs them.
// A shell command the person ran themselves (bash mode: `<bash-input>` and its
// `<bash-stdout>`) is a step too. Left out, and said: the records of the app itself
// (summaries, file-history snapshots, queue operations, progress and system notes), a
// subagent's own conversation (`isSidechain`), messages the harness added (`isMeta`, the
// /compact summary, slash commands and their output) and the interruptions a person made.
import { agentSessionItems, type AgentEvent } from '../../parsing/agent-session';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import { jsonLines } from '../../parsing/json-lines';

/** Why a content block was not read: its type is one this reader does not know, or it has none. */
const blockNote = (who: string, type: unknown) =>
  typeof type === 'string' ? `${who} block of type ${JSON.stringify(type)} that this reader does not know` : `${who} block without a "type" (text, tool_use, tool_result…)`;

const FORMAT = 'claude-code';

type Block = { type?: unknown; text?: unknown; thinking?: unknown; id?: unknown; name?: unknown; input?: unknown; tool_use_id?: unknown; content?: unknown; is_error?: unknown };

/** A tool result's content (text, or text and image blocks) as text. */
function resultText(content: unknown): string {
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

/** User text the harness wrote, not the person: slash commands, their output, caveats. */
const HARNESS_TEXT = /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|system-reminder|user-memory-input)>/;
const INTERRUPTED = /^\[Request interrupted by user( for tool use)?\]$/;
/** A shell command the person ran in Claude Code's bash mode, and what it printed. */
const BASH_INPUT = /^\s*<bash-input>([\s\S]*?)<\/bash-input>\s*$/;
const BASH_OUTPUT = /^\s*<bash-stdout>([\s\S]*?)<\/bash-stdout>\s*(?:<bash-stderr>([\s\S]*?)<\/bash-stderr>)?\s*$/;

export const claudeCodeImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'Claude Code session JSONL',
  detect(name, head) {
    for (const line of head.split('\n').slice(0, 8)) {
      if (!line.trimStart().startsWith('{')) continue;
      if (/"sessionId"\s*:/.test(line) && /"type"\s*:\s*"(user|assistant)"/.test(line) && /"(parentUuid|isSidechain|userType)"\s*:/.test(line)) return 0.96;
      if (/"type"\s*:\s*"summary"/.test(line) && /"leafUuid"\s*:/.test(line)) return 0.9;
    }
    return 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const events: AgentEvent[] = [];
    const texts: string[] = [];
    const problems: ImportItem[] = [];
    let sessionId: string | undefined;
    let version: string | undefined;
    let cwd: string | undefined;
    let summary: string | undefined;
    /** The person's own shell command waiting for its output (bash mode). */
    let bashId: string | null = null;
    const tally = new Map<string, { count: number; line: number; reason: string }>();
    const leaveOut = (what: string, line: number, reason: string) => {
      const seen = tally.get(what);
      if (seen) seen.count++;
      else tally.set(what, { count: 1, line, reason });
    };
    for (const item of jsonLines(source)) {
      if (item.kind === 'problem') {
        problems.push(item);
        continue;
      }
      const line = item.lineNo;
      texts.push(item.text);
      const r = item.value as Record<string, unknown>;
      if (typeof r !== 'object' || r === null || typeof r.type !== 'string') {
        problems.push({ kind: 'problem', line, field: 'type', reason: 'a Claude Code record is an object with a "type" (user, assistant, summary…)' });
        continue;
      }
      if (r.type === 'summary') {
        if (typeof r.summary === 'string') summary ??= r.summary;
        leaveOut('session summary', line, "the app's title for the session, not a turn; the first is the trajectory's title");
        continue;
      }
      if (r.type !== 'user' && r.type !== 'assistant') {
        leaveOut(`${r.type} record`, line, "the app's own bookkeeping (file backups, queue, progress, system notes), not a message between the agent and its tools");
        continue;
      }
      sessionId ??= typeof r.sessionId === 'string' ? r.sessionId : undefined;
      version ??= typeof r.version === 'string' ? r.version : undefined;
      cwd ??= typeof r.cwd === 'string' ? r.cwd : undefined;
      if (r.isSidechain === true) {
        leaveOut('subagent (sidechain) message', line, "a subagent's own conversation; its answer reaches this session as the result of the Task call that started it");
        continue;
      }
      const message = r.message as { content?: unknown } | undefined;
      const content = message?.content;
      if (r.type === 'user' && r.isMeta === true) {
        leaveOut('message the harness added (isMeta)', line, 'written by Claude Code for the model (a caveat, a reminder), not by the person or a tool');
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
      for (const b of blocks) {
        if (r.type === 'assistant') {
          if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') events.push({ kind: 'call', id: b.id, name: b.name, arguments: b.input ?? {}, line });
          else if (b.type === 'thinking' && typeof b.thinking === 'string') events.push({ kind: 'thought', text: b.thinking, line });
          else if (b.type === 'text' && typeof b.text === 'string') events.push({ kind: 'thought', text: b.text, line });
          else if (b.type === 'redacted_thinking') leaveOut('redacted thinking block', line, 'the model provider encrypted it; there is no text to keep');
          else problems.push({ kind: 'problem', line, field: 'message.content', reason: blockNote('an assistant', b.type) });
        } else if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
          events.push({ kind: 'result', id: b.tool_use_id, content: resultText(b.content), ...(b.is_error === true ? { isError: true } : {}), line });
        } else if (b.type === 'text' && typeof b.text === 'string' && BASH_INPUT.test(b.text)) {
          // The person ran a shell command themselves (`!` in Claude Code): a real terminal step.
          bashId = `bash-input-${line}`;
          events.push({ kind: 'call', id: bashId, name: 'Bash', arguments: { command: BASH_INPUT.exec(b.text)![1]! }, line });
        } else if (b.type === 'text' && typeof b.text === 'string' && BASH_OUTPUT.test(b.text) && bashId) {
          const m = BASH_OUTPUT.exec(b.text)!;
          events.push({ kind: 'result', id: bashId, content: [m[1], m[2]].filter((x) => x && x.trim() !== '').join('\n'), line });
          bashId = null;
        } else if (b.type === 'text' && typeof b.text === 'string') {
          if (INTERRUPTED.test(b.text.trim())) leaveOut('interruption by the person', line, 'the person stopped the agent; nothing reached the environment');
          else if (HARNESS_TEXT.test(b.text)) leaveOut('slash command or its output', line, "the person ran one of Claude Code's own commands (/init, /clear…); the app answered it, not the environment");
          else events.push({ kind: 'user', text: b.text, line });
        } else if (b.type === 'image') leaveOut('image the person attached', line, 'Worldloom trajectories hold text; the image is not kept');
        else problems.push({ kind: 'problem', line, field: 'message.content', reason: blockNote('a user', b.type) });
      }
    }
    yield* problems;
    for (const [what, t] of tally) events.push({ kind: 'skip', what: `${t.count} × ${what}`, reason: t.reason, line: t.line });
    if (texts.length === 0) return;
    yield* agentSessionItems(
      {
        format: FORMAT,
        file: source.name,
        agent: `Claude Code${version ? ` ${version}` : ''}`,
        ...(sessionId ? { sessionId } : {}),
        sourceText: texts.join('\n'),
        ...(summary ? { title: `${summary} (Claude Code)` } : {}),
        ...(cwd ? { setting: `Working directory: ${cwd}` } : {}),
        provenance: { claudeCode: { ...(summary ? { summary } : {}), ...(cwd ? { cwd } : {}), ...(version ? { version } : {}) } },
      },
      events,
      newId,
      now,
    );
  },
};
