// Kimi CLI sessions: imported (./import.ts), not exported; found on disk where ./sessions.ts says.
import type { FormatEntry } from '../format';
import { kimiCliImporter } from './import';
import { kimiCliSessions } from './sessions';

export const kimiCliFormat: FormatEntry = { id: 'kimi-cli', label: 'Kimi CLI session context.jsonl', extensions: ['jsonl'], sessions: kimiCliSessions, importer: kimiCliImporter };
