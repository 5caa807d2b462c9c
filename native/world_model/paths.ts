// Where the nano world model's pipeline reads and writes, and the session record it passes along.
import { join } from 'node:path';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');
export const DATA_DIR = join(REPO_ROOT, 'native', 'world_model', 'data');
export const PROMPTS_DIR = join(REPO_ROOT, 'resources', 'prompts');
export const MODEL_DIR = join(REPO_ROOT, 'resources', 'models', 'worldloom-nano');
/** Where training writes the transformers checkpoint that `npm run model:convert` turns into MODEL_DIR. */
export const CHECKPOINT_DIR = join(DATA_DIR, 'hf-checkpoint');

export type SessionDomain = 'terminal' | 'mcp' | 'web';

export interface RecordedStep {
  action: string;
  observation: string;
}

/** One real session as the app's recorder saw it: what a recorded trajectory in a workspace holds. */
export interface RecordedSession {
  id: string;
  domain: SessionDomain;
  /** MCP: which reference server. */
  server?: 'filesystem' | 'memory';
  split: 'train' | 'test';
  /** The recorder's environment description: the trajectory's system prompt. */
  systemPrompt: string;
  /** What the environment showed before the first action (the root node's observation). */
  initialState: string;
  steps: RecordedStep[];
}
