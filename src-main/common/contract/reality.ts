// The sim-vs-real part of the contract: real environments (record, run real), replay of
// recorded trajectories through the world model, and the comparisons and reports that
// put simulated and real observations side by side. Pure: the renderer imports it too.
import { z } from 'zod';
import { Domain, NodeRecord } from '../trajectory/model';
import { JobId, StepFailure } from './jobs';
import { method } from './method';
import { IncompleteSample, Sampling } from './simulation';

const Id = z.string().min(1).max(200);

/** The domains that have a real environment. */
export const REAL_DOMAINS = ['terminal', 'mcp', 'web'] as const;
export const RealDomain = z.enum(REAL_DOMAINS);
export type RealDomain = z.infer<typeof RealDomain>;

/** How to start each kind of real environment; kept on a recorded trajectory's root so "run real" can start it again. */
export const RealEnvironmentSettings = z.object({
  terminal: z
    .object({
      commandTimeoutSeconds: z.number().min(1).max(3600).optional(),
      maxOutputBytes: z.number().int().min(1024).max(64 * 1024 * 1024).optional(),
      maxProcesses: z.number().int().min(8).max(65_536).optional(),
    })
    .optional(),
  mcp: z
    .object({
      command: z.string().min(1).max(4096),
      args: z.array(z.string().max(4096)).max(256).default([]),
      cwd: z.string().max(4096).optional(),
      env: z.record(z.string(), z.string().max(65_536)).optional(),
    })
    .optional(),
  web: z.object({ actionTimeoutSeconds: z.number().min(1).max(600).optional() }).optional(),
});
export type RealEnvironmentSettings = z.infer<typeof RealEnvironmentSettings>;

export const SandboxState = z.object({
  domain: RealDomain,
  available: z.boolean(),
  /** The sandbox in force, in words ("bubblewrap: no network, …"). */
  sandbox: z.string(),
  /** Why it cannot run here and what to do, when not available. */
  problem: z.string().nullable(),
});
export type SandboxState = z.infer<typeof SandboxState>;

/** One step of a trajectory with its real and simulated observations side by side. */
export const StepComparison = z.object({
  depth: z.number().int().min(1),
  action: z.string(),
  realNodeId: z.string().nullable(),
  simulatedNodeId: z.string().nullable(),
  real: z.string().nullable(),
  simulated: z.string().nullable(),
  /** compareObservations(domain, simulated, real) when both sides exist. */
  metrics: z.record(z.string(), z.number()).nullable(),
  /** The simulation differs from reality at this step (not an exact match). */
  diverged: z.boolean().nullable(),
});
export type StepComparison = z.infer<typeof StepComparison>;

export const TrajectoryComparison = z.object({
  trajectoryId: z.string(),
  title: z.string(),
  domain: Domain,
  steps: z.array(StepComparison),
  /** Mean of each metric over the compared steps. */
  aggregate: z.record(z.string(), z.number()),
  /** Depth of the first step where the simulation diverged, if any. */
  firstDivergence: z.number().int().nullable(),
});
export type TrajectoryComparison = z.infer<typeof TrajectoryComparison>;

export const SimVsRealReport = z.object({
  createdAt: z.string(),
  trajectories: z.array(TrajectoryComparison),
  byDomain: z.record(z.string(), z.object({ trajectories: z.number().int(), steps: z.number().int(), metrics: z.record(z.string(), z.number()) })),
  overall: z.record(z.string(), z.number()),
  /** Per step depth (1 = the first step), over every trajectory that reached it: where predictions drift as histories grow. */
  byStep: z.array(z.object({ depth: z.number().int(), steps: z.number().int(), diverged: z.number().int(), metrics: z.record(z.string(), z.number()) })).default([]),
  /** Whose predictions were compared, when the report is for one model of several (an A/B). */
  model: z.string().optional(),
});
export type SimVsRealReport = z.infer<typeof SimVsRealReport>;

/** Two or more world models replayed over the same recorded steps (reality/model-comparison.ts). */
export const ModelComparison = z.object({
  createdAt: z.string(),
  /** The metric steps are ranked by. */
  score: z.string(),
  models: z.array(
    z.object({
      /** What tells the model's predictions apart (its identity, else its id). */
      key: z.string(),
      label: z.string(),
      /** Mean decode rate of one stream, as its engine timed its predictions. */
      streamTokensPerSecond: z.number(),
      report: SimVsRealReport,
    }),
  ),
  /** The steps where the first two models came closest to and furthest from each other's score, furthest first. */
  differences: z.array(
    z.object({
      trajectoryId: z.string(),
      title: z.string(),
      domain: Domain,
      depth: z.number().int(),
      action: z.string(),
      real: z.string(),
      predictions: z.array(z.object({ observation: z.string(), score: z.number() })),
      /** The first model's score minus the second's. */
      gap: z.number(),
    }),
  ),
});
export type ModelComparison = z.infer<typeof ModelComparison>;

