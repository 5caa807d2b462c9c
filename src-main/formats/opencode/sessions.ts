// Where opencode keeps its sessions: its data folder, `opencode` in the XDG data folder
// (packages/core global.ts joins xdg-basedir's xdgData with "opencode": $XDG_DATA_HOME, else
// ~/.local/share, on every system, Windows and macOS included). From 1.2 the sessions are in
// opencode.db there (opencode-<channel>.db for other channels' builds), listed one by one
// (./database.ts); before, in storage/ as a file per session, message and part (./storage.ts),
// which 1.2 copied into the database and left in place: a session in both is listed once.
// OPENCODE_DB (a database anywhere else) is not looked at: import that file by its path.
import { dirname } from 'node:path';
import type { SessionFolder, SessionHome, SessionLocations } from '../format';
import { joinFor } from '../session-folders';
import { DATABASE_FILES, inDatabases, listOpencodeSessions } from './database';
import { describeStorageSession, storageRootOf } from './storage';

/** opencode's data folder on this machine, and why. */
export function opencodeDataFolder(home: SessionHome): SessionFolder {
  const named = home.env.XDG_DATA_HOME?.trim();
  if (named) return { path: joinFor(home, named, 'opencode'), from: 'XDG_DATA_HOME' };
  return { path: joinFor(home, home.home, '.local', 'share', 'opencode'), from: 'default' };
}

/** opencode before 1.2: the session files of its JSON storage, each told from its message and part files. */
export const opencodeStorageSessions: SessionLocations = {
  agent: 'opencode',
  folders: (home) => {
    const data = opencodeDataFolder(home);
    return [{ path: joinFor(home, data.path, 'storage'), from: data.from }];
  },
  files: ['session/*/*.json'],
  // Unused: describeSession reads the parts, where the tool calls are.
  toolCall: /"callID"\s*:\s*"([^"]+)"/g,
  toolCallHint: '"callID"',
  project: () => null,
  describeSession: async (path) => {
    const root = storageRootOf(path);
    return describeStorageSession(path, async (id) => root !== null && inDatabases(dirname(root), id));
  },
};

/** opencode 1.2 and later: each session in its database listed on its own. */
export const opencodeDatabaseSessions: SessionLocations = {
  agent: 'opencode',
  folders: (home) => [opencodeDataFolder(home)],
  files: DATABASE_FILES,
  toolCall: /"callID"/g,
  toolCallHint: '"callID"',
  project: () => null,
  sessionsIn: async (path) => listOpencodeSessions(path),
};
