// What a format's file writer implements (formats/<format>/export.ts): every chosen trajectory
// written as text into one file. The export (../export-file.ts) is handed one; the format
// registry (formats/registry.ts) picks it, so dataset/ never imports formats/.
import type { TrajectoryBundle } from '../../common/trajectory/model';

export interface TrajectoryExporter {
  id: string;
  label: string;
  extension: string;
  /** Writes the bundles as text chunks through `write`. */
  exportTo(bundles: Iterable<TrajectoryBundle>, write: (chunk: string) => void): { trajectories: number; records: number };
}
