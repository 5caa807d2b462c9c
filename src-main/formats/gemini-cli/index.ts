// gemini-cli sessions: imported (./import.ts), not exported; found on disk where ./sessions.ts says.
import type { FormatEntry } from '../format';
import { geminiCliImporter } from './import';
import { geminiCliSessions } from './sessions';

export const geminiCliFormat: FormatEntry = { id: 'gemini-cli', label: 'gemini-cli session', extensions: ['json', 'jsonl'], sessions: geminiCliSessions, importer: geminiCliImporter };
