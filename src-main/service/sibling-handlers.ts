// Handlers for the sibling part of the contract (contract/siblings.ts): samples of one action
// compared with each other and with the real observation, and the curator's preferred pick.
import { PREFERRED_TAG, type siblingsApi } from '../common/contract/siblings';
import { agreementRows, sideBySide, siblingsByAction } from '../common/metrics/siblings';
import { UserError } from '../common/user-error';
import type { HandlersOf, Studio } from './studio';

export function siblingHandlers(studio: Studio): HandlersOf<typeof siblingsApi> {
  const nodeOrFail = (id: string) => {
    const node = studio.requireStore().getNode(id);
    if (!node) throw new UserError(`No node ${id} in this workspace; it may have been removed. Pick a node in the tree again.`, 'not-found');
    return node;
  };
  return {
    'siblings.sideBySide': ({ parentId, action }) => {
      const store = studio.requireStore();
      const parent = nodeOrFail(parentId);
      const trajectory = store.getTrajectory(parent.trajectoryId)!;
      const byAction = siblingsByAction(store.childrenOf(parentId)).filter((g) => action === undefined || g.action === action);
      return { actions: byAction.filter((g) => g.samples.length >= 2 || (g.real !== null && g.samples.length > 0)).map((g) => sideBySide(g, trajectory.domain)) };
    },
    'siblings.agreement': ({ trajectoryId }) => {
      const store = studio.requireStore();
      if (!store.getTrajectory(trajectoryId)) throw new UserError(`No trajectory ${trajectoryId} in this workspace.`, 'not-found');
      // Only the nodes that are sibling samples: a 100,000-node tree is not read whole for a few actions.
      return agreementRows(store.getSiblingSamples(trajectoryId));
    },
    'siblings.prefer': ({ nodeId }) => {
      const store = studio.requireStore();
      const chosen = nodeOrFail(nodeId);
      if (chosen.parentId === null || chosen.origin === 'real' || chosen.origin === 'imported') {
        throw new UserError('Only a sample (a simulated, perturbed or edited step) can be preferred among its siblings; the recorded step is the ground truth.', 'invalid');
      }
      const siblings = siblingsByAction(store.childrenOf(chosen.parentId)).find((g) => g.action === chosen.action)!;
      // A curator may prefer any sibling of the action: a sample, a perturbed one, an edit.
      const changed = store.transaction(() =>
        [...siblings.samples, ...siblings.alternatives].flatMap((n) => {
          const has = n.curation.tags.includes(PREFERRED_TAG);
          if (n.id === nodeId && !has) return [store.setCuration(n.id, { tags: [...n.curation.tags, PREFERRED_TAG] })];
          if (n.id !== nodeId && has) return [store.setCuration(n.id, { tags: n.curation.tags.filter((t) => t !== PREFERRED_TAG) })];
          return [];
        }),
      );
      for (const node of changed) studio.emit('nodes.marked', { trajectoryId: node.trajectoryId, node });
      return { nodes: changed };
    },
  };
}
