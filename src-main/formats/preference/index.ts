// Preference JSONL (TRL DPO, LLaMA-Factory ranking data): written as a dataset (./export.ts), read back as sibling observations (./import.ts).
import type { FormatEntry } from '../format';
import { preferenceFormat } from './export';
import { preferenceImporter } from './import';

export const preferenceFormatEntry: FormatEntry = { id: preferenceFormat.id, label: preferenceFormat.label, extensions: ['jsonl', 'json'], datasetWriter: preferenceFormat, importer: preferenceImporter };
