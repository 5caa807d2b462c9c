// The one registry of import and export formats. Each format is one folder (./<format>/)
// whose index.ts declares its entry: id, label, file extensions, the importer that detects
// and reads it, and its file or dataset writer. Adding a format means adding that folder and
// one line in FORMATS. The file dialogs, the CLI help, the export dialog (through `app.info`)
// and the contract's checks all read this list.
import type { DatasetFormatSpec } from '../dataset/writing/dataset-format';
import { agentWorldBenchFormatEntry } from './agentworldbench';
import { aiderChatFormat } from './aider-chat';
import { asciinemaFormat } from './asciinema';
import { atifFormat } from './atif';
import { claudeCodeFormat } from './claude-code';
import { clineTaskFormat } from './cline-task';
import { closestFormat, firstLineOf, lookalike } from './closest-format';
import { codexRolloutFormat } from './codex-rollout';
import { copilotCliFormat } from './copilot-cli';
import { UnknownFormatError, type FormatEntry, type TrajectoryImporter } from './format';
import type { TrajectoryExporter } from '../dataset/writing/file-writer';
import { geminiCliFormat } from './gemini-cli';
import { gooseDatabaseFormat, gooseJsonlFormat } from './goose';
import { inspectLogFormat } from './inspect-log';
import { kimiCliFormat } from './kimi-cli';
import { mcpCassetteFormat } from './mcp-cassette';
import { mcpJsonRpcLogFormat } from './mcp-jsonrpc-log';
import { messagesFormatEntry } from './messages';
import { miniSweAgentFormat } from './mini-swe-agent';
import { opencodeDatabaseFormat, opencodeFormat } from './opencode';
import { openHandsEventsFormat } from './openhands-events';
import { otelGenAiFormat } from './otel-genai';
import { parquetFormatEntry } from './parquet';
import { preferenceFormatEntry } from './preference';
import { qwenCodeFormat } from './qwen-code';
import { promptCompletionFormatEntry } from './prompt-completion';
import { shareGptFormatEntry } from './sharegpt';
import { sweAgentFormat } from './swe-agent';
import { tauBenchFormat } from './tau-bench';
import { worldloomJsonlFormat } from './worldloom-jsonl';

/** In the order detection breaks ties and the export dialog lists them. */
export const FORMATS: readonly FormatEntry[] = [
  // Chat datasets are written for fine-tuning and read back as trajectories (../parsing/chat-dataset.ts).
  messagesFormatEntry,
  promptCompletionFormatEntry,
  preferenceFormatEntry,
  shareGptFormatEntry,
  parquetFormatEntry,
  agentWorldBenchFormatEntry,
  worldloomJsonlFormat,
  asciinemaFormat,
  sweAgentFormat,
  miniSweAgentFormat,
  mcpJsonRpcLogFormat,
  mcpCassetteFormat,
  atifFormat,
  // Coding agents' own session files, eval logs and traces (../parsing/agent-session.ts pairs their calls and results).
  claudeCodeFormat,
  codexRolloutFormat,
  geminiCliFormat,
  qwenCodeFormat,
  kimiCliFormat,
  aiderChatFormat,
  copilotCliFormat,
  clineTaskFormat,
  gooseJsonlFormat,
  gooseDatabaseFormat,
  opencodeFormat,
  opencodeDatabaseFormat,
  openHandsEventsFormat,
  tauBenchFormat,
  inspectLogFormat,
  otelGenAiFormat,
];

export const IMPORTERS: readonly TrajectoryImporter[] = FORMATS.flatMap((f) => (f.importer ? [f.importer] : []));
export const IMPORT_FORMAT_IDS: readonly string[] = IMPORTERS.map((i) => i.id);
export const EXPORT_FORMAT_IDS: readonly string[] = FORMATS.filter((f) => f.fileWriter || f.datasetWriter).map((f) => f.id);
export const DATASET_FORMAT_IDS: readonly string[] = FORMATS.filter((f) => f.datasetWriter).map((f) => f.id);

/** File name endings of every format that can be imported, for the open dialogs. */
export function importExtensions(): string[] {
  return [...new Set(FORMATS.filter((f) => f.importer).flatMap((f) => f.extensions))];
}

