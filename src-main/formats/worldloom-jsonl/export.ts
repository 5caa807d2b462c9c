// Worldloom's own JSONL: one trajectory per line with every node and all its fields, so
// export → import gives back exactly the same trajectories (ids, curation, provenance).
import type { TrajectoryExporter } from '../../dataset/writing/file-writer';

/** The `format` field of every line: what detection looks for. */
export const WORLDLOOM_FORMAT_TAG = 'worldloom.trajectory';

export const worldloomJsonlExporter: TrajectoryExporter = {
  id: 'jsonl',
  label: 'Worldloom JSONL',
  extension: 'jsonl',
  exportTo(bundles, write) {
    let trajectories = 0;
    for (const { trajectory, nodes } of bundles) {
      write(JSON.stringify({ format: WORLDLOOM_FORMAT_TAG, version: 1, trajectory, nodes }) + '\n');
      trajectories++;
    }
    return { trajectories, records: trajectories };
  },
};
