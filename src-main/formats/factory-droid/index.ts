// Factory droid sessions: imported (./import.ts), not exported; found on disk where ./sessions.ts says.
import type { FormatEntry } from '../format';
import { factoryDroidImporter } from './import';
import { factoryDroidSessions } from './sessions';

export const factoryDroidFormat: FormatEntry = { id: 'factory-droid', label: 'Factory droid session JSONL', extensions: ['jsonl'], sessions: factoryDroidSessions, importer: factoryDroidImporter };
