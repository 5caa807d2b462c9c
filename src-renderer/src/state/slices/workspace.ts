// The workspace slice: the open workspace and trajectory, its tree, the selection, notices,
// the import job, undo history, search and layout. It sits at the top level of the one store,
// so views select its fields directly (`useUiStore((s) => s.tree)`); its actions are in ../workspace-actions.ts.
import type { StateCreator } from 'zustand';
import type { AppInfo, WorkspaceInfo } from '../../../../src-main/common/contract/api';
import type { Domain, NodeRecord, TrajectoryRecord, TrajectorySummary } from '../../../../src-main/common/trajectory/model';
import type { SearchHit } from '../../../../src-main/common/contract/curation';
import { readLayout, type Layout } from '../layout';
import type { TreeIndex } from '../tree-rows';
import { EMPTY_HISTORY, type UndoHistory } from '../undo-history';
import type { UiStore } from '../ui-store';

export interface Notice {
  id: number;
  kind: 'info' | 'error';
  title: string;
  lines: string[];
}

export interface ImportJob {
  jobId: string;
  label: string;
  done: number;
  total: number | null;
  /** Cancel was asked for: an upload stops sending, an import in the core is taken back. */
  cancelling: boolean;
}

/** What the search panel asks for; an empty query with no filter shows no results. */
export interface SearchFilters {
  text: string;
  domain: Domain | '';
  origin: NodeRecord['origin'] | '';
  starred: boolean;
  minRating: number;
  tag: string;
}

export const NO_FILTERS: SearchFilters = { text: '', domain: '', origin: '', starred: false, minRating: 0, tag: '' };

/** How the inspector shows a node's state: as its domain looks, as raw text, or against the original it was edited from. */
export type InspectorView = 'rendered' | 'raw' | 'diff';

export interface WorkspaceSlice {
  app: AppInfo | null;
  workspace: WorkspaceInfo | null;
  trajectories: TrajectorySummary[];
  trajectory: TrajectoryRecord | null;
  tree: TreeIndex | null;
  selectedNodeId: string | null;
  collapsed: ReadonlySet<string>;
  notices: Notice[];
  busy: string | null;
  /** The import this UI started, while it runs: its progress, and what Cancel stops. */
  importJob: ImportJob | null;
  history: UndoHistory;
  inspectorView: InspectorView;
  /** The node whose action and observation are open in editors, if any. */
  editingNodeId: string | null;
  helpOpen: boolean;
  /** A deletion of more than one node, or of a whole trajectory (`trajectoryId`), waiting for the user to confirm it. */
  confirmingDeletion: { nodeId: string; nodes: number; action: string; trajectoryId?: string } | null;
  layout: Layout;
  search: { filters: SearchFilters; hits: SearchHit[]; truncated: boolean; searching: boolean; tags: { tag: string; count: number }[] };
}

/** What a fresh page holds; closing the workspace goes back to it (keeping notices and layout). */
export const initialWorkspace: WorkspaceSlice = {
  app: null,
  workspace: null,
  trajectories: [],
  trajectory: null,
  tree: null,
  selectedNodeId: null,
  collapsed: new Set(),
  notices: [],
  busy: null,
  importJob: null,
  history: EMPTY_HISTORY,
  inspectorView: 'rendered',
  editingNodeId: null,
  helpOpen: false,
  confirmingDeletion: null,
  layout: readLayout(),
  search: { filters: NO_FILTERS, hits: [], truncated: false, searching: false, tags: [] },
};

export const createWorkspaceSlice: StateCreator<UiStore, [], [], WorkspaceSlice> = () => ({ ...initialWorkspace });
