// Full node records (observation, reasoning, provenance, note) for the few nodes the UI shows
// in full. The tree holds only outlines (tree-rows.ts), so a 100,000-node trajectory opens
// fast; the inspector asks here for the node it shows, fetched with `node.get`. The recent
// ones are kept, and whatever the core returns after a change replaces the kept copy.
import { useEffect } from 'react';
import type { NodeRecord } from '../../../src-main/common/trajectory/model';
import { call } from '../api/client';
import { areaHook } from './ui-store';

/** Enough for moving back and forth along a path without refetching. */
const KEEP = 200;

export const useNodeRecords = areaHook('nodeRecords');
const set = useNodeRecords.setState;
const get = useNodeRecords.getState;

/** Bumped when the kept records are dropped or go stale, so a fetch started before cannot put back an older one. */
let generation = 0;
const inFlight = new Map<string, Promise<NodeRecord>>();

function without<K, V>(map: ReadonlyMap<K, V>, key: K): ReadonlyMap<K, V> {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
}

function withoutId(ids: ReadonlySet<string>, id: string): ReadonlySet<string> {
  if (!ids.has(id)) return ids;
  const next = new Set(ids);
  next.delete(id);
  return next;
}

/** Keeps a record the core just returned (after a mark, an edit, a new step). */
export function rememberNode(node: NodeRecord): void {
  const records = new Map(get().records);
  let stale = withoutId(get().stale, node.id);
  records.delete(node.id);
  records.set(node.id, node);
  for (const id of records.keys()) {
    if (records.size <= KEEP) break;
    records.delete(id);
    stale = withoutId(stale, id);
  }
  set({ records, stale, errors: without(get().errors, node.id) });
}

/** Drops a node that no longer exists (an undone edit). */
export function forgetNode(id: string): void {
  const { records, stale, errors } = get();
  if (!records.has(id) && !errors.has(id)) return;
  set({ records: without(records, id), stale: withoutId(stale, id), errors: without(errors, id) });
}

/** Drops every kept record: another trajectory or workspace was opened. */
export function forgetNodes(): void {
  generation++;
  inFlight.clear();
  set({ records: new Map(), stale: new Set(), errors: new Map() });
}

/**
 * The open trajectory was reloaded (often for another window's or the CLI's change): the kept
 * records of nodes that still exist stay, marked stale, and are fetched again when shown.
 */
export function refreshNodes(exists: (id: string) => boolean): void {
  generation++;
  inFlight.clear();
  const records = new Map([...get().records].filter(([id]) => exists(id)));
  set({ records, stale: new Set(records.keys()), errors: new Map() });
}

/** Fetches a node's record and keeps it; rejects with why it could not, and keeps that too. */
function fetchNode(id: string): Promise<NodeRecord> {
  const pending = inFlight.get(id);
  if (pending) return pending;
  const started = generation;
  const fetched = call('node.get', { id }).then(
    (node) => {
      if (started !== generation) return node;
      inFlight.delete(id);
      // A record remembered meanwhile (after a change) is newer than this one.
      const newer = get().records.get(id);
      if (newer && !get().stale.has(id)) return newer;
      rememberNode(node);
      return node;
    },
    (err: unknown) => {
      if (started === generation) {
        inFlight.delete(id);
        set({ errors: new Map(get().errors).set(id, (err as Error).message) });
      }
      throw err;
    },
  );
  inFlight.set(id, fetched);
  return fetched;
}

/**
 * A node's full record to show: the kept one (fetched again behind it when stale), or fetched.
 * Undefined when it could not be fetched; useNodeError says why.
 */
export function nodeRecord(id: string): Promise<NodeRecord | undefined> {
  const kept = get().records.get(id);
  if (!kept) return fetchNode(id).catch(() => undefined);
  if (get().stale.has(id)) void fetchNode(id).catch(() => undefined);
  return Promise.resolve(kept);
}

/** A node's record as the core has it now, for a change that builds on it (undo needs the marks before). */
export function currentNodeRecord(id: string): Promise<NodeRecord> {
  const kept = get().records.get(id);
  return kept && !get().stale.has(id) ? Promise.resolve(kept) : fetchNode(id);
}

/** Fetches again a node whose fetch failed. */
export function retryNode(id: string): void {
  set({ errors: without(get().errors, id) });
  void nodeRecord(id);
}

/** A node's full record for a view; undefined while it loads or when it could not be loaded (see useNodeError). */
export function useNodeRecord(id: string | null | undefined): NodeRecord | undefined {
  const record = useNodeRecords((s) => (id ? s.records.get(id) : undefined));
  const stale = useNodeRecords((s) => (id ? s.stale.has(id) : false));
  const failed = useNodeRecords((s) => (id ? s.errors.has(id) : false));
  useEffect(() => {
    if (id && (!record || stale) && !failed) void nodeRecord(id);
  }, [id, record, stale, failed]);
  return record;
}

/** Why a node's record could not be fetched; undefined when it was or while it loads. */
export function useNodeError(id: string | null | undefined): string | undefined {
  return useNodeRecords((s) => (id ? s.errors.get(id) : undefined));
}
