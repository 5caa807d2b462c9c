// One JSON-lines file per split (`train.jsonl`, `validation.jsonl`, …): how every JSONL
// dataset format (messages, prompt/completion, preference) writes its rows and reads them back.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetExample, Split } from '../example';
import { SPLITS } from '../example';
import { parseJsonLines, type DatasetWriter } from './dataset-format';
import { LineFile } from './line-file';

export const splitFileName = (split: Split) => `${split}.jsonl`;

/** A writer that puts each example's row on a line of its split's file, files opened as splits appear. */
export function openSplitFiles(dir: string, toRow: (example: DatasetExample) => unknown): DatasetWriter {
  const files = new Map<Split, LineFile>();
  return {
    write(example, split) {
      let file = files.get(split);
      if (!file) files.set(split, (file = new LineFile(join(dir, splitFileName(split)))));
      return file.write(JSON.stringify(toRow(example)) + '\n');
    },
    async finish() {
      for (const file of files.values()) await file.close();
      return [...files.keys()].map(splitFileName);
    },
  };
}

/** Every split file in `dir`, each line checked by `parseRow` (which throws on a bad row) and turned into what `toExample` makes. */
export function readSplitFiles<Row, Read>(dir: string, parseRow: (row: unknown) => Row, toExample: (row: Row, split: Split) => Read): Read[] {
  return SPLITS.flatMap((split) => {
    const path = join(dir, splitFileName(split));
    if (!existsSync(path)) return [];
    return parseJsonLines(readFileSync(path, 'utf8'), splitFileName(split), parseRow).map((row) => toExample(row, split));
  });
}
