// Parquet (Hugging Face datasets): written as a dataset (./export.ts) and read back (./import.ts).
import type { FormatEntry } from '../format';
import { parquetFormat } from './export';
import { parquetImporter } from './import';

export const parquetFormatEntry: FormatEntry = { id: parquetFormat.id, label: parquetFormat.label, extensions: ['parquet'], importer: parquetImporter, datasetWriter: parquetFormat };
