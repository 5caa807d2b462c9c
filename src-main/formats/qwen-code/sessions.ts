// Where Qwen Code keeps its sessions: `projects/<the working folder, sanitised>/chats/<session
// id>.jsonl` under ~/.qwen (its Storage's project folder, where the chat recorder makes `chats`).
import type { SessionLocations } from '../format';
import { firstFolderOf, joinFor, workingDirectoryIn } from '../session-folders';

export const qwenCodeSessions: SessionLocations = {
  agent: 'Qwen Code',
  folders: (home) => [{ path: joinFor(home, home.home, '.qwen', 'projects'), from: 'default' }],
  files: ['*/chats/*.jsonl'],
  // Each call the model made is answered in a tool_result record by a functionResponse with the call's id.
  toolCall: /"functionResponse"\s*:\s*\{\s*"id"\s*:\s*"([^"]+)"/g,
  toolCallHint: '"functionResponse"',
  project: (head, relativePath) => workingDirectoryIn(head) ?? firstFolderOf(relativePath),
};
