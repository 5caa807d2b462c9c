// ShareGPT JSONL for LLaMA-Factory, plus the dataset_info.json that registers each split
// (copy its entries into LLaMA-Factory's data/dataset_info.json, or point --dataset_dir
// at the export folder). The system prompt has its own column; reasoning goes inline.
// Agent examples call tools as LLaMA-Factory documents it: `function_call` turns holding
// {"name", "arguments"}, results as `observation` turns, the tools in a `tools` column.
// Preference examples use its ranking layout: the prompt turns, then `chosen` and `rejected`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actionOfCall } from '../../dataset/agent-tools';
import type { DatasetExample, ExampleMessage, Split, ToolSchema } from '../../dataset/example';
import { SPLITS } from '../../dataset/example';
import { DatasetInfoSchema, ShareGptRankingRowSchema, ShareGptRowSchema } from '../../dataset/writing/framework-schemas';
import { LineFile } from '../../dataset/writing/line-file';
import { parseJsonLines, splitInlineReasoning, withInlineReasoning, type DatasetFormatSpec, type ReadExample } from '../../dataset/writing/dataset-format';
import type { ResolvedExampleOptions } from '../../dataset/builders';
import { lossSettings } from '../../dataset/card/loss-settings';

export const DATASET_INFO_FILE = 'dataset_info.json';
const fileName = (split: Split) => `${split}.jsonl`;

type Turn = { from: string; value: string };

function turnOf(m: ExampleMessage): Turn {
  if (m.role === 'user') return { from: 'human', value: m.content };
  if (m.role === 'tool') return { from: 'observation', value: m.content };
  const call = m.toolCalls?.[0];
  // LLaMA-Factory has no reasoning field for a function call; the agent's reasoning goes inline before it.
  if (call) return { from: 'function_call', value: withInlineReasoning(JSON.stringify({ name: call.name, arguments: call.arguments }), m.reasoning) };
  return { from: 'gpt', value: withInlineReasoning(m.content, m.reasoning) };
}

export function shareGptRow(
  messages: readonly ExampleMessage[],
  tools?: readonly ToolSchema[],
): { conversations: Turn[]; system?: string; tools?: string } {
  const system = messages[0]?.role === 'system' ? messages[0].content : undefined;
  const conversations = messages.filter((m) => m.role !== 'system').map(turnOf);
  return { conversations, ...(system === undefined ? {} : { system }), ...(tools ? { tools: JSON.stringify(tools) } : {}) };
}

export function shareGptRankingRow(example: DatasetExample): { conversations: Turn[]; chosen: Turn; rejected: Turn; system?: string } {
  const { conversations, system } = shareGptRow(example.messages);
  const chosen = conversations.pop()!;
  const rejected = turnOf(example.rejected!.messages[0]!);
  return { conversations, chosen, rejected, ...(system === undefined ? {} : { system }) };
}

export function datasetInfo(name: string, splits: readonly Split[], options: ResolvedExampleOptions): Record<string, unknown> {
  const ranking = options.builder === 'preference';
  const columns = ranking
    ? { messages: 'conversations', chosen: 'chosen', rejected: 'rejected', system: 'system' }
    : { messages: 'conversations', system: 'system', ...(options.builder === 'agent' ? { tools: 'tools' } : {}) };
  // LLaMA-Factory reads the keys it knows and ignores the rest: the loss note travels with the registration.
  const loss = lossSettings('sharegpt', options);
  return Object.fromEntries(
    splits.map((split) => [
      `${name}_${split}`,
      { file_name: fileName(split), formatting: 'sharegpt', ...(ranking ? { ranking: true } : {}), columns, worldloom_loss: loss.summary, ...(loss.llamaFactory ? { worldloom_training_args: loss.llamaFactory } : {}) },
    ]),
  );
}

export const shareGptFormat: DatasetFormatSpec = {
  id: 'sharegpt',
  label: 'ShareGPT JSONL + dataset_info.json (LLaMA-Factory)',
  refuses: () => null,
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
    const ranking = context.exampleOptions.builder === 'preference';
    return {
      write(example, split) {
        let file = files.get(split);
        if (!file) files.set(split, (file = new LineFile(join(dir, fileName(split)))));
        return file.write(JSON.stringify(ranking ? shareGptRankingRow(example) : shareGptRow(example.messages, example.tools)) + '\n');
      },
      async finish() {
        for (const file of files.values()) await file.close();
        const splits = [...files.keys()];
        writeFileSync(join(dir, DATASET_INFO_FILE), JSON.stringify(datasetInfo(context.name, splits, context.exampleOptions), null, 2) + '\n');
        return [...splits.map(fileName), DATASET_INFO_FILE];
      },
    };
  },
  async read(dir) {
    const info = DatasetInfoSchema.parse(JSON.parse(readFileSync(join(dir, DATASET_INFO_FILE), 'utf8')));
    const entries = new Map(Object.values(info).map((entry) => [entry.file_name, entry]));
    return SPLITS.flatMap((split): ReadExample[] => {
      const path = join(dir, fileName(split));
      if (!existsSync(path)) return [];
      const entry = entries.get(fileName(split));
      if (!entry) throw new Error(`${fileName(split)} is not registered in ${DATASET_INFO_FILE}`);
      const text = readFileSync(path, 'utf8');
      if (entry.ranking) {
        return parseJsonLines(text, fileName(split), (row) => ShareGptRankingRowSchema.parse(row)).map((row) => {
          const messages = messagesOf(row.system, [...row.conversations, row.chosen]);
          return { split, messages, completionFrom: messages.length - 1, rejected: messagesOf(undefined, [row.rejected]) };
        });
      }
      return parseJsonLines(text, fileName(split), (row) => ShareGptRowSchema.parse(row)).map((row) => ({
        split,
        messages: messagesOf(row.system, row.conversations),
        ...(row.tools !== undefined ? { tools: JSON.parse(row.tools) as ToolSchema[] } : {}),
      }));
    });
  },
};

function messagesOf(system: string | undefined, turns: readonly Turn[]): ExampleMessage[] {
  const messages: ExampleMessage[] = system === undefined ? [] : [{ role: 'system', content: system }];
  let lastCall = '';
  for (const turn of turns) {
    if (turn.from === 'human') messages.push({ role: 'user', content: turn.value });
    else if (turn.from === 'observation') messages.push({ role: 'tool', name: lastCall, content: turn.value });
    else {
      const { content, reasoning } = splitInlineReasoning(turn.value);
      const message: ExampleMessage = { role: 'assistant', content };
      if (reasoning !== undefined) message.reasoning = reasoning;
      if (turn.from === 'function_call') {
        const call = JSON.parse(content) as { name: string; arguments: Record<string, unknown> };
        message.toolCalls = [call];
        message.content = actionOfCall(call);
        lastCall = call.name;
      }
      messages.push(message);
    }
  }
  return messages;
}
