// TRL's conversational preference JSONL for DPO: `{"prompt": [...], "chosen": [...],
// "rejected": [...]}`, one pair of sibling observations per line (preference-pairs.ts says
// how pairs are made). DPOTrainer reads it as it is.
import { actionOfCall } from '../../dataset/agent-tools';
import type { DatasetExample } from '../../dataset/example';
import { chatRowMessages, exampleMessageFromRow, type ChatRowMessage } from '../../dataset/writing/chat-row-messages';
import type { DatasetFormatSpec, WriteContext } from '../../dataset/writing/dataset-format';
import { PreferenceRowSchema } from '../../dataset/writing/framework-schemas';
import { openSplitFiles, readSplitFiles, splitFileName as fileName } from '../../dataset/writing/jsonl-splits';

export function preferenceRow(example: DatasetExample, context: Pick<WriteContext, 'reasoning' | 'reasoningStyle'>): { prompt: ChatRowMessage[]; chosen: ChatRowMessage[]; rejected: ChatRowMessage[] } {
  const at = example.completionFrom ?? example.messages.length - 1;
  const messages = chatRowMessages(example.messages, context);
  return { prompt: messages.slice(0, at), chosen: messages.slice(at), rejected: chatRowMessages(example.rejected?.messages ?? [], context) };
}

export const preferenceFormat: DatasetFormatSpec = {
  id: 'preference',
  label: 'Preference JSONL (TRL DPO: prompt, chosen, rejected)',
  refuses(options) {
    return options.builder === 'preference' ? null : 'Preference files hold chosen/rejected pairs: choose the preference builder (sibling samples rated or starred against each other).';
  },
  howToLoad(_name, splits) {
    return [
      '```python',
      'from datasets import load_dataset',
      'from trl import DPOConfig, DPOTrainer',
      `ds = load_dataset("json", data_files={${splits.map((s) => `"${s}": "${fileName(s)}"`).join(', ')}})`,
      'trainer = DPOTrainer(model=..., args=DPOConfig(...), train_dataset=ds["train"])',
      '```',
    ].join('\n');
  },
  dataFiles: (split) => [fileName(split)],
  open: (dir, context) => openSplitFiles(dir, (example) => preferenceRow(example, context)),
  async read(dir) {
    return readSplitFiles(dir, (row) => PreferenceRowSchema.parse(row), (row, split) => ({
      split,
      messages: [...row.prompt, ...row.chosen].map((m) => exampleMessageFromRow(m, actionOfCall)),
      completionFrom: row.prompt.length,
      rejected: row.rejected.map((m) => exampleMessageFromRow(m, actionOfCall)),
    }));
  },
};