/** What `app.info` tells the renderer about each format: enough for the export dialog. */
export interface FormatSummary {
  id: string;
  label: string;
  extensions: string[];
  imports: boolean;
  /** `file`: every chosen trajectory to one file; `folder`: a dataset folder with a card. */
  exportsTo: ('file' | 'folder')[];
}

export function formatSummaries(): FormatSummary[] {
  return FORMATS.map((f) => ({
    id: f.id,
    label: f.label,
    extensions: [...f.extensions],
    imports: f.importer !== undefined,
    exportsTo: [...(f.fileWriter ? (['file'] as const) : []), ...(f.datasetWriter ? (['folder'] as const) : [])],
  }));
}

function known(ids: readonly string[]): string {
  return ids.join(', ');
}

export function importerFor(format: string, name: string, head: string): TrajectoryImporter {
  if (format !== 'auto') {
    const found = IMPORTERS.find((i) => i.id === format);
    if (!found) throw new UnknownFormatError(`Unknown import format "${format}". Known formats: auto, ${known(IMPORT_FORMAT_IDS)}.`);
    return found;
  }
  let best: TrajectoryImporter | undefined;
  let bestScore = 0;
  for (const importer of IMPORTERS) {
    const score = importer.detect(name, head);
    if (score > bestScore) [best, bestScore] = [importer, score];
  }
  if (!best) throw new UnknownFormatError(`Could not tell the format of ${name}. ${whyNot(head)} Name it with --format (${known(IMPORT_FORMAT_IDS)}).`);
  return best;
}

/** Why no importer took the file: the format it comes closest to and what it lacks, or what it looks like. */
function whyNot(head: string): string {
  const like = lookalike(head);
  if (like) {
    const reader = like.formatId ? IMPORTERS.find((i) => i.id === like.formatId) : undefined;
    if (reader) return `It looks like ${like.what}, which Worldloom reads as ${reader.label} (${reader.id}), but not in this shape: import it with --format ${reader.id} to see what that reader finds missing.`;
    return `It looks like ${like.what}, which Worldloom does not read${like.advice ? `: ${like.advice}` : ''}.`;
  }
  const near = closestFormat(head, IMPORT_FORMAT_IDS);
  if (near) {
    const label = IMPORTERS.find((i) => i.id === near.id)!.label;
    return `It comes closest to ${label} (${near.id}): it has ${near.has.map((k) => `"${k}"`).join(', ')}, but not ${near.missing.map((k) => `"${k}"`).join(', ')}.`;
  }
  const start = head.trimStart();
  if (start === '') return 'It is empty.';
  if (!/^[{[]/.test(start)) return `It is not JSON or JSON lines (it starts with ${JSON.stringify(firstLineOf(head))}), and no text format matched.`;
  return 'Its JSON has none of the keys the known formats carry.';
}

function exportEntry(format: string): FormatEntry {
  const found = FORMATS.find((f) => f.id === format && (f.fileWriter || f.datasetWriter));
  if (!found) throw new UnknownFormatError(`Unknown export format "${format}". Known formats: ${known(EXPORT_FORMAT_IDS)}.`);
  return found;
}

/** The writer of a whole-workspace file export. */
export function exporterFor(format: string): TrajectoryExporter {
  const entry = exportEntry(format);
  if (!entry.fileWriter) throw new UnknownFormatError(`${entry.label} is written as a dataset folder, not one file. Export it as a dataset (choose a folder).`);
  return entry.fileWriter;
}

/** The writer of a dataset export. */
export function datasetFormat(format: string): DatasetFormatSpec {
  const entry = exportEntry(format);
  if (!entry.datasetWriter) {
    throw new UnknownFormatError(`${entry.label} is written as one file of every trajectory, not a dataset. Dataset formats: ${known(DATASET_FORMAT_IDS)}.`);
  }
  return entry.datasetWriter;
}

/**
 * Where an export to `out` goes, as the format's entry says: a format with one writer uses
 * it; a format with both writes one file when `out` ends in one of its extensions, else a folder.
 */
export function exportPipeline(format: string, out: string): 'file' | 'folder' {
  const entry = exportEntry(format);
  if (!entry.datasetWriter) return 'file';
  if (!entry.fileWriter) return 'folder';
  return entry.extensions.some((ext) => out.toLowerCase().endsWith(`.${ext}`)) ? 'file' : 'folder';
}
