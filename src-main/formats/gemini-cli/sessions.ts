// Where gemini-cli keeps its sessions: `tmp/<project hash or name>/chats/session-*.json`
// (one JSON document; 0.39 and later write `.jsonl` logs) under ~/.gemini, where the home
// folder is GEMINI_CLI_HOME when set.
import type { SessionLocations } from '../format';
import { firstFolderOf, joinFor, workingDirectoryIn } from '../session-folders';

export const geminiCliSessions: SessionLocations = {
  agent: 'Gemini CLI',
  folders: (home) => {
    const named = home.env.GEMINI_CLI_HOME?.trim();
    return [{ path: joinFor(home, named || home.home, '.gemini', 'tmp'), from: named ? 'GEMINI_CLI_HOME' : 'default' }];
  },
  files: ['*/chats/session-*.json', '*/chats/session-*.jsonl'],
  // Every answered call carries a functionResponse; a log line rewritten as the message grows repeats it with the same id.
  toolCall: /"functionResponse"\s*:\s*\{(?:\s*"id"\s*:\s*"([^"]+)")?/g,
  toolCallHint: '"functionResponse"',
  project: (head, relativePath) => workingDirectoryIn(head, 'projectRoot') ?? firstFolderOf(relativePath),
};
