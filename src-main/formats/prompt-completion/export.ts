// TRL's conversational prompt/completion JSONL: `{"prompt": [...], "completion": [...]}`.
// The prompt is the history and the action (world model) or what the agent has seen
// (agent); the completion is the one turn the example teaches. TRL puts the loss on the
// completion only by default (completion_only_loss), so earlier observations in the prompt
// are context, never retrained. One step per example: a path has many taught turns.
import { actionOfCall } from '../../dataset/agent-tools';
import type { DatasetExample, ToolSchema } from '../../dataset/example';
import { chatRowMessages, exampleMessageFromRow, toolsColumn, type ChatRowMessage } from '../../dataset/writing/chat-row-messages';
import type { DatasetFormatSpec, WriteContext } from '../../dataset/writing/dataset-format';
import { PromptCompletionRowSchema } from '../../dataset/writing/framework-schemas';
import { openSplitFiles, readSplitFiles, splitFileName as fileName } from '../../dataset/writing/jsonl-splits';

export function promptCompletionRow(example: DatasetExample, context: Pick<WriteContext, 'reasoning' | 'reasoningStyle'>): { prompt: ChatRowMessage[]; completion: ChatRowMessage[]; tools?: string } {
  const at = example.completionFrom ?? example.messages.length - 1;
  const messages = chatRowMessages(example.messages, context);
  const row = { prompt: messages.slice(0, at), completion: messages.slice(at) };
  return example.tools ? { ...row, tools: toolsColumn(example.tools) } : row;
}

export const promptCompletionFormat: DatasetFormatSpec = {
  id: 'prompt-completion',
  label: 'Prompt/completion JSONL (TRL: loss on the completion only)',
  refuses(options) {
    if (options.per === 'path') return 'Prompt/completion teaches one turn per example; a path teaches many. Export one example per step, or a path as messages.';
    if (options.builder === 'preference') return 'Preference pairs need a chosen and a rejected answer: export them as preference (TRL) or sharegpt (LLaMA-Factory ranking).';
    return null;
  },
  howToLoad(_name, splits) {
    const hasValidation = splits.includes('validation');
    return [
      '```python',
      'from datasets import load_dataset',
      'from trl import SFTConfig, SFTTrainer',
      `ds = load_dataset("json", data_files={${splits.map((s) => `"${s}": "${fileName(s)}"`).join(', ')}})`,
      '# completion_only_loss is on by default for prompt/completion data: only the completion is trained.',
      'trainer = SFTTrainer(model=..., args=SFTConfig(completion_only_loss=True), train_dataset=ds["train"]' + (hasValidation ? ', eval_dataset=ds["validation"]' : '') + ')',
      '```',
    ].join('\n');
  },
  dataFiles: (split) => [fileName(split)],
  open: (dir, context) => openSplitFiles(dir, (example) => promptCompletionRow(example, context)),
  async read(dir) {
    return readSplitFiles(dir, (row) => PromptCompletionRowSchema.parse(row), (row, split) => ({
      split,
      messages: [...row.prompt, ...row.completion].map((m) => exampleMessageFromRow(m, actionOfCall)),
      completionFrom: row.prompt.length,
      ...(row.tools !== undefined ? { tools: JSON.parse(row.tools) as ToolSchema[] } : {}),
    }));
  },
};
