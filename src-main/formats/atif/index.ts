// ATIF trajectory.json (Terminal-Bench 2 / Harbor): imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { atifImporter } from './import';

export const atifFormat: FormatEntry = { id: 'atif', label: 'ATIF trajectory.json (Terminal-Bench 2 / Harbor)', extensions: ['json'], importer: atifImporter };
