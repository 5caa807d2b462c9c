// The node-records slice's state; its actions are in ../node-records.ts.
import type { StateCreator } from 'zustand';
import type { NodeRecord } from '../../../../src-main/common/trajectory/model';
import type { UiStore } from '../ui-store';

export interface NodeRecordsState {
  records: ReadonlyMap<string, NodeRecord>;
  /**
   * Kept records that may have changed since (the trajectory was reloaded). They are still
   * shown, so a reload does not blank the inspector and what is typed in it, and fetched again.
   */
  stale: ReadonlySet<string>;
  /** Why the last fetch of a node failed, until it is fetched again. */
  errors: ReadonlyMap<string, string>;
}

export const createNodeRecordsSlice: StateCreator<UiStore, [], [], { nodeRecords: NodeRecordsState }> = () => ({
  nodeRecords: { records: new Map(), stale: new Set(), errors: new Map() },
});
