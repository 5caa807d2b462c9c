// better-sqlite3 is a native addon built for plain Node by `npm install`; Electron's Node
// has another ABI. `npm start` builds a copy for Electron (native/electron-native.mjs)
// and the desktop app loads that copy, leaving the plain-Node build for the CLI and tests.
// A packed app carries the copy in its resources folder (electron-builder.config.mjs).
import { app } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { useSqliteNativeBinding } from '../store/workspace-store';

export function useElectronSqliteBinding(): void {
  const candidate = app.isPackaged
    ? join(process.resourcesPath, 'native', 'better_sqlite3.node')
    : join(app.getAppPath(), 'node_modules', '.worldloom-electron', 'better_sqlite3.node');
  if (existsSync(candidate)) useSqliteNativeBinding(candidate);
}