const ModelKeys = z.array(z.string().min(1).max(4096)).min(2).max(8);

export const realityApi = {
  'reality.sandboxes': method(z.object({}), z.array(SandboxState)),
  /** Runs actions in a fresh real environment and stores them as a new real trajectory. */
  'reality.record': method(
    z.object({
      jobId: JobId,
      domain: RealDomain,
      actions: z.array(z.string().min(1).max(100_000)).min(1).max(10_000),
      title: z.string().max(500).optional(),
      environment: RealEnvironmentSettings.default({}),
    }),
    z.object({ trajectoryId: z.string(), steps: z.number().int(), sandbox: z.string() }),
  ),
  /** Executes the node's path from the root for real and adds `real` siblings beside the steps that were not real. */
  'reality.runReal': method(
    z.object({
      jobId: JobId,
      nodeId: Id,
      environment: RealEnvironmentSettings.optional(),
      /**
       * The path's actions, root first, as the user read and confirmed them in the Run real
       * dialog. A trajectory may come from a file: only steps the user confirmed run for real.
       */
      confirmedActions: z.array(z.string().max(1_000_000)).max(10_000),
    }),
    z.object({ nodes: z.array(NodeRecord), sandbox: z.string(), comparison: TrajectoryComparison }),
  ),
  /**
   * Simulates every recorded step of one or several trajectories (`trajectoryIds`, or those a
   * `filter` in the export filter language selects: a trajectory is in when one of its recorded
   * steps matches) from the real history, all steps in flight at once up to what the model
   * takes, and stores each prediction beside its real node, in step order.
   */
  'reality.replay': method(
    z
      .object({
        jobId: JobId,
        trajectoryId: Id.optional(),
        trajectoryIds: z.array(Id).min(1).max(100_000).optional(),
        filter: z.string().min(1).max(10_000).optional(),
        sampling: Sampling.partial().default({}),
      })
      .refine((input) => [input.trajectoryId, input.trajectoryIds, input.filter].filter((v) => v !== undefined).length === 1, {
        message: 'Name what to replay: one trajectory, a list of trajectories, or a filter (only one of them).',
      }),
    z.object({
      nodes: z.array(NodeRecord),
      /** Ids among `nodes` of predictions an earlier replay with the same model, settings and seed already made: reused, not added. */
      reused: z.array(z.string()).default([]),
      /** Steps whose sample ran out of tokens before their observation: reported, never stored. */
      incomplete: z.array(IncompleteSample.extend({ step: z.number().int(), realNodeId: z.string(), trajectoryId: z.string() })).default([]),
      /** Steps whose engine kept failing after its retries; every other step kept its prediction. */
      failures: z.array(StepFailure).default([]),
      cancelled: z.boolean(),
      /** New tokens per second of the whole replay (its wall time). */
      tokensPerSecond: z.number().default(0),
      /** The replayed trajectories, in the order replayed. */
      trajectoryIds: z.array(z.string()),
      /** The first replayed trajectory's steps, side by side (the single-trajectory view). */
      comparison: TrajectoryComparison,
      /** Over every replayed trajectory: per trajectory, per domain, per step. */
      report: SimVsRealReport,
    }),
  ),
  /** Stops a record, run-real or replay job; steps already done are kept. */
  /** Real and simulated observations step by step along the path through `nodeId` (default: the recorded chain). */
  'reality.compare': method(z.object({ trajectoryId: Id, nodeId: Id.optional() }), TrajectoryComparison),
  'reality.report': method(z.object({ trajectoryIds: z.array(Id).max(100_000).optional() }), SimVsRealReport),
  /** The models whose replay predictions the trajectories hold, most predictions first: what an A/B can compare. */
  'reality.replayedModels': method(
    z.object({ trajectoryIds: z.array(Id).max(100_000).optional() }),
    z.array(z.object({ key: z.string(), label: z.string(), predictions: z.number().int() })),
  ),
  /** Which world model is closer to reality: each model's report over the same steps, and where they differ most. */
  'reality.compareModels': method(z.object({ trajectoryIds: z.array(Id).max(100_000).optional(), models: ModelKeys }), ModelComparison),
  /**
   * Writes the report to `path`; with `download` (the host door in a browser) `path` is only
   * the file's name, and the file is offered once under `downloadId` (GET /download/<id>).
   */
  'reality.exportReport': method(
    z.object({
      path: z.string().min(1).max(4096),
      format: z.enum(['html', 'json']),
      trajectoryIds: z.array(Id).max(100_000).optional(),
      /** Two or more model keys: the report compares them (an A/B) instead of the latest predictions. */
      models: ModelKeys.optional(),
      download: z.boolean().default(false),
    }),
    z.object({ path: z.string(), trajectories: z.number().int(), downloadId: z.string().optional() }),
  ),
} as const;
