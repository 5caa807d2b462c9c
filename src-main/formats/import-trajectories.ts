// Imports trajectories from a source into a workspace. Trajectories are written in
// batches, each batch one transaction: a crash loses at most the batch in flight, never
// leaves half a trajectory, and every batch that committed stays.
import { newId } from '../common/trajectory/ids';
import type { ImporterOptions, TrajectoryImporter } from './format';
import type { ImportItem } from '../parsing/import-item';
import type { ImportSource } from '../parsing/sources';
import { importOffThread, streamOffThread, type PendingItems } from './off-thread-import';
import type { WrittenAs } from './import-worker';
import { bundleValues, type BundleValues } from '../store/rows';
import { STREAMED_IMPORTERS } from './streamed-importers';
import { statSync } from 'node:fs';
import { importerFor } from './registry';
import type { WorkspaceStore } from '../store/workspace-store';
import { UserError } from '../common/user-error';
import type { ScrubKind, Scrubber } from '../dataset/hygiene/scrub';
import { scrubBundle } from '../dataset/hygiene/scrub-trajectory';
import type { NodeRecord } from '../common/trajectory/model';

export interface ImportProblem {
  line: number | null;
  field?: string;
  reason: string;
}

export interface ImportSkipped {
  line: number | null;
  what: string;
  reason: string;
}

export interface ImportReport {
  file: string;
  format: string;
  imported: number;
  alreadyPresent: number;
  problems: ImportProblem[];
  /** What the importer read and left out on purpose, with why (the first 1,000). */
  skipped: ImportSkipped[];
  /** Ids of the imported trajectories (the first 1,000). */
  trajectoryIds: string[];
  /** With `scrub`: what was replaced in what came in, by kind. */
  scrubbed?: Record<ScrubKind, number>;
  /** Trajectories already here that this file's steps continued (a resumed session's new turns), with how many steps each got. */
  continued?: { trajectoryId: string; title: string; steps: number }[];
  /** What the import decided about where a session went, as a user reads it ("continued trajectory … with 3 steps from …"). */
  notes?: string[];
}

/** Besides what the importer takes (`--chat-as`, `--prompt`…), how the import runs. */
export interface ImportOptions extends ImporterOptions {
  format?: string;
  head?: string;
  batchSize?: number;
  onProgress?: (report: ImportReport) => void;
  signal?: AbortSignal;
  /** Secrets and personal data replaced in every trajectory before it is written (`--scrub`); one scrubber keeps stand-ins consistent across files. */
  scrub?: Scrubber;
  /** Steps this import added under trajectories already here (a resumed session's continuation), so a cancelled job can take them back. */
  addedSteps?: NodeRecord[];
}

const MAX_PROBLEMS = 1000;

/** From this size a file of a format in STREAMED_IMPORTERS is read in a worker: smaller ones are read before a worker would have started. */
export const STREAM_FROM_BYTES = 4 * 1024 * 1024;

