// The data model shared by every part of Worldloom (see DESIGN.md "Data model").
// Pure: no Node, no DOM, so the renderer, the host and the CLI all import it.
import { z } from 'zod';

export const DOMAINS = ['mcp', 'search', 'terminal', 'swe', 'android', 'web', 'os'] as const;
export const Domain = z.enum(DOMAINS);
export type Domain = z.infer<typeof Domain>;

/**
 * Where a node came from. `manual` = typed by hand in the studio; `agent` = an agent or a
 * policy chose the action inside a simulated world (mcp-serve, policy expansion) and the world
 * model produced the observation; `provenance.agent` names who acted.
 */
export const ORIGINS = ['real', 'simulated', 'edited', 'imported', 'perturbed', 'manual', 'agent'] as const;
export const Origin = z.enum(ORIGINS);
export type Origin = z.infer<typeof Origin>;

/** How a node came to be. Every field is optional: later features fill more of it. */
export const Provenance = z
  .object({
    engine: z.string().optional(),
    modelId: z.string().optional(),
    sampling: z.record(z.string(), z.unknown()).optional(),
    seed: z.number().int().optional(),
    promptHash: z.string().optional(),
    perturbations: z.array(z.record(z.string(), z.unknown())).optional(),
    tokens: z.object({ prompt: z.number().int(), completion: z.number().int() }).partial().optional(),
    timings: z.record(z.string(), z.number()).optional(),
    /** Who chose the action when an agent acted (origin `agent`). */
    agent: z
      .object({
        /** `mcp-client`: an MCP client of `worldloom mcp-serve`; `policy`: policy expansion. */
        kind: z.enum(['mcp-client', 'policy', 'openai-client']),
        name: z.string().optional(),
        session: z.string().optional(),
        model: z.string().optional(),
        promptHash: z.string().optional(),
        sampling: z.record(z.string(), z.unknown()).optional(),
      })
      .optional(),
    source: z
      .object({
        format: z.string(),
        file: z.string().optional(),
        line: z.number().int().optional(),
        /** The source's own text for the action, kept so exports round-trip byte for byte. */
        rawAction: z.string().optional(),
        rawObservation: z.string().optional(),
        sampleId: z.string().optional(),
        /** AgentWorldBench `task` as written in the source (it may carry a prefix). */
        task: z.string().optional(),
      })
      .optional(),
  })
  .catchall(z.unknown());
export type Provenance = z.infer<typeof Provenance>;

export const Curation = z.object({
  starred: z.boolean(),
  rating: z.number().int().min(1).max(5).nullable(),
  tags: z.array(z.string().min(1).max(64)).max(64),
  note: z.string().max(100_000),
});
export type Curation = z.infer<typeof Curation>;
export const EMPTY_CURATION: Curation = { starred: false, rating: null, tags: [], note: '' };

export const WorldSpec = z.object({
  text: z.string(),
  facts: z.array(z.object({ subject: z.string(), value: z.string() })),
});
export type WorldSpec = z.infer<typeof WorldSpec>;

export const TrajectoryRecord = z.object({
  id: z.string(),
  title: z.string(),
  domain: Domain,
  systemPrompt: z.string(),
  worldSpec: WorldSpec.nullable(),
  createdAt: z.string(),
  /** Identifies a trajectory across imports so a file imported twice is not duplicated. */
  sourceKey: z.string().nullable(),
});
export type TrajectoryRecord = z.infer<typeof TrajectoryRecord>;

/**
 * One environment state reached by one action from its parent. The root of a trajectory
 * has `parentId = null`, no action, and holds the initial state as its observation.
 * Content fields are immutable; curation and metrics may change.
 */
export const NodeRecord = z.object({
  id: z.string(),
  trajectoryId: z.string(),
  parentId: z.string().nullable(),
  /** Set when this node is an edit of another node (which stays untouched). */
  editedFromId: z.string().nullable(),
  depth: z.number().int().min(0),
  action: z.string(),
  observation: z.string(),
  /** The world model's reasoning before this observation. */
  reasoning: z.string().nullable(),
  /**
   * The acting agent's own reasoning before this action (SWE-agent `thought`, ATIF
   * `reasoning_content`): agent datasets use it, world-model datasets never do.
   */
  agentReasoning: z.string().nullable().optional(),
  origin: Origin,
  provenance: Provenance,
  curation: Curation,
  metrics: z.record(z.string(), z.number()).nullable(),
  createdAt: z.string(),
});
export type NodeRecord = z.infer<typeof NodeRecord>;

/** A trajectory as it travels between formats: its own fields plus nodes in parent-first order. */
export interface TrajectoryBundle {
  trajectory: TrajectoryRecord;
  nodes: NodeRecord[];
}

export const TrajectorySummary = TrajectoryRecord.extend({
  steps: z.number().int(),
  maxDepth: z.number().int(),
});
export type TrajectorySummary = z.infer<typeof TrajectorySummary>;
