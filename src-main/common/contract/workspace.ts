// The workspace part of the contract: opening files, trajectories, nodes, import/export.
import { z } from 'zod';
import { Domain, NodeRecord, TrajectoryRecord, TrajectorySummary } from '../trajectory/model';
import { TrajectoryOutline } from '../trajectory/outline';
import { JobId } from './jobs';
import { method } from './method';

export const WorkspaceInfo = z.object({
  path: z.string(),
  trajectories: z.number().int(),
  steps: z.number().int(),
  byDomain: z.record(z.string(), z.number()),
  byOrigin: z.record(z.string(), z.number()),
});
export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>;

export const ImportReport = z.object({
  file: z.string(),
  format: z.string(),
  imported: z.number().int(),
  alreadyPresent: z.number().int(),
  problems: z.array(z.object({ line: z.number().int().nullable(), field: z.string().optional(), reason: z.string() })),
  /** Parts read and left out on purpose, each with why. */
  skipped: z.array(z.object({ line: z.number().int().nullable(), what: z.string(), reason: z.string() })).default([]),
  trajectoryIds: z.array(z.string()),
  /** With `scrub`: how many secrets and personal details were replaced, by kind. */
  scrubbed: z.object({ apiKey: z.number().int(), password: z.number().int(), email: z.number().int(), ip: z.number().int() }).optional(),
  /** Trajectories already here that the file's steps continued (a resumed Claude Code session's new turns). */
  continued: z.array(z.object({ trajectoryId: z.string(), title: z.string(), steps: z.number().int() })).optional(),
  /** Where a session went and why, as a user reads it. */
  notes: z.array(z.string()).optional(),
});
export type ImportReport = z.infer<typeof ImportReport>;

/** Bytes of a dropped file per upload chunk, and the base64 text that carries them. */
export const UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024;
const UPLOAD_CHUNK_BASE64_CHARS = Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4;

/** A format id of the core's format registry (listed by `app.info`), or `auto`: detected from the file's name and first bytes. */
const ImportFormat = z.string().min(1).max(64).default('auto');
/** How a chat dataset's turns map onto a trajectory (`world-model`: user turns are actions; `agent`: assistant turns are); guessed from the data when left out. */
const ChatAs = z.enum(['world-model', 'agent']).optional();
const Path = z.string().min(1).max(4096);
const Id = z.string().min(1).max(200);

export const AppInfo = z.object({
  version: z.string(),
  door: z.enum(['electron', 'host', 'cli']),
  /** Native open/save dialogs exist only in the desktop app; the host UI types paths. */
  nativeDialogs: z.boolean(),
  workspace: WorkspaceInfo.nullable(),
  recent: z.array(z.string()),
  defaultWorkspaceDir: z.string(),
  /**
   * A small AgentWorldBench folder made from the demo workspace's recorded sessions, for trying
   * the Evaluation panel before one has the benchmark; null where the installation lacks it.
   */
  demoBenchmarkDir: z.string().nullable().optional(),
  /** The core's format registry: what the export dialog offers and where each format writes. */
  formats: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      extensions: z.array(z.string()),
      imports: z.boolean(),
      exportsTo: z.array(z.enum(['file', 'folder'])),
    }),
  ),
});
export type AppInfo = z.infer<typeof AppInfo>;

const TrajectoryBundleSchema = z.object({ trajectory: TrajectoryRecord, nodes: z.array(NodeRecord) });


