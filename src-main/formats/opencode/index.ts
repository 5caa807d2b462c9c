// opencode sessions: its JSON storage and `opencode export` documents (./import.ts opencodeImporter)
// and its opencode.db (opencodeDatabaseImporter); imported, not exported; found on disk where
// ./sessions.ts says.
import type { FormatEntry } from '../format';
import { opencodeDatabaseImporter, opencodeImporter } from './import';
import { opencodeDatabaseSessions, opencodeStorageSessions } from './sessions';

export const opencodeFormat: FormatEntry = { id: 'opencode', label: opencodeImporter.label, extensions: ['json'], sessions: opencodeStorageSessions, importer: opencodeImporter };
export const opencodeDatabaseFormat: FormatEntry = { id: 'opencode-db', label: opencodeDatabaseImporter.label, extensions: ['db'], sessions: opencodeDatabaseSessions, importer: opencodeDatabaseImporter };
