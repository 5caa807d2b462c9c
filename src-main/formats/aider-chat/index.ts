// aider's chat history: imported (./import.ts), not exported; found in the folders ./sessions.ts says.
import type { FormatEntry } from '../format';
import { aiderChatImporter } from './import';
import { aiderChatSessions } from './sessions';

export const aiderChatFormat: FormatEntry = { id: 'aider-chat', label: 'aider chat history (.aider.chat.history.md)', extensions: ['md'], sessions: aiderChatSessions, importer: aiderChatImporter };
