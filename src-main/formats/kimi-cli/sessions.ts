// Where Kimi CLI keeps its sessions: `sessions/<md5 of the working folder>/<session id>/context.jsonl`
// under its share folder (KIMI_SHARE_DIR, else ~/.kimi), a subagent's history in the session's
// `subagents/<agent id>/context.jsonl`. A /clear or a rewind moves the old history aside as
// `context_<n>.jsonl`; those are left where they are (context.jsonl is what the session kept).
import type { SessionLocations } from '../format';
import { firstFolderOf, foldersFrom } from '../session-folders';

/**
 * The working folder Kimi CLI's default system prompt names ("The current working directory is
 * `…`", its agents' system.md), read from the `_system_prompt` record as written (JSON-escaped);
 * null for an agent whose prompt does not say it.
 */
export function kimiWorkDir(systemPromptRecord: string): string | null {
  const m = /current working directory is `((?:[^`"\\\n]|\\.)+)`/.exec(systemPromptRecord);
  if (!m) return null;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return null;
  }
}

export const kimiCliSessions: SessionLocations = {
  agent: 'Kimi CLI',
  folders: (home) => foldersFrom(home, 'KIMI_SHARE_DIR', ['.kimi'], ['sessions']),
  files: ['*/*/context.jsonl', '*/*/subagents/*/context.jsonl'],
  // Each call's result is a `tool` message naming the call by tool_call_id.
  toolCall: /"tool_call_id"\s*:\s*"([^"]+)"/g,
  toolCallHint: '"tool_call_id"',
  // The default system prompt names the working folder; else the folder's name, the md5 of it.
  project: (head, relativePath) => kimiWorkDir(head.split('\n', 1)[0]!) ?? firstFolderOf(relativePath),
};
