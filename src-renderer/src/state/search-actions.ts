// Full-text search and filters across the workspace, and jumping from a result to its node.
import { call } from '../api/client';
import { attempt, NO_FILTERS, revealNode, selectTrajectory, useUiStore, type SearchFilters } from './workspace-actions';

const set = useUiStore.setState;
const get = useUiStore.getState;

export function hasQuery(f: SearchFilters): boolean {
  return Boolean(f.text.trim() || f.domain || f.origin || f.starred || f.minRating || f.tag);
}

let latest = 0;

/** Runs the search for the current filters; an older reply never overwrites a newer one. */
export async function rerunSearch(): Promise<void> {
  const filters = get().search.filters;
  const ticket = ++latest;
  if (!hasQuery(filters) || !get().workspace) {
    set({ search: { ...get().search, hits: [], truncated: false, searching: false } });
    return;
  }
  set({ search: { ...get().search, searching: true } });
  try {
    const result = await call('search.nodes', {
      text: filters.text.trim() || undefined,
      domain: filters.domain || undefined,
      origin: filters.origin || undefined,
      starred: filters.starred || undefined,
      minRating: filters.minRating || undefined,
      tag: filters.tag || undefined,
      limit: 200,
    });
    if (ticket === latest) set({ search: { ...get().search, ...result, searching: false } });
  } catch (err) {
    if (ticket === latest) set({ search: { ...get().search, hits: [], truncated: false, searching: false } });
    throw err;
  }
}

let typing: ReturnType<typeof setTimeout> | undefined;

/** Changes the filters; typed text is searched once the user pauses, other filters at once. */
export function setSearchFilters(patch: Partial<SearchFilters>): void {
  const filters = { ...get().search.filters, ...patch };
  // While the typing pause runs, the panel says it is searching, not "0 nodes found".
  set({ search: { ...get().search, filters, searching: hasQuery(filters) } });
  clearTimeout(typing);
  const run = () => void attempt('Searching', rerunSearch);
  if ('text' in patch) typing = setTimeout(run, 180);
  else run();
}

export function clearSearch(): void {
  clearTimeout(typing);
  latest++;
  set({ search: { ...get().search, filters: NO_FILTERS, hits: [], truncated: false, searching: false } });
}

/**
 * The tag filter's list after one node's tags changed from `before` to `after`: counts move,
 * a new tag appears, a tag no node carries any more goes; in the core's order (most used first). Pure.
 */
export function withChangedTags(tags: readonly { tag: string; count: number }[], before: readonly string[], after: readonly string[]): { tag: string; count: number }[] {
  const counts = new Map(tags.map((t) => [t.tag, t.count]));
  for (const t of before) if (!after.includes(t)) counts.set(t, (counts.get(t) ?? 1) - 1);
  for (const t of after) if (!before.includes(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].filter(([, count]) => count > 0).map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}

export async function refreshTags(): Promise<void> {
  if (!get().workspace) return;
  const tags = await call('tags.list', {});
  set({ search: { ...get().search, tags } });
}

/** Opens a result: its trajectory (if another one is open), then the node, expanded into view. */
export async function openSearchHit(trajectoryId: string, nodeId: string): Promise<void> {
  if (get().trajectory?.id === trajectoryId && get().tree?.byId.has(nodeId)) revealNode(nodeId);
  else await selectTrajectory(trajectoryId, nodeId);
}
