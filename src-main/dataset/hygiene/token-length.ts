// Token lengths of examples: counted exactly with a model's own tokenizer (the loaded model's,
// a tokenizer folder the user names, or the embedded model's), through the engine's
// tokenizer code; estimated only when none can be had, and then labelled as an estimate in
// the card and the UI.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ChatTokenizer } from '../../engine/onnx/chat-tokenizer';
import { approximateTokenCount } from '../../engine/openai/approximate-tokens';
import { DatasetExportError } from '../export-errors';
import { exampleText, type DatasetExample } from '../example';

export interface TokenCounter {
  /** Shown in the card: which tokenizer counted. */
  label: string;
  exact: boolean;
  count(text: string): number | Promise<number>;
}

export const approximateTokenCounter: TokenCounter = {
  label: 'approximate (about 4 characters per token, 1 per CJK character; no model tokenizer loaded)',
  exact: false,
  count: approximateTokenCount,
};

/** A counter built on an engine's tokenizer (the loaded model's own vocabulary). */
export function modelTokenCounter(modelId: string, tokenize: (text: string) => Promise<number[]>): TokenCounter {
  return { label: `${modelId} tokenizer`, exact: true, count: async (text) => (await tokenize(text)).length };
}

const folderCounters = new Map<string, TokenCounter>();

/**
 * A counter on the tokenizer of a model folder (tokenizer.json and tokenizer_config.json, the
 * layout the ONNX engine loads); loaded once per folder. `label` names it in the card.
 */
export function tokenizerFolderCounter(dir: string, label = `the tokenizer in ${dir}`): TokenCounter {
  const cached = folderCounters.get(dir);
  if (cached) return cached;
  for (const file of ['tokenizer.json', 'tokenizer_config.json']) {
    if (!existsSync(join(dir, file))) throw new DatasetExportError(`${dir} holds no ${file}. Name a model folder with tokenizer.json and tokenizer_config.json (a Hugging Face model folder has them).`);
  }
  let tokenizer: ChatTokenizer;
  try {
    tokenizer = ChatTokenizer.load(join(dir, 'tokenizer.json'), join(dir, 'tokenizer_config.json'));
  } catch (err) {
    throw new DatasetExportError(`The tokenizer in ${dir} could not be loaded: ${(err as Error).message}`);
  }
  const counter: TokenCounter = { label, exact: true, count: (text) => tokenizer.encode(text).length };
  folderCounters.set(dir, counter);
  return counter;
}

/** Content tokens of an example, both answers of a preference pair included (chat-template markup is not counted: it depends on the trainer's template). */
export function exampleTokens(counter: TokenCounter, example: DatasetExample): number | Promise<number> {
  const text = exampleText(example.messages);
  return counter.count(example.rejected ? text + exampleText(example.rejected.messages) : text);
}

export interface LengthSummary {
  count: number;
  total: number;
  min: number;
  max: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
}

export function summarizeLengths(lengths: readonly number[]): LengthSummary {
  if (lengths.length === 0) return { count: 0, total: 0, min: 0, max: 0, mean: 0, p50: 0, p90: 0, p99: 0 };
  const sorted = Float64Array.from(lengths).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  let total = 0;
  for (const v of sorted) total += v;
  return {
    count: sorted.length,
    total,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    mean: total / sorted.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
  };
}
