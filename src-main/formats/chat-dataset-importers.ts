// The importers of chat datasets (./chat-dataset.ts reads the turns): messages JSONL,
// ShareGPT JSONL and Parquet with a `messages` column. Registered beside the dataset
// writers of the same formats, so every dataset Worldloom exports can be imported back.
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { chatLines, messagesRowTurns, shareGptRowTurns } from './chat-dataset';
import { ImportFormatError, type ImportSource, type TrajectoryImporter } from './format';
import { textSource } from './sources';

const firstLine = (head: string) => head.split('\n', 1)[0] ?? '';

export const chatMessagesImporter: TrajectoryImporter = {
  id: 'messages',
  label: 'Chat messages JSONL (TRL, ms-swift)',
  detect(_name, head) {
    const line = firstLine(head).trimStart();
    return line.startsWith('{') && /"messages"\s*:\s*\[\s*\{\s*"(role|content)"/.test(line) ? 0.85 : 0;
  },
  parse: (source, newId, now, options) => chatLines('messages', messagesRowTurns, source, newId, now, options),
};

export const shareGptImporter: TrajectoryImporter = {
  id: 'sharegpt',
  label: 'ShareGPT JSONL (LLaMA-Factory)',
  detect(_name, head) {
    const line = firstLine(head).trimStart();
    return line.startsWith('{') && /"conversations"\s*:\s*\[/.test(line) && /"from"\s*:/.test(line) ? 0.85 : 0;
  },
  parse: (source, newId, now, options) => chatLines('sharegpt', shareGptRowTurns, source, newId, now, options),
};

/** BigInt columns (int64) as numbers: JSON has no BigInt. */
const jsonSafe = (_key: string, value: unknown) => (typeof value === 'bigint' ? Number(value) : value);

export const parquetImporter: TrajectoryImporter = {
  id: 'parquet',
  label: 'Parquet with a messages column (Hugging Face datasets)',
  detect(name, head) {
    if (/\.parquet$/i.test(name)) return 0.95;
    return head.startsWith('PAR1') ? 0.9 : 0;
  },
  async prepare(source: ImportSource): Promise<ImportSource> {
    const path = source.path?.();
    if (!path) throw new ImportFormatError(`${source.name} is a Parquet file, which is binary: import it by path (worldloom import, or drop the file), not as pasted text.`);
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(path) });
    if (rows.length > 0 && !('messages' in rows[0]!)) {
      throw new ImportFormatError(`${source.name} has no "messages" column (its columns: ${Object.keys(rows[0]!).join(', ')}); Worldloom reads chat datasets whose messages column holds {role, content} lists.`);
    }
    return textSource(source.name, rows.map((r) => JSON.stringify(r, jsonSafe)).join('\n'));
  },
  parse: (source, newId, now, options) => chatLines('parquet', messagesRowTurns, source, newId, now, options, 'row'),
};