export function importTrajectories(store: WorkspaceStore, source: ImportSource, options: ImportOptions = {}): ImportReport {
  const importer = chooseImporter(source, options);
  // An empty file is said to be empty whatever its format (importBatches says so).
  if (importer.prepare && (options.head ?? source.text().slice(0, 64 * 1024)).trim() !== '') {
    throw new UserError(`${importer.label} files are decoded before they are read: import ${source.name} as a job (worldloom import, or the app).`, 'invalid');
  }
  const steps = importBatches(store, source, options, []);
  // Nothing here is read off the thread, so nothing is ever pending.
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * The same import as a job: it lets other calls in between its batches (a cancel among
 * them). Every trajectory it writes is listed in `added`, so a cancelled job can take back
 * all it wrote; a cancel is thrown as a `cancelled` error.
 */
export async function importAsJob(
  store: WorkspaceStore,
  source: ImportSource,
  options: ImportOptions & { signal: AbortSignal; added: string[] },
): Promise<ImportReport> {
  const importer = chooseImporter(source, options);
  if (options.scrub && importer.offThread) {
    throw new UserError(`${importer.label} files are read in a worker thread, where --scrub cannot reach them: import ${source.name} without --scrub and scrub the export instead (worldloom export --scrub).`, 'invalid');
  }
  // Binary formats (Parquet) are decoded first; the import then reads what they decoded. An empty file is said to be empty.
  const empty = (options.head ?? source.text().slice(0, 64 * 1024)).trim() === '';
  const prepared = importer.prepare && !empty ? await importer.prepare(source, options) : source;
  // Formats whose reading is replay (terminal recordings) are read in a worker, within its limits.
  const path = prepared.path?.();
  const items =
    importer.offThread && path && !empty
      ? await importOffThread(
          { path, name: source.name, format: importer.id, head: options.head ?? source.text().slice(0, 64 * 1024), options: { chatAs: options.chatAs, prompt: options.prompt, maxBytes: options.maxBytes } },
          { signal: options.signal },
        ).catch((error: unknown) => {
          if (options.signal.aborted) throw new UserError(`The import of ${source.name} was cancelled; nothing of it was kept.`, 'cancelled');
          throw error;
        })
      : undefined;
  // A large file of a line-based format is read in a worker while this thread writes: reading and writing take a core each.
  const streamed =
    !items && !options.scrub && prepared === source && path && !empty && STREAMED_IMPORTERS[importer.id] && statSync(path).size >= STREAM_FROM_BYTES
      ? streamOffThread(
          { path, name: source.name, format: importer.id, head: options.head ?? source.text().slice(0, 64 * 1024), options: { chatAs: options.chatAs, prompt: options.prompt, maxBytes: options.maxBytes } },
          new Date().toISOString(),
          options.signal,
        )
      : undefined;
  const steps = importBatches(store, prepared, prepared === source ? options : { ...options, format: importer.id, head: undefined }, options.added, items ?? streamed);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) {
      if (options.signal.aborted) throw new UserError(`The import of ${source.name} was cancelled; nothing of it was kept.`, 'cancelled');
      return step.value;
    }
    // Between batches other calls come in; where the reading thread is behind, they come in while it catches up.
    await (step.value ?? new Promise((next) => setImmediate(next)));
  }
}

function chooseImporter(source: ImportSource, options: ImportOptions): TrajectoryImporter {
  return importerFor(options.format ?? 'auto', source.name, options.head ?? source.text().slice(0, 64 * 1024));
}

/**
 * Imports batch by batch, yielding after each committed batch and every 256 items read, and
 * yielding a promise to await where items read off the thread are not there yet; every
 * written trajectory id goes to `written`.
 */
