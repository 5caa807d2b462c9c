// Handlers for the curation part of the contract (contract/curation.ts). Every change is
// written to the workspace at once (there is no unsaved state) and announced to every UI.
import type { curationApi } from '../common/contract/curation';
import { announceNodesAdded } from './change-events';
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
      announceNodesAdded(studio, 'edited', [node]);
      return node;
    },
    'node.undoEdit': ({ id }) => {
      const node = studio.requireStore().undoEdit(id);
      studio.emit('nodes.removed', { reason: 'edit-undone', trajectoryId: node.trajectoryId, nodes: [node] });
      return node;
    },
    'node.redoEdit': ({ id }) => {
      const node = studio.requireStore().redoEdit(id);
      announceNodesAdded(studio, 'edit-redone', [node]);
      return node;
    },
    'search.nodes': (query) => studio.requireStore().searchNodes(query),
    'tags.list': () => studio.requireStore().listTags(),
  };
}
