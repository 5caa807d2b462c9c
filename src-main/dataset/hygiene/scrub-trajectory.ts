// Scrubbing a trajectory as it is imported (`worldloom import --scrub`, the Sessions panel):
// the same Scrubber exports use, over every text the trajectory holds (title, environment,
// actions, observations, reasoning, the source's raw text and the provenance around it), so
// secrets and personal data in an agent's session never reach the workspace. Ids, times and
// keys stay as they are: they are how the workspace knows the trajectory.
import type { NodeRecord, TrajectoryBundle } from '../../common/trajectory/model';
import type { Scrubber } from './scrub';

/** Fields that identify or date a record, never text a person wrote. */
const KEPT = new Set(['id', 'trajectoryId', 'parentId', 'editedFromId', 'createdAt', 'sourceKey', 'origin', 'format', 'callId', 'promptHash']);

function scrubValue(value: unknown, scrubber: Scrubber, where: string, message: number, key?: string): unknown {
  if (key !== undefined && KEPT.has(key)) return value;
  if (typeof value === 'string') return scrubber.text(value, where, message);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, scrubber, where, message));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, scrubber, where, message, k)]));
  return value;
}

/** The bundle with every text scrubbed; the scrubber's report counts what changed (its message numbers are node depths). */
export function scrubBundle(bundle: TrajectoryBundle, scrubber: Scrubber): TrajectoryBundle {
  const where = bundle.trajectory.id;
  const before = scrubber.report.changes.length + scrubber.report.changesOmitted;
  const trajectory = scrubValue(bundle.trajectory, scrubber, where, 0) as TrajectoryBundle['trajectory'];
  const nodes = bundle.nodes.map((n) => ({ ...(scrubValue(n, scrubber, where, n.depth) as NodeRecord), curation: n.curation, metrics: n.metrics }));
  if (scrubber.report.changes.length + scrubber.report.changesOmitted > before) scrubber.report.examplesChanged++;
  return { trajectory, nodes };
}
