// ShareGPT JSONL (LLaMA-Factory) read back as trajectories, under the columns and role tags
// a dataset_info.json beside the file names; ../../parsing/chat-dataset.ts makes the trajectories.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { chatLines } from '../../parsing/chat-dataset';
import { DEFAULT_SHAREGPT_COLUMNS, shareGptColumnsFromInfo, shareGptRowTurns, type ShareGptColumns } from '../../parsing/chat-rows';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import type { TrajectoryImporter } from '../format';
import { DATASET_INFO_FILE } from './export';

const firstLine = (head: string) => head.split('\n', 1)[0] ?? '';

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

/**
 * The columns a dataset_info.json beside the file names for it (LLaMA-Factory registers each
 * file there, possibly under other column and role names); the defaults when there is none.
 */
function datasetInfoColumns(source: ImportSource): { columns: ShareGptColumns; problem?: ImportItem } {
  const path = source.path?.();
  const infoPath = path ? join(dirname(path), DATASET_INFO_FILE) : null;
  if (!path || !infoPath || !existsSync(infoPath)) return { columns: DEFAULT_SHAREGPT_COLUMNS };
  let info: unknown;
  try {
    info = JSON.parse(readFileSync(infoPath, 'utf8')) as unknown;
  } catch (err) {
    return {
      columns: DEFAULT_SHAREGPT_COLUMNS,
      problem: { kind: 'problem', line: null, field: DATASET_INFO_FILE, reason: `the ${DATASET_INFO_FILE} beside it is not valid JSON (${(err as Error).message}); read with ShareGPT's default columns` },
    };
  }
  const entries = typeof info === 'object' && info !== null ? Object.values(info as Record<string, unknown>) : [];
  const name = basename(path);
  const entry = entries.find((e) => typeof e === 'object' && e !== null && (e as { file_name?: unknown }).file_name === name);
  return { columns: entry ? shareGptColumnsFromInfo(entry) : DEFAULT_SHAREGPT_COLUMNS };
}
