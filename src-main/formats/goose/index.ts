// goose sessions: the .jsonl files goose wrote before 1.10 (./import.ts) and the sessions.db it
// keeps from 1.10 on (./import-database.ts); imported, not exported; found on disk where
// ./sessions.ts says.
import type { FormatEntry } from '../format';
import { gooseDatabaseImporter } from './import-database';
import { gooseJsonlImporter } from './import';
import { gooseDatabaseSessions, gooseJsonlSessions } from './sessions';

export const gooseJsonlFormat: FormatEntry = { id: 'goose-jsonl', label: gooseJsonlImporter.label, extensions: ['jsonl'], sessions: gooseJsonlSessions, importer: gooseJsonlImporter };
export const gooseDatabaseFormat: FormatEntry = { id: 'goose-db', label: gooseDatabaseImporter.label, extensions: ['db'], sessions: gooseDatabaseSessions, importer: gooseDatabaseImporter };
