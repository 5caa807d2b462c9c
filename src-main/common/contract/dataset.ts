// The dataset part of the contract: choosing examples (filters, tree scope), previewing
// them, and exporting train/validation sets as a cancellable job. Pure: the renderer
// imports these schemas too.
import { z } from 'zod';
import { method } from './method';

const Id = z.string().min(1).max(200);

/** Which part of the tree examples may come from; the filter expression narrows it further. */
export const SelectionScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  /** The nodes from the root down to this node. */
  z.object({ kind: z.literal('path'), nodeId: Id }),
  /** This node and everything below it. */
  z.object({ kind: z.literal('subtree'), nodeId: Id }),
  /** Nodes the user marked one by one. */
  z.object({ kind: z.literal('nodes'), nodeIds: z.array(Id).min(1).max(1_000_000) }),
  z.object({ kind: z.literal('trajectories'), trajectoryIds: z.array(Id).min(1).max(1_000_000) }),
]);
export type SelectionScope = z.infer<typeof SelectionScope>;

export const DatasetSelection = z.object({
  /** A filter expression such as `domain = terminal and rating >= 4`; empty keeps everything. */
  filter: z.string().max(20_000).default(''),
  scope: SelectionScope.default({ kind: 'all' }),
});
export type DatasetSelection = z.infer<typeof DatasetSelection>;

export const EXAMPLE_BUILDERS = ['world-model', 'agent', 'preference'] as const;
export const EXAMPLE_UNITS = ['step', 'path'] as const;
export const ExampleOptions = z.object({
  /**
   * world-model: history + action → observation; agent: observations → next action (a tool call);
   * preference: history + action → a chosen and a rejected observation (siblings rated or starred against each other).
   */
  builder: z.enum(EXAMPLE_BUILDERS).default('world-model'),
  /** One example per selected step, or one per path ending at the deepest selected node. */
  per: z.enum(EXAMPLE_UNITS).default('step'),
  /** Keep the world model's reasoning on the observations it is trained to produce. */
  reasoning: z.boolean().default(false),
});
export type ExampleOptions = z.infer<typeof ExampleOptions>;
/**
 * What a caller may leave out; the core fills it in by format (AgentWorldBench holds whole
 * paths). No defaults here: a default filled by the schema would hide what was left out.
 */
export const PartialExampleOptions = z.object({
  builder: z.enum(EXAMPLE_BUILDERS).optional(),
  per: z.enum(EXAMPLE_UNITS).optional(),
  reasoning: z.boolean().optional(),
});
/**
 * `examples` was called `samples` before the glossary's renames. An unknown key is dropped
 * without a word, so a script still sending `samples` would silently get the default builder:
 * it is refused instead, saying the new name.
 */
const RenamedSamples = z.never({ error: 'renamed: send the builder, per and reasoning options as `examples`' }).optional();

/**
 * A dataset format's id. The formats themselves are the core's format registry
 * (src-main/formats/registry.ts), listed to the UI by `app.info`; an unknown id is refused
 * there with the list of known ones, so the contract keeps no copy that could go stale.
 */
export const DatasetFormat = z.string().min(1).max(64);
export type DatasetFormat = z.infer<typeof DatasetFormat>;

/**
 * The export defaults every door uses (the export dialog starts from them; the CLI and the host
 * leave the options out): the export writes what the selection's live count counted. Everything
 * goes to train, as trainers load it (a split by trajectory takes whole trajectories out of a
 * small selection, so holding out is a choice); duplicate removal, which also drops examples whose
 * action and observation merely look alike, is asked for. Every export's summary says both.
 */
export const EXPORT_DEFAULTS = { split: 1, dedup: false } as const;

