// Handlers for the curation part of the contract (contract/curation.ts). Every change is
// written to the workspace at once (there is no unsaved state) and announced to every UI.
import type { curationApi } from '../common/contract/curation';
import type { WorkspaceStore } from '../store/workspace-store';
import type { HandlersOf, Studio } from './studio';

export function curationHandlers(studio: Studio): HandlersOf<typeof curationApi> {
  return {
    'node.setCuration': ({ id, curation }) => {
      const node = studio.requireStore().setCuration(id, curation);
      studio.emit('nodes.marked', { trajectoryId: node.trajectoryId, node });
      return node;
    },
    'node.edit': ({ id, action, observation }) => {
      const node = studio.requireStore().editNode(id, { action, observation });
      studio.announceNodesAdded('edited', [node]);
      return node;
    },
    'node.undoEdit': ({ id }) => {
      const node = studio.requireStore().undoEdit(id);
      studio.emit('nodes.removed', { reason: 'edit-undone', trajectoryId: node.trajectoryId, nodes: [node] });
      return node;
    },
    'node.redoEdit': ({ id }) => {
      const node = studio.requireStore().redoEdit(id);
      studio.announceNodesAdded('edit-redone', [node]);
      return node;
    },
    'node.delete': ({ ids, label }) => {
      const store = studio.requireStore();
      const { deletion, nodes } = store.deleteNodes(ids, label ?? nodesLabel(store, ids));
      studio.emit('nodes.removed', { reason: 'deleted', trajectoryId: deletion.trajectoryId!, nodes });
      return { deletion, nodes };
    },
    'trajectory.delete': ({ ids, label }) => {
      const store = studio.requireStore();
      const { deletion, trajectoryIds } = store.deleteTrajectories(ids, label ?? trajectoriesLabel(store, ids));
      studio.emit('trajectories.removed', { reason: 'deleted', trajectoryIds });
      return { deletion };
    },
    'deletion.restore': ({ id }) => {
      const restored = studio.requireStore().restoreDeletion(id);
      if (restored.deletion.kind === 'nodes') studio.announceNodesAdded('restored', restored.nodes);
      else studio.announceTrajectoriesAdded('restored', restored.trajectories.map((t) => t.id));
      return restored;
    },
    'deletion.list': ({ limit }) => studio.requireStore().listDeletions(limit),
    'trajectory.revise': ({ id, ...change }) => {
      const revised = studio.requireStore().reviseTrajectory(id, change);
      if (revised.keptVersion !== null) studio.emit('trajectory.changed', { reason: 'revised', trajectory: revised.trajectory });
      return revised;
    },
    'trajectory.versions': ({ id }) => studio.requireStore().trajectoryVersions(id),
    'trajectory.restoreVersion': ({ id, version }) => {
      const revised = studio.requireStore().restoreTrajectoryVersion(id, version);
      if (revised.keptVersion !== null) studio.emit('trajectory.changed', { reason: 'version-restored', trajectory: revised.trajectory });
      return revised;
    },
    'search.nodes': (query) => studio.requireStore().searchNodes(query),
    'tags.list': () => studio.requireStore().listTags(),
  };
}

/** "step 2 “ls -la” and what follows": how a deletion is listed, in the user's words. */
function nodesLabel(store: WorkspaceStore, ids: readonly string[]): string {
  const first = store.getNode(ids[0]!);
  if (!first) return `${ids.length} node${ids.length === 1 ? '' : 's'}`;
  const action = first.action.split('\n')[0]!.slice(0, 60);
  const what = `step ${first.depth} “${action}”`;
  return ids.length === 1 ? what : `${what} and ${ids.length - 1} more`;
}

function trajectoriesLabel(store: WorkspaceStore, ids: readonly string[]): string {
  if (ids.length > 1) return `${ids.length} trajectories`;
  const t = store.getTrajectory(ids[0]!);
  return t ? `trajectory “${t.title}”` : 'a trajectory';
}
