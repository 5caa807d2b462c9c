// ShareGPT JSONL (LLaMA-Factory): written as a dataset with its dataset_info.json (./export.ts) and read back (./import.ts).
import type { FormatEntry } from '../format';
import { shareGptFormat } from './export';
import { shareGptImporter } from './import';

export const shareGptFormatEntry: FormatEntry = { id: shareGptFormat.id, label: shareGptFormat.label, extensions: ['jsonl'], importer: shareGptImporter, datasetWriter: shareGptFormat };
