// Codex CLI session rollouts: imported (./import.ts), not exported; found on disk where ./sessions.ts says.
import type { FormatEntry } from '../format';
import { codexRolloutImporter } from './import';
import { codexSessions } from './sessions';

export const codexRolloutFormat: FormatEntry = { id: 'codex-rollout', label: 'Codex CLI session rollout JSONL', extensions: ['jsonl'], sessions: codexSessions, importer: codexRolloutImporter };
