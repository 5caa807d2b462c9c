// Where aider's chat histories are: aider writes `.aider.chat.history.md` in the root of the git
// repository it works in (else the folder it was started in), one file per project holding every
// session there, not in a folder of its own. No search of the whole disk is made: Worldloom looks
// in the folders WORLDLOOM_AIDER_FOLDERS names (a list, separated as in PATH), else in the home
// folder, and in each for the history itself, in its subfolders and in theirs (~/project,
// ~/code/project). A history elsewhere, or one `--chat-history-file` (AIDER_CHAT_HISTORY_FILE)
// named otherwise, is imported by handing Worldloom the file.
import { dirname, posix, win32 } from 'node:path';
import { fileLines } from '../../parsing/sources';
import type { SessionInFile, SessionLocations } from '../format';
import { SESSION_HEADER } from './chat-log';

export const HISTORY_FILE = '.aider.chat.history.md';

/**
 * Each session's id in a history: the time its header gives, as `YYYY-MM-DDTHH:MM:SS` (a second
 * session started in the same second gets `~2`, `~3`…), in file order. The import names a
 * session by it (`<file>#<id>`).
 */
export function sessionIds(): (startedAt: string) => string {
  const seen = new Map<string, number>();
  return (startedAt) => {
    const base = startedAt.trim().replace(/\s+/g, 'T');
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}~${n}`;
  };
}

/** A header's local date and time (aider writes no zone) as ISO 8601, or null when it is not one. */
function startTime(startedAt: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(startedAt.trim());
  const date = m ? new Date(`${m[1]}T${m[2]}`) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}

/** The sessions in one history, told without importing: read line by line, edits applied counted. */
export function listHistorySessions(path: string): SessionInFile[] {
  const out: SessionInFile[] = [];
  const idOf = sessionIds();
  const project = dirname(path);
  let current: SessionInFile | null = null;
  for (const line of fileLines(path)) {
    const header = SESSION_HEADER.exec(line.text);
    if (header) {
      current = { id: idOf(header[1]!), project, modified: startTime(header[1]!), bytes: 0, toolCalls: 0 };
      out.push(current);
    }
    if (!current) continue;
    current.bytes += Buffer.byteLength(line.text) + 1;
    if (line.text.startsWith('> Applied edit to ')) current.toolCalls++;
  }
  // The last session is the one aider wrote last: the file's own time says when.
  if (out.length > 0) out[out.length - 1]!.modified = null;
  return out;
}

export const aiderChatSessions: SessionLocations = {
  agent: 'aider',
  folders: (home) => {
    const named = home.env.WORLDLOOM_AIDER_FOLDERS?.trim();
    if (named) {
      const separator = (home.platform === 'win32' ? win32 : posix).delimiter;
      return named.split(separator).map((p) => p.trim()).filter(Boolean).map((path) => ({ path, from: 'WORLDLOOM_AIDER_FOLDERS' }));
    }
    return home.home ? [{ path: home.home, from: 'default' }] : [];
  },
  files: [HISTORY_FILE, `*/${HISTORY_FILE}`, `*/*/${HISTORY_FILE}`],
  // Each edit aider applied is one line; commands' output is not counted (since aider 0.54 it is not in the file).
  toolCall: /^> Applied edit to /gm,
  toolCallHint: '> Applied edit to ',
  // One file holds every session of its project: each is listed as `<file>#<its start time>`.
  sessionsIn: async (path) => listHistorySessions(path),
  // The folder the history is in is the project (null for the folder looked in itself, whose path the list shows).
  project: (_head, relativePath) => {
    const parts = relativePath.split(/[\\/]/);
    return parts.length > 1 ? parts.slice(0, -1).join('/') : null;
  },
};