export const DatasetExportInput = z.object({
  /** Chosen by the caller so it can listen to `job.progress` and cancel before the call returns. */
  jobId: Id.optional(),
  /** A folder (created; must be empty unless `overwrite`). */
  out: z.string().min(1).max(4096),
  format: DatasetFormat,
  selection: DatasetSelection.default({ filter: '', scope: { kind: 'all' } }),
  /** `per` defaults by format: AgentWorldBench holds whole paths. */
  examples: PartialExampleOptions.default({}),
  samples: RenamedSamples,
  /** The dataset's name in the card and in LLaMA-Factory's dataset_info.json. */
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'use letters, digits, ".", "_" or "-"').optional(),
  /** Fraction of trajectories in train; 1 = no validation split. */
  split: z.number().min(0.01).max(1).default(EXPORT_DEFAULTS.split),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
  dedup: z.boolean().default(EXPORT_DEFAULTS.dedup),
  /** Estimated Jaccard similarity at or above which two examples count as near-duplicates. */
  nearDuplicateThreshold: z.number().min(0.5).max(1).default(0.85),
  scrub: z.boolean().default(false),
  /** Also export examples whose path holds a step that ran out of tokens (finish reason "length"); off, they are left out. */
  includeCutOff: z.boolean().default(false),
  /** Examples longer than this many tokens are left out (and counted in the card). */
  maxTokens: z.number().int().min(1).max(10_000_000).nullable().default(null),
  /** messages format: `field` puts reasoning in `reasoning_content` (TRL, Qwen templates); `inline` as <think> in content (ms-swift). */
  reasoningStyle: z.enum(['field', 'inline']).default('field'),
  overwrite: z.boolean().default(false),
  /**
   * For a browser on the host: `out` is only a name; the dataset is written into a private
   * folder and offered once as one .zip under `downloadId` (GET /download/<id>).
   */
  download: z.boolean().default(false),
  /**
   * A tokenizer folder (tokenizer.json, tokenizer_config.json) on the machine running the core,
   * for exact token counts; without it, the loaded model's tokenizer, else the embedded model's.
   */
  tokenizer: z.string().min(1).max(4096).optional(),
});
export type DatasetExportInput = z.input<typeof DatasetExportInput>;
export type DatasetExportOptions = z.output<typeof DatasetExportInput>;

const SplitCounts = z.object({ train: z.number().int(), validation: z.number().int() });

export const DatasetExportSummary = z.object({
  out: z.string(),
  format: DatasetFormat,
  /** Paths relative to `out`, the dataset card included. */
  files: z.array(z.string()),
  examples: SplitCounts,
  trajectories: SplitCounts,
  removed: z.object({ duplicates: z.number().int(), nearDuplicates: z.number().int(), overLength: z.number().int() }),
  /**
   * What the written examples teach, by where the taught step came from: recorded or written by
   * people (real, imported, manual), edited by a person, or written by the model (simulated,
   * perturbed, agent) and reviewed (starred, rated, tagged or noted) or not.
   */
  composition: z.object({ real: z.number().int(), edited: z.number().int(), simulatedReviewed: z.number().int(), simulatedUnreviewed: z.number().int() }),
  /** The options the export ran with, so its summary can say them. */
  split: z.number(),
  dedup: z.boolean(),
  scrubbed: z.record(z.string(), z.number().int()),
  tokenizer: z.object({ label: z.string(), exact: z.boolean() }),
  /** What the export could do but the user should know (an empty split, …), also written in the card. */
  warnings: z.array(z.string()).default([]),
  /** With `download`: the one-time id of the .zip holding the dataset. */
  downloadId: z.string().optional(),
});
export type DatasetExportSummary = z.infer<typeof DatasetExportSummary>;

export const PreviewMessage = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  /** An assistant turn with tool calls shows its action here too. */
  content: z.string(),
  reasoning: z.string().optional(),
  toolCalls: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })).optional(),
  name: z.string().optional(),
});

export const DatasetPreview = z.object({
  /** Set when the filter expression does not parse; counts are then zero. */
  filterError: z.object({ message: z.string(), column: z.number().int() }).nullable(),
  trajectories: z.number().int(),
  examples: z.number().int(),
  /**
   * What the selected examples teach, by the origin of the step each ends on, before any
   * duplicates are removed: shown before exporting, as the export's summary says it after.
   * Absent for preference pairs, which pair a preferred sample with another.
   */
  composition: z.object({ real: z.number().int(), edited: z.number().int(), simulatedReviewed: z.number().int(), simulatedUnreviewed: z.number().int() }).optional(),
  first: z.array(z.object({ id: z.string(), title: z.string(), messages: z.array(PreviewMessage) })),
});
export type DatasetPreview = z.infer<typeof DatasetPreview>;

export const datasetApi = {
  /** The live count and the first examples for a selection. */
  'dataset.preview': method(
    z.object({ selection: DatasetSelection, examples: PartialExampleOptions.default({}), samples: RenamedSamples, limit: z.number().int().min(0).max(50).default(3) }),
    DatasetPreview,
  ),
  /** Runs until the export is written; progress arrives as `job.progress` events for `jobId`. */
  'dataset.export': method(DatasetExportInput, DatasetExportSummary),
} as const;
