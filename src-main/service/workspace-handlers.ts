// Handlers for the workspace part of the contract (contract/workspace.ts).
import { homedir } from 'node:os';
import { exporterFor, formatSummaries } from '../formats/registry';
import { resolve } from 'node:path';
import { textSource } from '../parsing/sources';
import { importPathSource } from '../parsing/session-path';
import { planImport } from '../sessions/continued-sessions';
import { buildOutline } from '../common/trajectory/outline';
import { demoBenchmarkDir, openDemoWorkspace } from './demo-workspace';
import { exportToFile } from '../dataset/export-file';
import { importAsJob, type ImportReport } from '../formats/import-trajectories';
import type { JobContext } from './jobs';
import type { ImportSource } from '../parsing/sources';
import { ImportUploads } from './import-upload';
import { readRecent } from './recent-workspaces';
import type { HandlersOf, Studio } from './studio';
import { UserError } from '../common/user-error';
import { Scrubber } from '../dataset/hygiene/scrub';
import type { workspaceApi } from '../common/contract/workspace';
import type { NodeRecord } from '../common/trajectory/model';

export function workspaceHandlers(studio: Studio): HandlersOf<typeof workspaceApi> {
  const uploads = new ImportUploads();
  type ImportFile = (source: ImportSource, options: { format: string; head?: string; prompt?: string; chatAs?: 'world-model' | 'agent'; maxBytes?: number; scrub?: Scrubber }) => Promise<ImportReport>;
  /**
   * Imports as one job. Cancelled, it keeps nothing: files this job had already imported are
   * taken back too. Otherwise every committed batch stays (a failing file keeps what came in
   * before it failed, as `worldloom import` always did), and the UIs learn which trajectories came in.
   */
  const importJob = <T>(jobId: string | undefined, label: string, work: (importFile: ImportFile, job: JobContext) => Promise<T>): Promise<T> => {
    const store = studio.requireStore();
    return studio.jobs.start(
      'import',
      label,
      async (job) => {
        const added: string[] = [];
        // Steps added under trajectories already here (a resumed session continuing the one it resumed).
        const addedSteps: NodeRecord[] = [];
        const announceSteps = () => {
          for (const trajectoryId of new Set(addedSteps.map((n) => n.trajectoryId))) studio.announceNodesAdded('imported', addedSteps.filter((n) => n.trajectoryId === trajectoryId));
        };
        const importFile: ImportFile = (source, options) =>
          importAsJob(store, source, {
            ...options,
            signal: job.signal,
            added,
            addedSteps,
            onProgress: (r) => job.progress(added.length, null, `Importing ${source.name}: ${r.imported} trajectories so far`),
          });
        try {
          const result = await work(importFile, job);
          studio.announceTrajectoriesAdded('imported', added);
          announceSteps();
          return result;
        } catch (err) {
          if (job.signal.aborted) {
            store.removeImportedNodes(addedSteps.map((n) => n.id));
            store.removeTrajectories(added);
          } else {
            studio.announceTrajectoriesAdded('imported', added);
            announceSteps();
          }
          throw err;
        }
      },
      jobId,
    );
  };
  return {
  'app.info': () => ({
    version: studio.version,
    door: studio.extras.door,
    nativeDialogs: Boolean(studio.extras.pickWorkspace),
    workspace: studio.workspace?.info() ?? null,
    recent: readRecent(),
    defaultWorkspaceDir: homedir(),
    demoBenchmarkDir: demoBenchmarkDir(studio),
    formats: formatSummaries(),
  }),
  'workspace.create': ({ path }) => studio.openWorkspace(path, 'create'),
  'workspace.open': ({ path }) => studio.openWorkspace(path, 'open'),
  'workspace.openDemo': () => openDemoWorkspace(studio),
  'workspace.close': () => {
    const closed = studio.workspace !== null;
    studio.close();
    studio.emit('workspace.changed', { reason: 'closed' });
    return { closed };
  },
  'workspace.info': () => studio.requireStore().info(),
  'trajectory.list': () => studio.requireStore().listTrajectories(),
  'trajectory.get': ({ id }) => {
    const store = studio.requireStore();
    const trajectory = store.getTrajectory(id);
    if (!trajectory) throw new UserError(`Trajectory ${id} is not in this workspace.`, 'not-found');
    return { trajectory, nodes: store.getNodes(id) };
  },
  'trajectory.outline': ({ id }) => {
    const store = studio.requireStore();
    const trajectory = store.getTrajectory(id);
    if (!trajectory) throw new UserError(`Trajectory ${id} is not in this workspace.`, 'not-found');
    return buildOutline(trajectory, store.getOutlineSources(id));
  },
  'node.get': ({ id }) => {
    const node = studio.requireStore().getNode(id);
    if (!node) throw new UserError(`Node ${id} is not in this workspace (it may have been undone).`, 'not-found');
    return node;
  },
  'trajectory.create': (input) => {
    const bundle = studio.requireStore().createTrajectory(input);
    studio.announceTrajectoriesAdded('created', [bundle.trajectory.id]);
    return bundle;
  },
  'node.addManual': ({ parentId, action, observation }) => {
    const node = studio.requireStore().addNode({
      parentId,
      action,
      observation,
      origin: 'manual',
      provenance: { source: { format: 'manual' } },
    });
    studio.announceNodesAdded('added', [node]);
    return node;
  },
  'import.text': ({ name, text, format, jobId, chatAs }) =>
    importJob(jobId, `Importing ${name}`, async (importFile) => [await importFile(textSource(name, text), { format, ...(chatAs ? { chatAs } : {}) })]).then(
      ([report]) => report!,
    ),
  'import.begin': (input) => uploads.begin(input),
  'import.chunk': (input) => uploads.chunk(input),
  'import.finish': ({ uploadId, jobId }) =>
    importJob(jobId, 'Importing the dropped file', async (importFile) => [await uploads.finish({ uploadId }, importFile)]).then(([report]) => report!),
  'import.abort': (input) => uploads.abort(input),
  'import.benchmarkFolder': (input) => uploads.benchmarkFolder(input),
  'import.files': ({ paths, format, jobId, prompt, chatAs, maxMiB, scrub }) =>
    importJob(jobId, paths.length > 1 ? `Importing ${paths.length} files` : `Importing ${paths[0]}`, async (importFile, job) => {
      const reports: ImportReport[] = [];
      // One scrubber for the whole import: the same address gets the same stand-in in every file.
      const scrubber = scrub ? new Scrubber() : undefined;
      // Many files (an agent's sessions) share one deferral of checkpoints instead of one checkpoint each.
      const store = studio.requireStore();
      store.deferCheckpoints(true);
      try {
        // A resumed session that another of these files carries on whole is read from there, once.
        const plan = await planImport(paths, format);
        for (const [i, p] of paths.entries()) {
          job.progress(i, paths.length, `Importing ${p}`);
          const conversationIn = plan.elsewhere.get(p);
          // A path may name one session inside a file that holds many (`sessions.db#<id>`, as `sessions.list` lists them).
          const { source, head } = importPathSource(p);
          reports.push(await importFile(source, { format: plan.formats.get(p) ?? format, head, ...(prompt ? { prompt } : {}), ...(chatAs ? { chatAs } : {}), ...(maxMiB ? { maxBytes: maxMiB * 1024 * 1024 } : {}), ...(scrubber ? { scrub: scrubber } : {}), ...(conversationIn ? { conversationIn } : {}) }));
        }
      } finally {
        store.deferCheckpoints(false);
      }
      return reports;
    }),
  'export.file': ({ path, format, trajectoryIds, jobId, download }) => {
    const store = studio.requireStore();
    // For a browser the file goes into a private folder and is fetched once; never into the server's working directory.
    const full = download ? studio.downloads.pathFor(path) : resolve(path);
    return studio.jobs.start(
      'export',
      `Exporting to ${download ? path : full}`,
      async (job) => {
        // Named, so the progress can say how many of how many.
        const counts = await exportToFile(store, full, exporterFor(format), trajectoryIds ?? store.listTrajectories().map((t) => t.id), {
          signal: job.signal,
          onProgress: (done, total) => job.progress(done, total),
        });
        if (!download) return { path: full, ...counts };
        return { path, ...counts, downloadId: studio.downloads.offer(full, path, 'application/octet-stream') };
      },
      jobId,
    );
  },
  'dialog.pickWorkspace': async ({ mode }) => {
    if (!studio.extras.pickWorkspace) throw new UserError('File dialogs exist only in the desktop app; type the path instead.');
    return { path: await studio.extras.pickWorkspace(mode) };
  },
  'dialog.pickSavePath': async (request) => {
    if (!studio.extras.pickSavePath) throw new UserError('Save dialogs exist only in the desktop app; in a browser, exports download.');
    return { path: await studio.extras.pickSavePath(request) };
  },
  'dialog.pickImportFiles': async () => {
    if (!studio.extras.pickImportFiles) throw new UserError('File dialogs exist only in the desktop app; drop the files instead.');
    return { paths: await studio.extras.pickImportFiles() };
  },
  };
}
