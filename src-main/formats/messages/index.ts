// Chat messages JSONL (TRL, ms-swift): written as a dataset (./export.ts) and read back (./import.ts).
import type { FormatEntry } from '../format';
import { messagesJsonlFormat } from './export';
import { chatMessagesImporter } from './import';

export const messagesFormatEntry: FormatEntry = { id: messagesJsonlFormat.id, label: messagesJsonlFormat.label, extensions: ['jsonl'], importer: chatMessagesImporter, datasetWriter: messagesJsonlFormat };