function* importBatches(
  store: WorkspaceStore,
  source: ImportSource,
  options: ImportOptions,
  written: string[],
  items?: Iterable<ImportItem | WrittenAs | PendingItems>,
): Generator<Promise<void> | undefined, ImportReport> {
  const head = options.head ?? source.text().slice(0, 64 * 1024);
  const importer = importerFor(options.format ?? 'auto', source.name, head);
  const report: ImportReport = {
    file: source.name,
    format: importer.id,
    imported: 0,
    alreadyPresent: 0,
    problems: [],
    skipped: [],
    trajectoryIds: [],
  };
  const scrubber = options.scrub;
  const countsBefore = scrubber ? { ...scrubber.report.counts } : null;
  const batchSize = options.batchSize ?? 500;
  let batch: BundleValues[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    const pending = batch;
    batch = [];
    try {
      writeBatch(pending);
    } catch (err) {
      // A full disk: what earlier batches wrote stays (each batch is whole), and the user learns how much that is.
      if ((err as { code?: unknown }).code === 'SQLITE_FULL') {
        throw new UserError(
          `The disk is full: ${report.imported} trajectories from ${source.name} were kept; the ${pending.length} being written when it filled were not. Free some space and import the file again: what was kept is recognised and not imported twice.`,
          'disk-full',
        );
      }
      throw err;
    }
    options.onProgress?.(report);
  };
  /** One batch in one transaction; the report counts it only once it is committed. */
  const writeBatch = (pending: BundleValues[]) => {
    const inserted = store.insertNewBundles(pending);
    report.alreadyPresent += pending.length - inserted.length;
    report.imported += inserted.length;
    written.push(...inserted);
    for (const id of inserted) if (report.trajectoryIds.length < 1000) report.trajectoryIds.push(id);
  };
  if (head.trim() === '') {
    // Every format agrees: an empty file holds nothing, and silence would read as success.
    report.problems.push({ line: null, reason: `the file is empty: nothing to import as ${importer.label}` });
    return report;
  }
  const now = new Date().toISOString();
  let read = 0;
  store.deferCheckpoints(true);
  try {
    for (const item of items ?? importer.parse(source, newId, now, options)) {
      if (options.signal?.aborted) break;
      if (item.kind === 'pending') {
        yield item.ready;
        continue;
      }
      // A file of mostly bad lines writes few batches: it still lets a cancel in now and then.
      if (++read % 256 === 0) yield;
      if (item.kind === 'problem') {
        if (report.problems.length < MAX_PROBLEMS) {
          report.problems.push({ line: item.line, ...(item.field ? { field: item.field } : {}), reason: item.reason });
        }
        continue;
      }
      if (item.kind === 'skipped') {
        if (report.skipped.length < MAX_PROBLEMS) report.skipped.push({ line: item.line, what: item.what, reason: item.reason });
        continue;
      }
      if (item.kind === 'values' && scrubber) throw new UserError(`${source.name} was read as rows, which --scrub cannot reach; import it without --scrub.`, 'invalid');
      if (item.kind === 'trajectory' && importer.placeInWorkspace) {
        // A session may carry on one already here (Claude Code's resumed sessions): it continues that trajectory, or is already in it.
        const bundle = scrubber ? scrubBundle(item.bundle, scrubber) : item.bundle;
        const placed = importer.placeInWorkspace(store, bundle, source.name);
        if (placed.note) (report.notes ??= []).push(placed.note);
        if (placed.kind === 'present') report.alreadyPresent++;
        else if (placed.kind === 'continue') {
          store.appendImportedNodes(placed.nodes);
          options.addedSteps?.push(...placed.nodes);
          (report.continued ??= []).push({ trajectoryId: placed.trajectoryId, title: placed.title, steps: placed.nodes.length });
          options.onProgress?.(report);
        } else batch.push(bundleValues(bundle));
        if (batch.length >= batchSize) {
          flush();
          yield;
        }
        continue;
      }
      batch.push(item.kind === 'values' ? item.values : bundleValues(scrubber ? scrubBundle(item.bundle, scrubber) : item.bundle));
      if (batch.length >= batchSize) {
        flush();
        yield;
      }
    }
    flush();
  } finally {
    store.deferCheckpoints(false);
  }
  if (scrubber && countsBefore) report.scrubbed = Object.fromEntries(Object.entries(scrubber.report.counts).map(([k, n]) => [k, n - countsBefore[k as ScrubKind]])) as Record<ScrubKind, number>;
  // Silence would read as success: say why nothing came in (a session whose conversation another file of the import holds says so among what it left out).
  if (report.imported === 0 && report.alreadyPresent === 0 && report.problems.length === 0 && !report.continued && !options.signal?.aborted && !options.conversationIn) {
    report.problems.push({
      line: null,
      reason: `no ${importer.label} trajectories were found in it`,
    });
  }
  return report;
}

/** One line per problem, as a user reads them: "file:12: response: expected array". */
export function describeProblems(report: ImportReport): string[] {
  return report.problems.map((p) => `${report.file}:${p.line ?? '-'}: ${p.reason}`);
}

/** One line per decision about where a session went: "file: continued trajectory … with 3 steps from file". */
export function describeNotes(report: ImportReport): string[] {
  return (report.notes ?? []).map((note) => `${report.file}: ${note}`);
}

/** One line per part left out on purpose: "file:12: skipped the harness turn mark_task_complete: …". */
export function describeSkipped(report: ImportReport): string[] {
  return report.skipped.map((s) => `${report.file}:${s.line ?? '-'}: skipped ${s.what}: ${s.reason}`);
}
