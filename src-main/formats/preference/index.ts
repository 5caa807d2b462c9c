// Preference JSONL (TRL DPO): written as a dataset (./export.ts).
import type { FormatEntry } from '../format';
import { preferenceFormat } from './export';

export const preferenceFormatEntry: FormatEntry = { id: preferenceFormat.id, label: preferenceFormat.label, extensions: ['jsonl'], datasetWriter: preferenceFormat };
