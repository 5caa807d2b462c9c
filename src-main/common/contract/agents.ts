// The agents part of the contract: policy expansion, where a policy (an OpenAI-compatible
// chat model, or a script of candidate actions) proposes the next actions at a node and the
// world model simulates them, breadth-first to a depth, within a budget, as one job.
import { z } from 'zod';
import { NodeRecord } from '../trajectory/model';
import { JobId, StepFailure } from './jobs';
import { method } from './method';
import { SamplingOverrides } from './simulation';

export const PolicySpec = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('openai'),
    baseUrl: z.string().url().max(2048),
    /** The served model name; left out, the server's only model. */
    model: z.string().max(500).optional(),
    apiKey: z.string().max(4096).optional(),
    temperature: z.number().min(0).max(2).default(0.8),
    /** New tokens per proposed action, reasoning included. */
    maxTokens: z.number().int().min(1).max(65_536).default(1024),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
  }),
  z.object({
    kind: z.literal('script'),
    /** The script's text: JSON (a list of actions, a list of lists per level, or {"actions": […]}) or one action per line. Read as text, never run. */
    text: z.string().min(1).max(1_000_000),
    /** Where it came from (a file name), for provenance. */
    name: z.string().max(500).default('script'),
  }),
]);
export type PolicySpec = z.infer<typeof PolicySpec>;

export const ExpandResult = z.object({
  nodes: z.array(NodeRecord),
  /** The deepest level reached (1 = the node's children). */
  levels: z.number().int(),
  /** done: every level expanded; tokens/time: the budget ran out; no-actions: the policy proposed nothing more. */
  stoppedBy: z.enum(['done', 'tokens', 'time', 'cancelled', 'no-actions']),
  /** New tokens the world model and the policy used. */
  tokens: z.number().int(),
  /** Samples that ran out of tokens before their observation (not stored). */
  incomplete: z.number().int(),
  /** Simulations that failed after their engine's retries; every other one kept its nodes. */
  failures: z.array(StepFailure).default([]),
});
export type ExpandResult = z.infer<typeof ExpandResult>;

export const ExpandInput = z.object({
  jobId: JobId,
  nodeId: z.string().min(1).max(200),
  policy: PolicySpec,
  /** K: actions the policy proposes at each node. */
  actions: z.number().int().min(1).max(16).default(2),
  /** M: samples the world model simulates of each action. */
  samples: z.number().int().min(1).max(16).default(1),
  /** D: levels below the node. */
  depth: z.number().int().min(1).max(8).default(2),
  /** Stop once this many new tokens (world model and policy together) are used. */
  tokenBudget: z.number().int().min(1).optional(),
  /** Stop once this many seconds have passed. */
  timeBudgetSeconds: z.number().min(1).max(7 * 24 * 3600).optional(),
  /** The world model's settings for this run (the policy has its own). */
  sampling: SamplingOverrides.default({}),
});
export type ExpandInput = z.infer<typeof ExpandInput>;

export const agentsApi = {
  /** Expands a node breadth-first with a policy's actions and the world model's samples; progress as job.progress. */
  'agents.expand': method(ExpandInput, ExpandResult),
} as const;
