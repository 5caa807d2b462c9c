// Chat `messages` JSONL for TRL and ms-swift: one `{"messages": [...]}` per line, one file
// per split. Only documented fields are written, so neither framework sees a column it
// does not know. Reasoning goes in `reasoning_content` (TRL with Qwen-family templates)
// or inline as <think>…</think> (ms-swift), as the user chose.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetSample, SampleMessage, Split } from '../sample';
import { SPLITS } from '../sample';
import { MessagesRowSchema } from './framework-schemas';
import { LineFile } from './line-file';
import type { FormatEntry } from '../../formats/format';
import { parseJsonLines, splitInlineReasoning, withInlineReasoning, type DatasetFormatSpec, type WriteContext } from './dataset-format';

interface MessagesRowMessage {
  role: string;
  content: string;
  reasoning_content?: string;
}

export function messagesRow(sample: DatasetSample, context: WriteContext): { messages: MessagesRowMessage[] } {
  const messages: MessagesRowMessage[] = new Array(sample.messages.length);
  for (let i = 0; i < sample.messages.length; i++) {
    const m = sample.messages[i]!;
    if (m.role !== 'assistant' || !context.reasoning) messages[i] = { role: m.role, content: m.content };
    else if (context.reasoningStyle === 'inline') messages[i] = { role: m.role, content: withInlineReasoning(m.content, m.reasoning) };
    // Every assistant turn gets the field, empty when it has none, so the column type never changes.
    else messages[i] = { role: m.role, content: m.content, reasoning_content: m.reasoning ?? '' };
  }
  return { messages };
}

export function messagesFromRow(row: { messages: MessagesRowMessage[] }): SampleMessage[] {
  return row.messages.map((m) => {
    const role = m.role as SampleMessage['role'];
    if (m.reasoning_content !== undefined) {
      return m.reasoning_content === '' ? { role, content: m.content } : { role, content: m.content, reasoning: m.reasoning_content };
    }
    if (role !== 'assistant') return { role, content: m.content };
    const { content, reasoning } = splitInlineReasoning(m.content);
    return reasoning === undefined ? { role, content } : { role, content, reasoning };
  });
}

export const splitFileName = (split: Split) => `${split}.jsonl`;

export const messagesJsonlFormat: DatasetFormatSpec = {
  id: 'messages',
  label: 'Chat messages JSONL (TRL, ms-swift)',
  howToLoad(_name, splits) {
    const hasValidation = splits.includes('validation');
    return [
      '```python',
      'from datasets import load_dataset',
      `ds = load_dataset("json", data_files={${splits.map((s) => `"${s}": "${s}.jsonl"`).join(', ')}})`,
      '# TRL: SFTTrainer(model=..., train_dataset=ds["train"]' + (hasValidation ? ', eval_dataset=ds["validation"]' : '') + ')',
      '```',
      '',
      `ms-swift: \`swift sft --dataset train.jsonl${hasValidation ? ' --val_dataset validation.jsonl' : ''}\` (export with inline reasoning for ms-swift).`,
    ].join('\n');
  },
  dataFiles: (split) => [splitFileName(split)],
  open(dir, context) {
    const files = new Map<Split, LineFile>();
    return {
      write(sample, split) {
        let file = files.get(split);
        if (!file) files.set(split, (file = new LineFile(join(dir, splitFileName(split)))));
        return file.write(JSON.stringify(messagesRow(sample, context)) + '\n');
      },
      async finish() {
        for (const file of files.values()) await file.close();
        return [...files.keys()].map(splitFileName);
      },
    };
  },
  async read(dir) {
    return SPLITS.flatMap((split) => {
      const path = join(dir, splitFileName(split));
      if (!existsSync(path)) return [];
      return parseJsonLines(readFileSync(path, 'utf8'), splitFileName(split), (row) => MessagesRowSchema.parse(row)).map((row) => ({
        split,
        messages: messagesFromRow(row),
      }));
    });
  },
};

export const messagesFormatEntry: FormatEntry = { id: messagesJsonlFormat.id, label: messagesJsonlFormat.label, extensions: ['jsonl'], datasetWriter: messagesJsonlFormat };
