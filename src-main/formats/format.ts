// What every format declares: its importer (here) and its writers (the interfaces in
// ../dataset/writing/, which the exports are handed), gathered in one FormatEntry per format
// folder and listed in ./registry.ts. Importers and file writers see text, never files or the
// database; a dataset writer writes its own folder.
import type { DatasetFormatSpec } from '../dataset/writing/dataset-format';
import type { TrajectoryExporter } from '../dataset/writing/file-writer';
import type { ChatAs } from '../parsing/chat-dataset';
import type { IdFactory, ImportItem } from '../parsing/import-item';
import type { ImportSource } from '../parsing/sources';

/** What a user may tell an importer beyond the file (CLI flags, the import dialog). */
export interface ImporterOptions {
  /**
   * How a chat dataset's turns map onto a trajectory: `world-model` data has actions in user
   * turns and observations in assistant turns, `agent` data the reverse. Guessed from the
   * system prompt when not given.
   */
  chatAs?: ChatAs;
  /**
   * A terminal recording's shell prompt as a regular expression matched at the start of a
   * line (`--prompt`), for sessions whose prompt cannot be learned from repetition.
   */
  prompt?: string;
  /**
   * What one file may decode to in all, in bytes (`--max-mib`); MAX_IMPORT_BYTES when not given.
   * A compressed or replayed format can claim far more than its size on disk.
   */
  maxBytes?: number;
}

export interface TrajectoryImporter {
  id: string;
  label: string;
  /** 0 = not this format, 1 = certainly this format; judged from the name and first lines. */
  detect(name: string, head: string): number;
  parse(source: ImportSource, newId: IdFactory, now: string, options?: ImporterOptions): Iterable<ImportItem>;
  /**
   * Formats that must be decoded asynchronously first (Parquet) turn the source into one
   * `parse` can read; imports run through the job path call it before parsing.
   */
  prepare?(source: ImportSource, options?: ImporterOptions): Promise<ImportSource>;
  /**
   * Reading is replay that one file can make arbitrarily long (a terminal emulator over every
   * event): imports through the job path read it in a worker thread with a time and heap limit.
   */
  offThread?: boolean;
}

/**
 * One format as the registry knows it: its id, the file name endings the dialogs offer,
 * and what it can do. `importer` detects and reads it; an export writes either one file
 * (`fileWriter`: every chosen trajectory, round-tripping) or a dataset folder with a card
 * (`datasetWriter`). A format with both writes a file when the output path ends in one
 * of its extensions, else a folder.
 */
export interface FormatEntry {
  id: string;
  /** What the export dialog and CLI help call it. */
  label: string;
  /** File name endings without the dot, for the open dialogs and file exports. */
  extensions: readonly string[];
  importer?: TrajectoryImporter;
  fileWriter?: TrajectoryExporter;
  datasetWriter?: DatasetFormatSpec;
}

/** A format id the registry does not know, or a format asked for what it cannot do; the message lists the ones that can. */
export class UnknownFormatError extends Error {
  readonly code = 'unknown-format';
}
