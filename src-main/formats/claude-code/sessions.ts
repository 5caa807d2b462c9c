// Where Claude Code keeps its sessions: `projects/<the working folder, slashes as dashes>/
// <session id>.jsonl` under its configuration folder, which is CLAUDE_CONFIG_DIR (a
// comma-separated list is accepted, as usage tools read it), else ~/.claude and, for versions
// that follow XDG, ~/.config/claude. Sub-agents' sessions sit in `<session id>/subagents/`.
import type { SessionLocations } from '../format';
import { firstFolderOf, foldersFrom, workingDirectoryIn } from '../session-folders';
import { continuedSessions } from './continued';

export const claudeCodeSessions: SessionLocations = {
  agent: 'Claude Code',
  folders: (home) => foldersFrom(home, 'CLAUDE_CONFIG_DIR', ['.claude', '.config/claude'], ['projects'], ','),
  files: ['*/*.jsonl', '*/*/subagents/*.jsonl'],
  // Each tool_use block carries its id right after its type.
  toolCall: /"type"\s*:\s*"tool_use"\s*,\s*"id"\s*:\s*"([^"]+)"/g,
  toolCallHint: '"tool_use"',
  project: (head, relativePath) => workingDirectoryIn(head) ?? firstFolderOf(relativePath),
  // A resumed session is written to a new file that opens with a copy of the conversation (./continued.ts).
  continuedSessions,
};
