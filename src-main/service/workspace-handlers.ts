// Handlers for the workspace part of the contract (contract/workspace.ts).
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { fileHead, fileSource, textSource } from '../formats/sources';
import { buildOutline } from '../trajectory/outline';
import { openDemoWorkspace } from './demo-workspace';
import { exportToFile } from './export-file';
import { importTrajectories } from './import-trajectories';
import { ImportUploads } from './import-upload';
import { readRecent } from './recent-workspaces';
import type { HandlersOf, Studio } from './studio';
import { UserError } from './user-error';
import type { workspaceApi } from '../contract/workspace';

export function workspaceHandlers(studio: Studio): HandlersOf<typeof workspaceApi> {
  const uploads = new ImportUploads();
  return {
  'app.info': () => ({
    version: studio.version,
    door: studio.extras.door,
    nativeDialogs: Boolean(studio.extras.pickWorkspace),
    workspace: studio.workspace?.info() ?? null,
    recent: readRecent(),
    defaultWorkspaceDir: homedir(),
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
    studio.emit('workspace.changed', { reason: 'trajectory-created', trajectoryId: bundle.trajectory.id });
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
    studio.emit('workspace.changed', { reason: 'node-added', trajectoryId: node.trajectoryId });
    return node;
  },
  'import.text': ({ name, text, format }) => {
    const report = importTrajectories(studio.requireStore(), textSource(name, text), { format });
    studio.emit('workspace.changed', { reason: 'imported' });
    return report;
  },
  'import.begin': (input) => uploads.begin(input),
  'import.chunk': (input) => uploads.chunk(input),
  'import.finish': (input) => {
    const report = uploads.finish(() => studio.requireStore(), input);
    studio.emit('workspace.changed', { reason: 'imported' });
    return report;
  },
  'import.abort': (input) => uploads.abort(input),
  'import.files': ({ paths, format }) => {
    const store = studio.requireStore();
    const reports = paths.map((p) => importTrajectories(store, fileSource(p), { format, head: fileHead(p) }));
    studio.emit('workspace.changed', { reason: 'imported' });
    return reports;
  },
  'export.file': async ({ path, format, trajectoryIds }) => {
    const store = studio.requireStore();
    return { path: resolve(path), ...(await exportToFile(store, resolve(path), format, trajectoryIds)) };
  },
  'dialog.pickWorkspace': async ({ mode }) => {
    if (!studio.extras.pickWorkspace) throw new UserError('File dialogs exist only in the desktop app; type the path instead.');
    return { path: await studio.extras.pickWorkspace(mode) };
  },
  'dialog.pickImportFiles': async () => {
    if (!studio.extras.pickImportFiles) throw new UserError('File dialogs exist only in the desktop app; drop the files instead.');
    return { paths: await studio.extras.pickImportFiles() };
  },
  };
}
