// Cline, Roo Code and Kilo Code task histories: imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { clineTaskImporter } from './import';

export const clineTaskFormat: FormatEntry = { id: 'cline-task', label: 'Cline / Roo Code / Kilo Code task', extensions: ['json'], importer: clineTaskImporter };
