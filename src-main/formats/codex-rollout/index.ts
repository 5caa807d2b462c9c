// Codex CLI session rollouts: imported (./import.ts), not exported.
import type { FormatEntry } from '../format';
import { codexRolloutImporter } from './import';

export const codexRolloutFormat: FormatEntry = { id: 'codex-rollout', label: 'Codex CLI session rollout JSONL', extensions: ['jsonl'], importer: codexRolloutImporter };
