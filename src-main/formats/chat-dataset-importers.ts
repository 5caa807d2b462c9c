// The importers of chat datasets (./chat-dataset.ts reads the turns): messages JSONL,
// ShareGPT JSONL and Parquet with a `messages` column. Registered beside the dataset
// writers of the same formats, so every dataset Worldloom exports can be imported back.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { chatLines } from './chat-dataset';
import { DEFAULT_SHAREGPT_COLUMNS, messagesRowTurns, shareGptColumnsFromInfo, shareGptRowTurns, type ShareGptColumns } from './chat-rows';
import { ImportFormatError, type ImporterOptions, type ImportItem, type ImportSource, type TrajectoryImporter } from './format';
import { parquetChatLines } from './parquet-rows';

const firstLine = (head: string) => head.split('\n', 1)[0] ?? '';

export const chatMessagesImporter: TrajectoryImporter = {
  id: 'messages',
  label: 'Chat messages JSONL (TRL, ms-swift)',
  detect(_name, head) {
    const line = firstLine(head).trimStart();
    if (line.startsWith('{') && /"messages"\s*:\s*\[\s*\{\s*"(role|content)"/.test(line)) return 0.85;
    // One JSON array of rows (a .json dataset).
    return /^\s*\[\s*\{\s*"messages"\s*:\s*\[\s*\{\s*"(role|content)"/.test(head) ? 0.8 : 0;
  },
  parse: (source, newId, now, options) => chatLines('messages', messagesRowTurns, source, newId, now, options),
};

export const shareGptImporter: TrajectoryImporter = {
  id: 'sharegpt',
  label: 'ShareGPT JSONL (LLaMA-Factory)',
  detect(_name, head) {
    const line = firstLine(head).trimStart();
    if (line.startsWith('{') && /"conversations"\s*:\s*\[/.test(line) && /"from"\s*:/.test(line)) return 0.85;
    return /^\s*\[\s*\{\s*"conversations"\s*:\s*\[\s*\{\s*"from"/.test(head) ? 0.8 : 0;
  },
  *parse(source, newId, now, options) {
    const { columns, problem } = datasetInfoColumns(source);
    if (problem) yield problem;
    yield* chatLines('sharegpt', (row) => shareGptRowTurns(row, columns), source, newId, now, options);
  },
};

export const DATASET_INFO = 'dataset_info.json';

/**
 * The columns a dataset_info.json beside the file names for it (LLaMA-Factory registers each
 * file there, possibly under other column and role names); the defaults when there is none.
 */
function datasetInfoColumns(source: ImportSource): { columns: ShareGptColumns; problem?: ImportItem } {
  const path = source.path?.();
  const infoPath = path ? join(dirname(path), DATASET_INFO) : null;
  if (!path || !infoPath || !existsSync(infoPath)) return { columns: DEFAULT_SHAREGPT_COLUMNS };
  let info: unknown;
  try {
    info = JSON.parse(readFileSync(infoPath, 'utf8')) as unknown;
  } catch (err) {
    return {
      columns: DEFAULT_SHAREGPT_COLUMNS,
      problem: { kind: 'problem', line: null, field: DATASET_INFO, reason: `the ${DATASET_INFO} beside it is not valid JSON (${(err as Error).message}); read with ShareGPT's default columns` },
    };
  }
  const entries = typeof info === 'object' && info !== null ? Object.values(info as Record<string, unknown>) : [];
  const name = basename(path);
  const entry = entries.find((e) => typeof e === 'object' && e !== null && (e as { file_name?: unknown }).file_name === name);
  return { columns: entry ? shareGptColumnsFromInfo(entry) : DEFAULT_SHAREGPT_COLUMNS };
}

export const parquetImporter: TrajectoryImporter = {
  id: 'parquet',
  label: 'Parquet with a messages column (Hugging Face datasets)',
  detect(name, head) {
    if (/\.parquet$/i.test(name)) return 0.95;
    return head.startsWith('PAR1') ? 0.9 : 0;
  },
  async prepare(source: ImportSource, options?: ImporterOptions): Promise<ImportSource> {
    const path = source.path?.();
    if (!path) throw new ImportFormatError(`${source.name} is a Parquet file, which is binary: import it by path (worldloom import, or drop the file), not as pasted text.`);
    // Row group by row group, bounded by what it decodes to (a few KB can claim gigabytes).
    return parquetChatLines(path, source.name, { ...(options?.maxBytes ? { maxBytes: options.maxBytes } : {}) });
  },
  parse: (source, newId, now, options) => chatLines('parquet', messagesRowTurns, source, newId, now, options, 'row'),
};
