// SWE-agent trajectories (`.traj`): imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { sweAgentImporter } from './import';

export const sweAgentFormat: FormatEntry = { id: 'swe-agent', label: 'SWE-agent trajectory (.traj)', extensions: ['traj'], importer: sweAgentImporter };
