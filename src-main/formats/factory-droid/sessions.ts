// Where Factory's droid keeps its sessions: `~/.factory/sessions/<the working folder, slashes as
// dashes>/<session id>.jsonl`, beside a `<session id>.settings.json` of model and token counts
// (Factory's own session-navigation skill describes this layout).
import type { SessionLocations } from '../format';
import { firstFolderOf, joinFor, workingDirectoryIn } from '../session-folders';

export const factoryDroidSessions: SessionLocations = {
  agent: 'Factory droid',
  folders: (home) => [{ path: joinFor(home, home.home, '.factory', 'sessions'), from: 'default' }],
  files: ['*/*.jsonl'],
  // Each call is answered by a tool_result block naming it by tool_use_id.
  toolCall: /"tool_use_id"\s*:\s*"([^"]+)"/g,
  toolCallHint: '"tool_result"',
  // session_start names the working folder; the folder's name is that path with its slashes as dashes.
  project: (head, relativePath) => workingDirectoryIn(head) ?? firstFolderOf(relativePath),
};
