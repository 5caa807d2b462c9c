// Qwen Code sessions: imported (./import.ts), not exported; found on disk where ./sessions.ts says.
import type { FormatEntry } from '../format';
import { qwenCodeImporter } from './import';
import { qwenCodeSessions } from './sessions';

export const qwenCodeFormat: FormatEntry = { id: 'qwen-code', label: 'Qwen Code session JSONL', extensions: ['jsonl'], sessions: qwenCodeSessions, importer: qwenCodeImporter };
