// Where goose keeps its sessions: `sessions/` in its data folder, which crates/goose
// config/paths.rs takes from GOOSE_PATH_ROOT (`<root>/data`, when it is an absolute path), else
// from the `etcetera` app strategy for Block's "goose": XDG on Linux and macOS
// ($XDG_DATA_HOME/goose when that is absolute, else ~/.local/share/goose), on Windows
// %APPDATA%\Block\goose\data. From 1.10 the sessions are in sessions.db there (listed one by
// one, ./database.ts); before, one <id>.jsonl file each (left in place when 1.10 copied them in: such a copy is listed from the database only).
import { basename, dirname, join, posix, win32 } from 'node:path';
import type { SessionFolder, SessionHome, SessionLocations } from '../format';
import { joinFor, workingDirectoryIn } from '../session-folders';
import { GOOSE_TOOL_RESULT, gooseDatabaseHolds, listGooseSessions } from './database';

function gooseSessionFolder(home: SessionHome): SessionFolder {
  const absolute = (p: string | undefined) => (p && (home.platform === 'win32' ? win32 : posix).isAbsolute(p) ? p : undefined);
  const root = absolute(home.env.GOOSE_PATH_ROOT?.trim());
  if (root) return { path: joinFor(home, root, 'data', 'sessions'), from: 'GOOSE_PATH_ROOT' };
  if (home.platform === 'win32') {
    const appData = home.env.APPDATA?.trim();
    return { path: joinFor(home, appData || joinFor(home, home.home, 'AppData', 'Roaming'), 'Block', 'goose', 'data', 'sessions'), from: appData ? 'APPDATA' : 'default' };
  }
  const dataHome = absolute(home.env.XDG_DATA_HOME?.trim());
  if (dataHome) return { path: joinFor(home, dataHome, 'goose', 'sessions'), from: 'XDG_DATA_HOME' };
  return { path: joinFor(home, home.home, '.local', 'share', 'goose', 'sessions'), from: 'default' };
}

/** Session files of goose before 1.10. */
export const gooseJsonlSessions: SessionLocations = {
  agent: 'goose',
  folders: (home) => [gooseSessionFolder(home)],
  files: ['*.jsonl'],
  // Each call that ran is answered by a toolResponse naming it by id.
  toolCall: /"type"\s*:\s*"toolResponse"\s*,\s*"id"\s*:\s*"([^"]+)"/g,
  toolCallHint: '"toolResponse"',
  // The first line (SessionMetadata) names the working folder.
  project: (head) => workingDirectoryIn(head, 'working_dir'),
  // goose 1.10 copied each file into sessions.db beside it, under the file's name, and left the file: listed from the database only.
  copiedElsewhere: async (path) => gooseDatabaseHolds(join(dirname(path), 'sessions.db'), basename(path).replace(/\.jsonl$/i, '')),
};

/** goose's database, 1.10 and later: each session in it listed on its own. */
export const gooseDatabaseSessions: SessionLocations = {
  agent: 'goose',
  folders: (home) => [gooseSessionFolder(home)],
  files: ['sessions.db'],
  toolCall: /"type":"toolResponse"/g,
  toolCallHint: GOOSE_TOOL_RESULT,
  project: () => null,
  sessionsIn: async (path) => listGooseSessions(path),
};
