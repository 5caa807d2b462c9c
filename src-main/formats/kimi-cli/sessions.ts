// Where Kimi CLI keeps its sessions: `sessions/<md5 of the working folder>/<session id>/context.jsonl`
// under its share folder (KIMI_SHARE_DIR, else ~/.kimi), a subagent's history in the session's
// `subagents/<agent id>/context.jsonl`. A /clear or a rewind moves the old history aside as
// `context_<n>.jsonl`; those are left where they are (context.jsonl is what the session kept).
import type { SessionLocations } from '../format';
import { firstFolderOf, foldersFrom } from '../session-folders';

export const kimiCliSessions: SessionLocations = {
  agent: 'Kimi CLI',
  folders: (home) => foldersFrom(home, 'KIMI_SHARE_DIR', ['.kimi'], ['sessions']),
  files: ['*/*/context.jsonl', '*/*/subagents/*/context.jsonl'],
  // Each call's result is a `tool` message naming the call by tool_call_id.
  toolCall: /"tool_call_id"\s*:\s*"([^"]+)"/g,
  toolCallHint: '"tool_call_id"',
  // The file holds no working folder: the folder's name is the md5 of it (kimi.json maps them back).
  project: (_head, relativePath) => firstFolderOf(relativePath),
};
