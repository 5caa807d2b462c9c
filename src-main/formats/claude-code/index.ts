// Claude Code session files: imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { claudeCodeImporter } from './import';

export const claudeCodeFormat: FormatEntry = { id: 'claude-code', label: 'Claude Code session JSONL', extensions: ['jsonl'], importer: claudeCodeImporter };
