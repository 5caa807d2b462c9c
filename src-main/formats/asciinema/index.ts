// asciinema casts: imported (./import.ts replays the terminal and cuts it into commands), not exported.
import type { FormatEntry } from '../format';
import { asciinemaImporter } from './import';

export const asciinemaFormat: FormatEntry = { id: 'asciinema', label: 'asciinema cast', extensions: ['cast'], importer: asciinemaImporter };
