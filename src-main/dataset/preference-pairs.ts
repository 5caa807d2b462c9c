// Preference pairs from siblings: two samples of the same action under the same parent,
// which the user rated or starred against each other, are one chosen/rejected pair for DPO.
// The rule (written into the dataset card): the sample marked with "Prefer" (tag `preferred`)
// is chosen over its siblings; otherwise, when both are rated and the ratings differ, the
// higher rating; otherwise, when exactly one is starred, the starred one. Anything else is no
// preference. Pure.
import { PREFERRED_TAG } from '../common/contract/siblings';
import type { NodeRecord, TrajectoryBundle } from '../common/trajectory/model';
import { normalizeAction } from './action-layout';

export const PAIRING_RULE =
  'Pairs are siblings: two samples of the same action (same parent, same action once fences are removed). ' +
  'The sample marked with Prefer (tag `preferred`) is chosen over each of its siblings; otherwise, when both are rated and their ratings differ, the higher rating is chosen; ' +
  'otherwise, when exactly one is starred, the starred one is chosen. Unrated, unstarred or equally rated siblings form no pair. The chosen sample must be selected (filter and scope); its rival need not be. ' +
  'A chosen sample is paired with every sibling it beats.';

/** Which of two siblings the user preferred: 1 for `a`, -1 for `b`, 0 for neither. */
export function preferred(a: Pick<NodeRecord, 'curation'>, b: Pick<NodeRecord, 'curation'>): 1 | -1 | 0 {
  const pa = a.curation.tags.includes(PREFERRED_TAG);
  const pb = b.curation.tags.includes(PREFERRED_TAG);
  if (pa !== pb) return pa ? 1 : -1;
  const ra = a.curation.rating;
  const rb = b.curation.rating;
  if (ra !== null && rb !== null && ra !== rb) return ra > rb ? 1 : -1;
  if (a.curation.starred !== b.curation.starred) return a.curation.starred ? 1 : -1;
  return 0;
}

/** [chosen, rejected] for every chosen node among `ends` and each sibling it beats, in `ends` order. */
export function preferencePairs(bundle: TrajectoryBundle, ends: readonly NodeRecord[]): [NodeRecord, NodeRecord][] {
  const siblings = new Map<string, NodeRecord[]>();
  for (const n of bundle.nodes) {
    if (n.parentId === null) continue;
    const key = `${n.parentId}\u0000${normalizeAction(n.action)}`;
    const group = siblings.get(key);
    if (group) group.push(n);
    else siblings.set(key, [n]);
  }
  const pairs: [NodeRecord, NodeRecord][] = [];
  for (const end of ends) {
    if (end.parentId === null) continue;
    for (const other of siblings.get(`${end.parentId}\u0000${normalizeAction(end.action)}`) ?? []) {
      if (other.id !== end.id && other.observation !== end.observation && preferred(end, other) === 1) pairs.push([end, other]);
    }
  }
  return pairs;
}