export const workspaceApi = {
  'app.info': method(z.object({}), AppInfo),
  'workspace.create': method(z.object({ path: Path }), WorkspaceInfo),
  'workspace.open': method(z.object({ path: Path }), WorkspaceInfo),
  /** Opens (creating on first use) the demo workspace of real recorded trajectories. */
  'workspace.openDemo': method(z.object({}), WorkspaceInfo),
  'workspace.close': method(z.object({}), z.object({ closed: z.boolean() })),
  'workspace.info': method(z.object({}), WorkspaceInfo),
  'trajectory.list': method(z.object({}), z.array(TrajectorySummary)),
  'trajectory.get': method(z.object({ id: Id }), TrajectoryBundleSchema),
  /** What the tree shows of every node, in columns: a fraction of `trajectory.get` for a big tree. */
  'trajectory.outline': method(z.object({ id: Id }), TrajectoryOutline),
  /** One node's full record: what the inspector shows. */
  'node.get': method(z.object({ id: Id }), NodeRecord),
  'trajectory.create': method(
    z.object({
      title: z.string().min(1).max(500),
      domain: Domain,
      systemPrompt: z.string().max(1_000_000),
      initialState: z.string().max(10_000_000),
    }),
    TrajectoryBundleSchema,
  ),
  'node.addManual': method(
    z.object({ parentId: Id, action: z.string().max(10_000_000), observation: z.string().max(10_000_000) }),
    NodeRecord,
  ),
  /** Import text the UI already holds (a dropped or picked file's content). */
  'import.text': method(
    z.object({ name: z.string().min(1).max(1000), text: z.string().max(512 * 1024 * 1024), format: ImportFormat, jobId: JobId.optional(), chatAs: ChatAs }),
    ImportReport,
  ),
  /**
   * A dropped file, sent in chunks (never one message, never read whole): begin with its
   * size, send base64 slices in order, then finish to import it as `worldloom import` would.
   */
  'import.begin': method(
    z.object({ name: z.string().min(1).max(1000), format: ImportFormat, size: z.number().int().min(0).max(64 * 1024 ** 3), chatAs: ChatAs }),
    z.object({ uploadId: z.string() }),
  ),
  'import.chunk': method(
    z.object({ uploadId: z.string().min(1).max(100), offset: z.number().int().min(0), data: z.string().max(UPLOAD_CHUNK_BASE64_CHARS) }),
    z.object({ received: z.number().int() }),
  ),
  'import.finish': method(z.object({ uploadId: z.string().min(1).max(100), jobId: JobId.optional() }), ImportReport),
  'import.abort': method(z.object({ uploadId: z.string().min(1).max(100) }), z.object({ aborted: z.boolean() })),
  /**
   * Uploaded `<domain>_test.jsonl` files (begun and sent as an import's are) made into a
   * benchmark folder on the machine running Worldloom, for the Evaluation panel in a browser.
   */
  'import.benchmarkFolder': method(z.object({ uploadIds: z.array(z.string().min(1).max(100)).min(1).max(8) }), z.object({ dataDir: z.string() })),
  /** Import files by path on the machine the core runs on. */
  'import.files': method(
    z.object({
      paths: z.array(Path).min(1).max(1000),
      format: ImportFormat,
      jobId: JobId.optional(),
      /** A terminal recording's shell prompt as a regular expression (`--prompt`), when it cannot be learned. */
      prompt: z.string().min(1).max(500).optional(),
      chatAs: ChatAs,
      /** What one file may decode to, in MiB (`--max-mib`); 256 when not given. */
      maxMiB: z.number().int().min(1).max(64 * 1024).optional(),
      /** Replace secrets and personal data (API keys, passwords, e-mail addresses, IPs) before anything is written, as exports' `--scrub` does. */
      scrub: z.boolean().default(false),
    }),
    z.array(ImportReport),
  ),
  /** With `download` (the host door in a browser), `path` is only the file's name; the file is offered once under `downloadId`. */
  'export.file': method(
    z.object({ path: Path, format: z.string().min(1).max(64), trajectoryIds: z.array(Id).optional(), jobId: JobId.optional(), download: z.boolean().default(false) }),
    z.object({ path: z.string(), trajectories: z.number().int(), records: z.number().int(), downloadId: z.string().optional() }),
  ),
  /** Desktop only: native dialogs. The host answers with an error saying to type a path. */
  'dialog.pickWorkspace': method(z.object({ mode: z.enum(['open', 'create']) }), z.object({ path: z.string().nullable() })),
  'dialog.pickImportFiles': method(z.object({}), z.object({ paths: z.array(z.string()) })),
  /** Desktop only: where to save an export or a report (a folder for a dataset). */
  'dialog.pickSavePath': method(
    z.object({
      title: z.string().min(1).max(200),
      defaultPath: z.string().max(4096).default(''),
      extensions: z.array(z.string().min(1).max(16)).max(20).default([]),
      folder: z.boolean().default(false),
    }),
    z.object({ path: z.string().nullable() }),
  ),
} as const;
