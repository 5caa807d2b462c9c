// Announces what a change did, so every UI applies it to what it already holds instead of
// reading the tree again: nodes added or removed, a node's marks, trajectories added.
import type { NodeRecord } from '../common/trajectory/model';
import type { Studio } from './studio';

/** New nodes of one trajectory (simulated, perturbed, replayed, run for real, edited, added by hand). */
export function announceNodesAdded(studio: Studio, reason: string, nodes: readonly NodeRecord[]): void {
  if (nodes.length === 0) return;
  studio.emit('nodes.added', { reason, trajectoryId: nodes[0]!.trajectoryId, nodes: [...nodes] });
}

/** New trajectories (created, imported, recorded, opened from an evaluation). */
export function announceTrajectoriesAdded(studio: Studio, reason: string, trajectoryIds: readonly string[]): void {
  if (trajectoryIds.length === 0) return;
  studio.emit('trajectories.added', { reason, count: trajectoryIds.length, trajectoryIds: trajectoryIds.slice(0, 1000) });
}
