// Where Codex keeps its sessions: `sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` under
// CODEX_HOME, else ~/.codex; sessions the user archived move to `archived_sessions/`.
import type { SessionLocations } from '../format';
import { foldersFrom, workingDirectoryIn } from '../session-folders';

export const codexSessions: SessionLocations = {
  agent: 'Codex',
  folders: (home) => [...foldersFrom(home, 'CODEX_HOME', ['.codex'], ['sessions']), ...foldersFrom(home, 'CODEX_HOME', ['.codex'], ['archived_sessions'])],
  files: ['**/rollout-*.jsonl'],
  // A call is one response item; its output is another (`function_call_output`), which the closing quote leaves out.
  toolCall: /"type"\s*:\s*"(?:function_call|custom_tool_call|local_shell_call)"/g,
  toolCallHint: '_call"',
  project: (head) => workingDirectoryIn(head),
};
