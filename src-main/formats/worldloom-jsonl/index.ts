// Worldloom JSONL: every trajectory with every field, written (./export.ts) and read back (./import.ts).
import type { FormatEntry } from '../format';
import { worldloomJsonlExporter } from './export';
import { worldloomJsonlImporter } from './import';

export const worldloomJsonlFormat: FormatEntry = {
  id: 'jsonl',
  label: 'Worldloom JSONL (every trajectory, round-trips everything)',
  extensions: ['jsonl'],
  importer: worldloomJsonlImporter,
  fileWriter: worldloomJsonlExporter,
};
