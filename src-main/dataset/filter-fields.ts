// The fields a filter expression can name, each read from a node and its trajectory.
// Pure. A field's kind decides which operators and values it accepts.
import { DOMAINS, ORIGINS, type NodeRecord, type TrajectoryRecord } from '../common/trajectory/model';

export interface NodeFacts {
  trajectory: TrajectoryRecord;
  node: NodeRecord;
}

export type FieldKind = 'enum' | 'text' | 'number' | 'date' | 'set' | 'boolean';

export interface FilterField {
  kind: FieldKind;
  /** What the field means, for help text and error messages. */
  about: string;
  /** Allowed values of an enum field. */
  values?: readonly string[];
  read(facts: NodeFacts): string | number | boolean | readonly string[] | null;
}

/** Kinds of the perturbations recorded on a node (provenance.perturbations[].kind). */
export function perturbationKinds(node: NodeRecord): string[] {
  const kinds: string[] = [];
  for (const p of node.provenance.perturbations ?? []) if (typeof p.kind === 'string') kinds.push(p.kind);
  return kinds;
}

/** Origins whose observation the model wrote; the others were recorded, imported, written or edited by people. */
export const MODEL_WRITTEN_ORIGINS: ReadonlySet<string> = new Set(['simulated', 'perturbed', 'agent']);

/** Someone looked at the step: starred, rated, tagged or noted it. */
export function isReviewed(node: NodeRecord): boolean {
  const { starred, rating, tags, note } = node.curation;
  return starred || rating !== null || tags.length > 0 || note.trim() !== '';
}

export const FILTER_FIELDS: Record<string, FilterField> = {
  domain: { kind: 'enum', values: DOMAINS, about: "the trajectory's domain", read: (f) => f.trajectory.domain },
  origin: { kind: 'enum', values: ORIGINS, about: "where the step's observation came from", read: (f) => f.node.origin },
  starred: { kind: 'boolean', about: 'the step is starred', read: (f) => f.node.curation.starred },
  rating: { kind: 'number', about: 'the rating, 1 to 5 (unrated steps have none)', read: (f) => f.node.curation.rating },
  tag: { kind: 'set', about: 'one of the step’s tags', read: (f) => f.node.curation.tags },
  perturbation: { kind: 'set', about: 'a perturbation kind applied to the step', read: (f) => perturbationKinds(f.node) },
  depth: { kind: 'number', about: 'the step number (1 = first action)', read: (f) => f.node.depth },
  created: { kind: 'date', about: 'when the step was made (YYYY-MM-DD or an ISO time)', read: (f) => f.node.createdAt },
  model: { kind: 'text', about: 'the model id that simulated the step', read: (f) => f.node.provenance.modelId ?? null },
  engine: { kind: 'text', about: 'the engine that simulated the step', read: (f) => f.node.provenance.engine ?? null },
  seed: { kind: 'number', about: 'the sampling seed', read: (f) => f.node.provenance.seed ?? null },
  source: { kind: 'text', about: 'the format the step was imported from', read: (f) => f.node.provenance.source?.format ?? null },
  title: { kind: 'text', about: "the trajectory's title", read: (f) => f.trajectory.title },
  trajectory: { kind: 'text', about: "the trajectory's id", read: (f) => f.trajectory.id },
  action: { kind: 'text', about: 'the action text', read: (f) => f.node.action },
  observation: { kind: 'text', about: 'the observation text', read: (f) => f.node.observation },
  reasoning: { kind: 'text', about: "the world model's reasoning", read: (f) => f.node.reasoning },
  note: { kind: 'text', about: 'the curation note', read: (f) => f.node.curation.note || null },
  edited: { kind: 'boolean', about: 'the step is an edit of another', read: (f) => f.node.editedFromId !== null },
  simulated: { kind: 'boolean', about: 'the model wrote the observation (origin simulated, perturbed or agent)', read: (f) => MODEL_WRITTEN_ORIGINS.has(f.node.origin) },
  reviewed: { kind: 'boolean', about: 'the step is starred, rated, tagged or has a note', read: (f) => isReviewed(f.node) },
};

/** `metric.NAME` reads one of the step's metrics (set when it was compared with a real sibling). */
export function metricField(name: string): FilterField {
  return { kind: 'number', about: `the ${name} metric`, read: (f) => f.node.metrics?.[name] ?? null };
}

export function fieldNamed(name: string): FilterField | undefined {
  const lower = name.toLowerCase();
  if (lower.startsWith('metric.') && lower.length > 7) return metricField(name.slice(7));
  if (lower === 'tags') return FILTER_FIELDS.tag;
  if (lower === 'perturbations' || lower === 'perturbed') return FILTER_FIELDS.perturbation;
  if (lower === 'stars') return FILTER_FIELDS.starred;
  return Object.prototype.hasOwnProperty.call(FILTER_FIELDS, lower) ? FILTER_FIELDS[lower] : undefined;
}

/** The known name closest to a misspelt one, when it is close enough to be a likely typo. */
export function closestField(name: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const known of [...Object.keys(FILTER_FIELDS), 'metric.NAME']) {
    const d = editDistance(name.toLowerCase(), known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
