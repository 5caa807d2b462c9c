// Claude Code session files: imported (./import.ts), not exported; found on disk where ./sessions.ts says.
import type { FormatEntry } from '../format';
import { claudeCodeImporter } from './import';
import { claudeCodeSessions } from './sessions';

export const claudeCodeFormat: FormatEntry = { id: 'claude-code', label: 'Claude Code session JSONL', extensions: ['jsonl'], sessions: claudeCodeSessions, importer: claudeCodeImporter };
