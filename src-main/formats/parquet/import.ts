// Parquet with a `messages` column (Hugging Face datasets) read back as trajectories: decoded
// row group by row group (./parquet-rows.ts), then read as messages rows.
import { chatLines } from '../../parsing/chat-dataset';
import { messagesRowTurns } from '../../parsing/chat-rows';
import { ImportFormatError } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import type { ImporterOptions, TrajectoryImporter } from '../format';
import { parquetChatLines } from './parquet-rows';

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
