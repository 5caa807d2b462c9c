// GitHub Copilot CLI sessions: imported (./import.ts), not exported; found on disk where ./sessions.ts says.
import type { FormatEntry } from '../format';
import { copilotCliImporter } from './import';
import { copilotCliSessions } from './sessions';

export const copilotCliFormat: FormatEntry = { id: 'copilot-cli', label: 'GitHub Copilot CLI session events.jsonl', extensions: ['jsonl'], sessions: copilotCliSessions, importer: copilotCliImporter };
