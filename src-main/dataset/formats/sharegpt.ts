// ShareGPT JSONL for LLaMA-Factory, plus the dataset_info.json that registers each split
// (copy its entries into LLaMA-Factory's data/dataset_info.json, or point --dataset_dir
// at the export folder). The system prompt has its own column; reasoning goes inline.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SampleMessage, Split } from '../sample';
import { SPLITS } from '../sample';
import { DatasetInfoSchema, ShareGptRowSchema } from './framework-schemas';
import { LineFile } from './line-file';
import type { FormatEntry } from '../../formats/format';
import { parseJsonLines, splitInlineReasoning, withInlineReasoning, type DatasetFormatSpec } from './dataset-format';

export const DATASET_INFO_FILE = 'dataset_info.json';
const fileName = (split: Split) => `${split}.jsonl`;

export function shareGptRow(messages: readonly SampleMessage[]): { conversations: { from: string; value: string }[]; system?: string } {
  const system = messages[0]?.role === 'system' ? messages[0].content : undefined;
  const conversations = messages
    .filter((m) => m.role !== 'system')
    .map((m) => (m.role === 'user' ? { from: 'human', value: m.content } : { from: 'gpt', value: withInlineReasoning(m.content, m.reasoning) }));
  return system === undefined ? { conversations } : { conversations, system };
}

export function datasetInfo(name: string, splits: readonly Split[]): Record<string, unknown> {
  return Object.fromEntries(
    splits.map((split) => [
      `${name}_${split}`,
      { file_name: fileName(split), formatting: 'sharegpt', columns: { messages: 'conversations', system: 'system' } },
    ]),
  );
}

export const shareGptFormat: DatasetFormatSpec = {
  id: 'sharegpt',
  label: 'ShareGPT JSONL + dataset_info.json (LLaMA-Factory)',
  howToLoad(name, splits) {
    const hasValidation = splits.includes('validation');
    return [
      'LLaMA-Factory: point `dataset_dir` at this folder (it holds `dataset_info.json`) and use',
      '',
      '```yaml',
      `dataset: ${name}_train`,
      ...(hasValidation ? [`eval_dataset: ${name}_validation`] : []),
      '```',
    ].join('\n');
  },
  dataFiles: (split) => [fileName(split)],
  open(dir, context) {
    const files = new Map<Split, LineFile>();
    return {
      write(sample, split) {
        let file = files.get(split);
        if (!file) files.set(split, (file = new LineFile(join(dir, fileName(split)))));
        return file.write(JSON.stringify(shareGptRow(sample.messages)) + '\n');
      },
      async finish() {
        for (const file of files.values()) await file.close();
        const splits = [...files.keys()];
        writeFileSync(join(dir, DATASET_INFO_FILE), JSON.stringify(datasetInfo(context.name, splits), null, 2) + '\n');
        return [...splits.map(fileName), DATASET_INFO_FILE];
      },
    };
  },
  async read(dir) {
    const info = DatasetInfoSchema.parse(JSON.parse(readFileSync(join(dir, DATASET_INFO_FILE), 'utf8')));
    const registered = new Set(Object.values(info).map((entry) => entry.file_name));
    return SPLITS.flatMap((split) => {
      const path = join(dir, fileName(split));
      if (!existsSync(path)) return [];
      if (!registered.has(fileName(split))) throw new Error(`${fileName(split)} is not registered in ${DATASET_INFO_FILE}`);
      return parseJsonLines(readFileSync(path, 'utf8'), fileName(split), (row) => ShareGptRowSchema.parse(row)).map((row) => {
        const messages: SampleMessage[] = row.system === undefined ? [] : [{ role: 'system', content: row.system }];
        for (const turn of row.conversations) {
          if (turn.from === 'human' || turn.from === 'observation') messages.push({ role: 'user', content: turn.value });
          else {
            const { content, reasoning } = splitInlineReasoning(turn.value);
            messages.push(reasoning === undefined ? { role: 'assistant', content } : { role: 'assistant', content, reasoning });
          }
        }
        return { split, messages };
      });
    });
  },
};

export const shareGptFormatEntry: FormatEntry = { id: shareGptFormat.id, label: shareGptFormat.label, extensions: ['jsonl'], datasetWriter: shareGptFormat };
