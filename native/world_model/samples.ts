// Tokenizes the training chats with the model's own tokenizer and chat template through the
// engine's ChatTokenizer, so training sees exactly the tokens the ONNX engine feeds the
// model. A sample is one chat; the loss spans are its assistant turns: earlier turns as the
// template renders history (`<|im_start|>assistant\n**Environment Observation:**…<|im_end|>`),
// the last one as the model writes it after the generation prompt's open think block (an
// empty reasoning, `\n</think>\n\n`, then the observation and `<|im_end|>`).
//
//   tsx native/world_model/samples.ts [--chats FILE] [--tokenizer DIR] [--out FILE] [--max-tokens N]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ChatTokenizer } from '../../src-main/engine/onnx/chat-tokenizer';
import type { TrainingChat } from './chats';
import { CHECKPOINT_DIR, DATA_DIR } from './paths';

/** Longest training sequence: an MCP session's tool list alone is about 5,000 tokens. */
export const MAX_SAMPLE_TOKENS = 8192;

export interface Sample {
  id: string;
  domain: TrainingChat['domain'];
  split: TrainingChat['split'];
  kind: TrainingChat['kind'];
  ids: number[];
  /** [start, end) token ranges that carry the loss. */
  spans: [number, number][];
}

const isPrefix = (prefix: readonly number[], of: readonly number[]): boolean => prefix.length <= of.length && prefix.every((id, i) => of[i] === id);

/** The sample of one chat, or why it cannot be one. */
export function sampleOf(tokenizer: ChatTokenizer, chat: TrainingChat, imEnd: number): Sample | string {
  const { messages } = chat;
  const fullText = tokenizer.renderChat(messages, false);
  const promptText = tokenizer.renderChat(messages.slice(0, -1), true);
  if (!fullText.startsWith(promptText)) return 'the generation prompt is not a text prefix of the full chat';
  // The engine tokenizes the prompt alone and the model writes the rest token by token:
  // "<think>\n" then "\n</think>" must not merge into one "\n\n" token as in the whole text.
  const prompt = tokenizer.encode(promptText);
  const ids = [...prompt, ...tokenizer.encode(fullText.slice(promptText.length))];
  const spans: [number, number][] = [];
  const spanFrom = (start: number): [number, number] => {
    let end = start;
    while (end < ids.length && ids[end] !== imEnd) end++;
    return [start, Math.min(end + 1, ids.length)];
  };
  if (chat.loss === 'all') {
    for (let m = 1; m < messages.length - 1; m++) {
      if (messages[m]!.role !== 'assistant') continue;
      const head = tokenizer.renderChat(messages.slice(0, m), false) + '<|im_start|>assistant\n';
      if (!promptText.startsWith(head)) return `history turn ${m} does not render as a prefix`;
      const headIds = tokenizer.encode(head);
      if (!isPrefix(headIds, prompt)) return `history turn ${m} is not a token prefix`;
      spans.push(spanFrom(headIds.length));
    }
  }
  spans.push(spanFrom(prompt.length));
  return { id: chat.id, domain: chat.domain, split: chat.split, kind: chat.kind, ids, spans };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      chats: { type: 'string', default: join(DATA_DIR, 'chats.jsonl') },
      tokenizer: { type: 'string', default: CHECKPOINT_DIR },
      out: { type: 'string', default: join(DATA_DIR, 'samples.jsonl') },
      'max-tokens': { type: 'string', default: String(MAX_SAMPLE_TOKENS) },
    },
  });
  const maxTokens = Number(values['max-tokens']);
  if (!Number.isInteger(maxTokens) || maxTokens < 64) throw new Error(`--max-tokens must be a whole number of at least 64, got ${values['max-tokens']}.`);
  const tokenizer = ChatTokenizer.load(join(values.tokenizer!, 'tokenizer.json'), join(values.tokenizer!, 'tokenizer_config.json'));
  const [imEnd] = tokenizer.encode('<|im_end|>');
  const lines: string[] = [];
  const problems = new Map<string, number>();
  let tooLong = 0;
  const lengths: Record<string, number[]> = {};
  for (const line of readFileSync(values.chats!, 'utf8').split('\n')) {
    if (!line) continue;
    const chat = JSON.parse(line) as TrainingChat;
    const sample = sampleOf(tokenizer, chat, imEnd!);
    if (typeof sample === 'string') {
      problems.set(sample, (problems.get(sample) ?? 0) + 1);
      continue;
    }
    if (sample.ids.length > maxTokens) {
      tooLong++;
      continue;
    }
    (lengths[chat.domain] ??= []).push(sample.ids.length);
    lines.push(JSON.stringify(sample));
  }
  writeFileSync(values.out!, lines.join('\n') + '\n');
  void tokenizer.close();
  const stats = Object.entries(lengths).map(([d, l]) => `${d} ${l.length} (mean ${Math.round(l.reduce((a, b) => a + b, 0) / l.length)}, max ${Math.max(...l)} tokens)`);
  console.log(`samples: ${lines.length} written (${stats.join('; ')}); ${tooLong} longer than ${maxTokens} tokens left out`);
  for (const [problem, n] of problems) console.log(`  ${n} chats left out: ${problem}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
