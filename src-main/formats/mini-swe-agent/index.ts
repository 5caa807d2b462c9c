// mini-swe-agent trajectories: imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { miniSweAgentImporter } from './import';

export const miniSweAgentFormat: FormatEntry = { id: 'mini-swe-agent', label: 'mini-swe-agent trajectory (.json)', extensions: ['json'], importer: miniSweAgentImporter };
