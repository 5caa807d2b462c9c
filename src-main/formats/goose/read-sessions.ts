// goose sessions as lines, read into one trajectory each. A session is a line describing it,
// then its messages one a line (./conversation.ts): a .jsonl session file is exactly that (its
// first line goose's SessionMetadata {working_dir, description, message_count, tokens…}), and
// a sessions.db is read into the same lines (./database.ts: the session's row, then its
// messages), one session after another. A line describing a session after messages starts
// the next session. Sub-agents are sessions of their own in goose's database
// (session_type sub_agent), so each is its own trajectory.
import { agentSessionItems } from '../../parsing/agent-session';
import { lineContentKey } from '../../parsing/content-key';
import type { IdFactory, ImportItem } from '../../parsing/import-item';
import { jsonLines } from '../../parsing/json-lines';
import type { ImportSource } from '../../parsing/sources';
import { GooseConversation, isRec } from './conversation';

/** What a line describing a session says (SessionMetadata in a file, the sessions row in the database). */
interface SessionHeader {
  id?: string;
  name?: string;
  workingDir?: string;
  sessionType?: string;
  createdAt?: string;
  provider?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A line that describes a session rather than being a message: no role, no content, and goose's session fields. */
function headerOf(value: unknown): SessionHeader | null {
  if (!isRec(value) || 'role' in value || 'content' in value) return null;
  if (!('working_dir' in value) && !('description' in value) && !('message_count' in value)) return null;
  return {
    ...(str(value.id) ? { id: str(value.id) } : {}),
    ...((str(value.name) ?? str(value.description)) ? { name: str(value.name) ?? str(value.description) } : {}),
    ...(str(value.working_dir) ? { workingDir: str(value.working_dir) } : {}),
    ...(str(value.session_type) ? { sessionType: str(value.session_type) } : {}),
    ...(str(value.created_at) ? { createdAt: str(value.created_at) } : {}),
    ...(str(value.provider_name) ? { provider: str(value.provider_name) } : {}),
  };
}

/** Every session in the lines, each its own trajectory. `fileSessionId`: the id a one-session file's name gives it. */
export function* gooseSessionItems(source: ImportSource, format: string, newId: IdFactory, now: string, fileSessionId?: string): Iterable<ImportItem> {
  let header: SessionHeader = {};
  let conversation = new GooseConversation();
  let key = lineContentKey(format);
  let messages = 0;
  let started = false;
  function* finish(): Iterable<ImportItem> {
    if (!started) return;
    const id = header.id ?? fileSessionId;
    const subAgent = header.sessionType === 'sub_agent' || header.sessionType === 'specialist';
    const agent = subAgent ? 'goose sub-agent' : 'goose';
    const events = [...conversation.events, ...conversation.tally.skips()];
    if (messages === 0) {
      yield { kind: 'problem', line: null, reason: `${id ? `${id}: ` : ''}the session has no messages` };
      return;
    }
    const provenance = {
      goose: {
        ...(id ? { sessionId: id } : {}),
        ...(header.name ? { name: header.name } : {}),
        ...(header.workingDir ? { workingDir: header.workingDir } : {}),
        ...(header.sessionType ? { sessionType: header.sessionType } : {}),
        ...(header.createdAt ? { createdAt: header.createdAt } : {}),
        ...(header.provider ? { provider: header.provider } : {}),
      },
    };
    yield* agentSessionItems(
      {
        format,
        file: source.name,
        agent,
        ...(id ? { sessionId: id } : {}),
        ...(header.name ? { title: `${agent} · ${header.name}` } : {}),
        ...(header.workingDir ? { setting: `Working directory: ${header.workingDir}` } : {}),
        sourceKey: key.key(),
        provenance,
      },
      events,
      newId,
      now,
    );
  }
  for (const item of jsonLines(source)) {
    if (item.kind === 'problem') {
      yield item;
      continue;
    }
    const next = headerOf(item.value);
    if (next) {
      yield* finish();
      header = next;
      conversation = new GooseConversation();
      key = lineContentKey(format);
      messages = 0;
      started = true;
      key.add(item.text);
      continue;
    }
    if (!isRec(item.value)) {
      yield { kind: 'problem', line: item.lineNo, reason: 'a goose session line is an object: the session (working_dir, description) or a message (role, content)' };
      continue;
    }
    started = true;
    messages++;
    key.add(item.text);
    yield* conversation.add(item.value, item.text, item.lineNo);
  }
  yield* finish();
}
