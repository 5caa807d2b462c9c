// What a reader yields for each thing it finds in a file, shared by every format's importer
// and by the readers of benchmark and result files.
import type { TrajectoryBundle } from '../common/trajectory/model';

export type ImportItem =
  | { kind: 'trajectory'; bundle: TrajectoryBundle }
  /** Something that could not be read: a trajectory or a line was lost. */
  | { kind: 'problem'; line: number | null; field?: string; reason: string }
  /**
   * Something read and left out on purpose (a harness turn, a terminal's reply to a cursor
   * query, an agent's instruction prompt): said in the report so nothing is dropped silently.
   */
  | { kind: 'skipped'; line: number | null; what: string; reason: string };

export interface IdFactory {
  (): string;
}

/** A file that cannot be read at all (binary pasted as text, no worker to read it in, past a limit). */
export class ImportFormatError extends Error {}
