// What every format declares: its importer (here) and its writers (the interfaces in
// ../dataset/writing/, which the exports are handed), gathered in one FormatEntry per format
// folder and listed in ./registry.ts. Importers and file writers see text, never files or the
// database (an importer's `placeInWorkspace` reads the trajectories already there, never writes);
// a dataset writer writes its own folder.
import type { DatasetFormatSpec } from '../dataset/writing/dataset-format';
import type { TrajectoryExporter } from '../dataset/writing/file-writer';
import type { ChatAs } from '../parsing/chat-dataset';
import type { IdFactory, ImportItem } from '../parsing/import-item';
import type { ImportSource } from '../parsing/sources';
import type { NodeRecord, TrajectoryBundle } from '../common/trajectory/model';
import type { WorkspaceStore } from '../store/workspace-store';

/** Where a trajectory read from a file goes, given the trajectories already in the workspace. */
export type WorkspacePlacement =
  /** Nothing of it is here: written as its own trajectory. */
  | { kind: 'new'; note?: string }
  /** All its steps are on a path of a trajectory already here. */
  | { kind: 'present'; trajectoryId: string; title: string; note: string }
  /** Its first steps are the path to `nodes[0].parentId`; `nodes` are the rest, ready to add there. */
  | { kind: 'continue'; trajectoryId: string; title: string; nodes: NodeRecord[]; note: string };

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
  /**
   * The session's own conversation is carried on whole in another file of the same import (an
   * agent that starts a new file when a session is resumed, copying the conversation into it):
   * that file imports it, and this one only what the other lacks (its subagents). `copy`: the
   * other file only copies it, with nothing after.
   */
  conversationIn?: { file: string; copy: boolean };
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
  /**
   * A format whose sessions may carry on one another across files (Claude Code's resumed
   * sessions) says, before each trajectory is written, whether it is already in the workspace,
   * continues a trajectory there, or is new (`file` is the source's name, for the notes).
   */
  placeInWorkspace?(store: WorkspaceStore, bundle: TrajectoryBundle, file: string): WorkspacePlacement;
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
  /** Where the agent that writes this format keeps its sessions on a user's machine (the Sessions panel, `worldloom sessions`). */
  sessions?: SessionLocations;
}

/** The machine a search for sessions looks at: its home folder, operating system and environment. */
export interface SessionHome {
  home: string;
  /** `process.platform`'s values: linux, darwin, win32… */
  platform: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** One folder an agent may keep sessions in, and why it is looked at. */
export interface SessionFolder {
  path: string;
  /** `default`, or the environment variable that named it (`CODEX_HOME`). */
  from: string;
}

/**
 * Where a coding agent keeps its sessions and how to tell what one holds without importing
 * it. Declared beside the importer that reads those files, so adding an agent's format adds
 * where its sessions are found.
 */
export interface SessionLocations {
  /** The agent as its users name it ("Claude Code"). */
  agent: string;
  /** The folders to look in on this machine: those the agent's environment variables name, else its defaults. */
  folders(home: SessionHome): SessionFolder[];
  /** Session files inside a folder, as glob patterns relative to it. */
  files: readonly string[];
  /**
   * A tool call in one line of a session file, found without parsing it (global). When the
   * first group captures the call's id, calls are counted once per id: an agent that
   * rewrites a message as it grows writes the same call again.
   */
  toolCall: RegExp;
  /** Bytes every line holding a tool call contains: other lines are never decoded. */
  toolCallHint: string;
  /** The project a session worked on, from its first part (a `cwd` field), else from its path inside the folder. */
  project(head: string, relativePath: string): string | null;
  /**
   * For an agent that keeps many sessions in one file (a SQLite database): the sessions inside
   * one file that `files` matched, told without importing any (the file opened read-only). Each
   * is listed as `<file>#<id>` (../parsing/session-path.ts), which the import reads as that one
   * session. Without it, a file is one session, counted with `toolCall`.
   */
  sessionsIn?(path: string): Promise<SessionInFile[]>;
  /**
   * For an agent that keeps one session over many files (opencode before 1.2: the session's file,
   * then one file per message and per part, in folders named by their ids): what the session a
   * matched file names holds, read from all of its files; null when it is not to be listed (a
   * session the agent also keeps in its database, listed from there). The path listed and
   * imported is the matched file. Without it, a matched file is the whole session, counted with
   * `toolCall`.
   */
  describeSession?(path: string): Promise<Omit<SessionInFile, 'id'> | null>;
  /**
   * Whether a matched file is a copy of a session listed from elsewhere (the .jsonl files goose
   * copied into its database, and left in place): such a file is not listed twice.
   */
  copiedElsewhere?(path: string): Promise<boolean>;
  /**
   * Among several of this agent's session files imported together, those whose conversation
   * another of them carries on whole (an agent that copies a resumed session into a new file),
   * each with that file: the import reads the conversation from there only (ImporterOptions.conversationIn).
   */
  continuedSessions?(paths: readonly string[]): Promise<Map<string, { in: string; copy: boolean }>>;
}

/** One session inside a file that holds many, as a listing shows it. */
export interface SessionInFile {
  /** The session's id inside the file. */
  id: string;
  project: string | null;
  /** When the agent last wrote to it (ISO 8601); the file's own time when the file does not say. */
  modified: string | null;
  /** What the session takes inside the file. */
  bytes: number;
  toolCalls: number;
}

/** A format id the registry does not know, or a format asked for what it cannot do; the message lists the ones that can. */
export class UnknownFormatError extends Error {
  readonly code = 'unknown-format';
}
