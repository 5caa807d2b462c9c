// One interface for every real environment (Terminal, MCP, Web): start it, take actions,
// dispose of it. Each environment keeps a log of what it really did, so a real node's
// provenance can say how its observation came about (exit status, time-out, isError…).
import { UserError } from '../common/user-error';
import type { Domain } from '../common/trajectory/model';

/** What one real action produced. */
export interface RealStep {
  observation: string;
  /** Facts about the run worth keeping in the node's provenance (exit status, timings, errors). */
  details: Record<string, unknown>;
}

export interface RealEnvironment {
  readonly domain: Domain;
  /** Which sandbox is in force, in words a user reads in the UI ("bubblewrap: no network, …"). */
  readonly sandbox: string;
  /** Starts the environment and returns what it shows before the first action. */
  start(): Promise<string>;
  /** The environment description (system prompt) for a trajectory recorded here; call after start(). */
  description(): string;
  step(action: string): Promise<RealStep>;
  /** Everything this environment did so far, in order. */
  readonly log: readonly RealLogEntry[];
  dispose(): Promise<void>;
}

export interface RealLogEntry {
  action: string;
  observation: string;
  details: Record<string, unknown>;
  startedAt: string;
  durationMs: number;
}

/** Times a step and appends it to `log`. */
export async function recordStep(log: RealLogEntry[], action: string, run: () => Promise<RealStep>): Promise<RealStep> {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const step = await run();
  const durationMs = Math.round(performance.now() - t0);
  step.details = { ...step.details, durationMs };
  log.push({ action, observation: step.observation, details: step.details, startedAt, durationMs });
  return step;
}

/** A real environment refused to start (no sandbox, a bad server command…); the message says what to do. */
export class RealEnvironmentError extends UserError {
  constructor(message: string, code: 'no-sandbox' | 'bad-action' | 'start-failed' | 'not-supported' | 'busy' = 'start-failed') {
    super(message, code);
  }
}
