// Turns recorded trajectories into token sequences for training, with the app's own code:
// buildWorldModelMessages lays out the chat (DESIGN.md "Prompt contract") and the model's
// ChatTokenizer renders its chat template and tokenizes, so training sees exactly the
// tokens the ONNX engine will feed the model. One sample is a whole trajectory; the
// loss is taken on every assistant turn ("**Environment Observation:**\n…<|im_end|>"),
// which is what the model generates after the prompt's "<|im_start|>assistant\n".
//
//   tsx native/world-model/samples.ts [--data DIR] [--model DIR] [--max-tokens N]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChatMessage } from '../../src-main/engine/engine';
import { ChatTokenizer } from '../../src-main/engine/onnx/chat-tokenizer';
import { commonPrefixLength } from '../../src-main/engine/onnx/prefix-cache';
import { buildWorldModelMessages } from '../../src-main/prompt/world-model-messages';
import { responseForObservation } from '../../src-main/trajectory/turn-format';
import { DATA_DIR, MODEL_DIR, type RecordedTrajectory } from './paths';

/** Longest training sequence, system prompt included. */
export const MAX_SAMPLE_TOKENS = 1024;

export function readTrajectories(dataDir: string): RecordedTrajectory[] {
  return readFileSync(join(dataDir, 'trajectories.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RecordedTrajectory);
}

export function readSystemPrompts(dataDir: string): Record<RecordedTrajectory['domain'], string> {
  return JSON.parse(readFileSync(join(dataDir, 'system-prompts.json'), 'utf8')) as Record<RecordedTrajectory['domain'], string>;
}

/** The chat the app sends to predict step `index`'s observation. */
export function promptMessages(systemPrompt: string, trajectory: RecordedTrajectory, index: number): ChatMessage[] {
  return buildWorldModelMessages({ systemPrompt, history: trajectory.steps.slice(0, index), action: trajectory.steps[index]!.action });
}

const startsWith = (a: readonly number[], prefix: readonly number[]): boolean => commonPrefixLength(a, prefix) === prefix.length;

function main(): void {
  const { values } = parseArgs({
    options: {
      data: { type: 'string', default: DATA_DIR },
      model: { type: 'string', default: MODEL_DIR },
      'max-tokens': { type: 'string', default: String(MAX_SAMPLE_TOKENS) },
    },
  });
  const maxTokens = Number(values['max-tokens']);
  const tokenizer = ChatTokenizer.load(join(values.model!, 'tokenizer.json'), join(values.model!, 'tokenizer_config.json'));
  const prompts = readSystemPrompts(values.data!);
  const systemIds = Object.fromEntries(
    Object.entries(prompts).map(([domain, text]) => [domain, tokenizer.encode(tokenizer.renderChat([{ role: 'system', content: text }], false))]),
  );
  const lines: string[] = [];
  let truncated = 0;
  let skipped = 0;
  for (const trajectory of readTrajectories(values.data!)) {
    const system = prompts[trajectory.domain];
    const spans: [number, number][] = [];
    let ids: number[] = systemIds[trajectory.domain]!;
    for (let i = 0; i < trajectory.steps.length; i++) {
      const asked = promptMessages(system, trajectory, i);
      const prompt = tokenizer.encode(tokenizer.renderChat(asked, true));
      const messages: ChatMessage[] = [...asked, { role: 'assistant', content: responseForObservation(trajectory.steps[i]!.observation) }];
      const full = tokenizer.encode(tokenizer.renderChat(messages, false));
      // Inference tokenizes the prompt alone; the sample must extend exactly those tokens.
      if (!startsWith(prompt, ids) || !startsWith(full, prompt)) {
        skipped++;
        break;
      }
      if (full.length > maxTokens) {
        truncated++;
        break;
      }
      // The target ends with <|im_end|>; the template's "\n" after it belongs to the next turn.
      const end = full.length - 1;
      spans.push([prompt.length, end]);
      ids = full.slice(0, end);
    }
    if (spans.length === 0) continue;
    lines.push(JSON.stringify({ id: trajectory.id, domain: trajectory.domain, split: trajectory.split, prefix: systemIds[trajectory.domain]!.length, ids, spans }));
  }
  writeFileSync(join(values.data!, 'samples.jsonl'), lines.join('\n') + '\n');
  console.log(`samples: ${lines.length} trajectories (${truncated} cut at ${maxTokens} tokens, ${skipped} stopped at a tokenization mismatch); system prompts ${Object.entries(systemIds).map(([d, t]) => `${d} ${t.length}`).join(', ')} tokens`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
