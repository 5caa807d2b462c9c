// Inspect AI eval logs: imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { inspectLogImporter } from './import';

export const inspectLogFormat: FormatEntry = { id: 'inspect-log', label: 'Inspect AI eval log', extensions: ['eval', 'json'], importer: inspectLogImporter };
