// Reading Worldloom's own JSONL back (./export.ts writes it): each line is checked against
// the data model and its tree checked for one root and parents before children.
import { z } from 'zod';
import { NodeRecord, TrajectoryRecord, type TrajectoryBundle } from '../../common/trajectory/model';
import { jsonLines } from '../../parsing/json-lines';
import { plainZodIssue } from '../../parsing/json-document';
import type { ImportItem } from '../../parsing/import-item';
import type { TrajectoryImporter } from '../format';
import { WORLDLOOM_FORMAT_TAG } from './export';

const Line = z.object({
  format: z.literal(WORLDLOOM_FORMAT_TAG),
  version: z.literal(1),
  trajectory: TrajectoryRecord,
  nodes: z.array(NodeRecord).min(1),
});

/** Checks the tree: one root, parents listed before children, all in this trajectory. */
export function treeProblem(bundle: TrajectoryBundle): string | undefined {
  const seen = new Map<string, NodeRecord>();
  let roots = 0;
  for (const [i, n] of bundle.nodes.entries()) {
    if (n.trajectoryId !== bundle.trajectory.id) return `nodes.${i}.trajectoryId does not match the trajectory id`;
    if (seen.has(n.id)) return `nodes.${i}.id repeats node ${n.id}`;
    if (n.parentId === null) {
      roots++;
      if (n.depth !== 0) return `nodes.${i}.depth must be 0 for the root`;
    } else {
      const parent = seen.get(n.parentId);
      if (!parent) return `nodes.${i}.parentId ${n.parentId} is not an earlier node of this trajectory`;
      if (n.depth !== parent.depth + 1) return `nodes.${i}.depth must be its parent's depth + 1`;
    }
    seen.set(n.id, n);
  }
  for (const [i, n] of bundle.nodes.entries()) {
    if (n.editedFromId !== null && !seen.has(n.editedFromId)) return `nodes.${i}.editedFromId points outside this trajectory`;
  }
  return roots === 1 ? undefined : `expected exactly one root node, found ${roots}`;
}

export const worldloomJsonlImporter: TrajectoryImporter = {
  id: 'jsonl',
  label: 'Worldloom JSONL',
  detect(_name, head) {
    // Any JSON spacing (a file rewritten by jq or Python writes `"format": "…"`).
    return new RegExp(`"format"\\s*:\\s*"${WORLDLOOM_FORMAT_TAG.replace(/[.]/g, '\\.')}"`).test(head) ? 1 : 0;
  },
  *parse(source): Iterable<ImportItem> {
    for (const item of jsonLines(source)) {
      if (item.kind === 'problem') {
        yield item;
        continue;
      }
      const raw = item.value;
      const parsed = Line.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = issue.path.join('.');
        yield { kind: 'problem', line: item.lineNo, field, reason: plainZodIssue(issue, field || '(line)') };
        continue;
      }
      // Keep the line's own objects (validated above) so key order, and with it the
      // exported bytes, survive the round trip.
      const { trajectory, nodes } = raw as z.infer<typeof Line>;
      const bundle = { trajectory, nodes };
      const problem = treeProblem(bundle);
      if (problem) {
        yield { kind: 'problem', line: item.lineNo, field: 'nodes', reason: problem };
        continue;
      }
      yield { kind: 'trajectory', bundle };
    }
  },
};
