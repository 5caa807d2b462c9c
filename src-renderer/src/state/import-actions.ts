// Importing files into the open workspace: paths the core reads itself (the desktop app's
// dialog, the CLI's way), or files dropped on a page, sent to the core in chunks. One import
// job this UI follows and can cancel; the new trajectories arrive as a trajectories.added
// event, and the whole import is one step Ctrl+Z takes back.
import type { ImportReport } from '../../../src-main/common/contract/api';
import { UPLOAD_CHUNK_BYTES } from '../../../src-main/common/contract/workspace';
import { call } from '../api/client';
import { recordImportedTrajectories } from './cleanup-actions';
import { importReportNotice } from './import-report';
import { attempt, notify } from './workspace-actions';
import { useUiStore } from './ui-store';

const set = useUiStore.setState;
const get = useUiStore.getState;

function reportImport(reports: ImportReport[]): void {
  const imported = reports.flatMap((r) => r.trajectoryIds);
  // A report names at most 1,000 trajectories: an import beyond that cannot be taken back whole with Ctrl+Z.
  if (reports.every((r) => r.trajectoryIds.length === r.imported)) {
    recordImportedTrajectories(`import of ${imported.length} trajector${imported.length === 1 ? 'y' : 'ies'}`, imported);
  } else {
    notify('info', 'This import is too large to take back with Ctrl+Z', ['Delete its trajectories from the list instead.']);
  }
  for (const r of reports) {
    const { kind, title, lines } = importReportNotice(r);
    notify(kind, title, lines);
  }
}

/** A slice of a file as base64, read by the browser without decoding the bytes as text. */
function base64Slice(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(blob);
  });
}

/**
 * Sends a dropped file to the core in chunks and imports it there: the page never holds the
 * whole file, and the core reads its bytes exactly as `worldloom import` reads a file.
 */
async function uploadAndImport(file: File, jobId: string): Promise<ImportReport> {
  const { uploadId } = await call('import.begin', { name: file.name, format: 'auto', size: file.size });
  try {
    for (let offset = 0; offset < file.size; offset += UPLOAD_CHUNK_BYTES) {
      if (get().importJob?.cancelling) throw new Error(`The upload of ${file.name} was cancelled; nothing of it was kept.`);
      followImport({ label: `Uploading ${file.name}`, done: offset, total: file.size });
      const data = await base64Slice(file.slice(offset, offset + UPLOAD_CHUNK_BYTES));
      await call('import.chunk', { uploadId, offset, data });
    }
  } catch (err) {
    await call('import.abort', { uploadId }).catch(() => undefined);
    throw err;
  }
  followImport({ label: `Importing ${file.name}`, done: 0, total: null });
  return call('import.finish', { uploadId, jobId });
}

/** Updates the import this UI follows (its own job.progress events arrive here too). */
export function followImport(progress: { jobId?: string; label: string; done: number; total: number | null }): void {
  const job = get().importJob;
  if (job && (!progress.jobId || progress.jobId === job.jobId)) set({ importJob: { ...job, label: progress.label, done: progress.done, total: progress.total } });
}

/** Imports as one job this UI follows; the new trajectories arrive as a trajectories.added event. */
async function importJob(work: (jobId: string) => Promise<ImportReport[]>): Promise<void> {
  const jobId = `import-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  set({ importJob: { jobId, label: 'Importing', done: 0, total: null, cancelling: false } });
  try {
    await attempt('Importing', async () => reportImport(await work(jobId)));
  } finally {
    set({ importJob: null });
  }
}

export async function importFiles(files: File[]): Promise<void> {
  await importJob(async (jobId) => {
    const reports: ImportReport[] = [];
    for (const file of files) reports.push(await uploadAndImport(file, jobId));
    return reports;
  });
}

/** Imports files the core reads itself; `scrub` replaces secrets and personal data first. Answers the ids of the trajectories that came in. */
export async function importPaths(paths: string[], options: { scrub?: boolean } = {}): Promise<string[]> {
  if (paths.length === 0) return [];
  let imported: string[] = [];
  await importJob(async (jobId) => {
    const reports = await call('import.files', { paths, format: 'auto', jobId, scrub: options.scrub ?? false });
    imported = reports.flatMap((r) => r.trajectoryIds);
    return reports;
  });
  return imported;
}

/** Stops the import: an upload stops sending, and whatever the core had imported is taken back. */
export async function cancelImport(): Promise<void> {
  const job = get().importJob;
  if (!job || job.cancelling) return;
  set({ importJob: { ...job, cancelling: true, label: 'Cancelling the import' } });
  await call('job.cancel', { jobId: job.jobId });
}

/** Asks the desktop app's dialog for files and imports them; nothing when the user cancels. */
export async function pickAndImport(): Promise<void> {
  const { paths } = await call('dialog.pickImportFiles', {});
  await importPaths(paths);
}
