// Chat `messages` JSONL for TRL and ms-swift: one `{"messages": [...]}` per line, one file
// per split. Only documented fields are written, so neither framework sees a column it
// does not know. Reasoning goes in `reasoning_content` (TRL with Qwen-family templates)
// or inline as <think>…</think> (ms-swift), as the user chose; agent examples call tools
// (chat-rows.ts) and carry a `tools` column.
import { actionOfCall } from '../../dataset/agent-tools';
import type { DatasetExample, ExampleMessage, ToolSchema } from '../../dataset/example';
import { chatRowMessages, exampleMessageFromRow, toolsColumn, type ChatRowMessage } from '../../dataset/writing/chat-row-messages';
import { MessagesRowSchema } from '../../dataset/writing/framework-schemas';
import type { DatasetFormatSpec, WriteContext } from '../../dataset/writing/dataset-format';
import { openSplitFiles, readSplitFiles, splitFileName } from '../../dataset/writing/jsonl-splits';

export function messagesRow(example: DatasetExample, context: Pick<WriteContext, 'reasoning' | 'reasoningStyle'>): { messages: ChatRowMessage[]; tools?: string } {
  const messages = chatRowMessages(example.messages, context);
  return example.tools ? { messages, tools: toolsColumn(example.tools) } : { messages };
}

export function messagesFromRow(row: { messages: ChatRowMessage[] }): ExampleMessage[] {
  return row.messages.map((m) => exampleMessageFromRow(m, actionOfCall));
}

export const messagesJsonlFormat: DatasetFormatSpec = {
  id: 'messages',
  label: 'Chat messages JSONL (TRL, ms-swift)',
  refuses(options) {
    if (options.builder === 'preference') return 'Preference pairs need a chosen and a rejected answer: export them as preference (TRL) or sharegpt (LLaMA-Factory ranking).';
    return null;
  },
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
  open: (dir, context) => openSplitFiles(dir, (example) => messagesRow(example, context)),
  async read(dir) {
    return readSplitFiles(dir, (row) => MessagesRowSchema.parse(row), (row, split) => ({
      split,
      messages: messagesFromRow(row),
      ...(row.tools !== undefined ? { tools: JSON.parse(row.tools) as ToolSchema[] } : {}),
    }));
  },
};
