// tau-bench results: imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { tauBenchImporter } from './import';

export const tauBenchFormat: FormatEntry = { id: 'tau-bench', label: 'tau-bench results', extensions: ['json'], importer: tauBenchImporter };
