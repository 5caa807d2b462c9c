// Cline, Roo Code and Kilo Code task histories: imported (./import.ts), not exported; found on disk where ./sessions.ts says.
import type { FormatEntry } from '../format';
import { clineTaskImporter } from './import';
import { clineTaskSessions } from './sessions';

export const clineTaskFormat: FormatEntry = { id: 'cline-task', label: 'Cline / Roo Code / Kilo Code task', extensions: ['json'], sessions: clineTaskSessions, importer: clineTaskImporter };
