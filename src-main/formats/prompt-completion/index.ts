// Prompt/completion JSONL (TRL): written as a dataset (./export.ts).
import type { FormatEntry } from '../format';
import { promptCompletionFormat } from './export';

export const promptCompletionFormatEntry: FormatEntry = { id: promptCompletionFormat.id, label: promptCompletionFormat.label, extensions: ['jsonl'], datasetWriter: promptCompletionFormat };
