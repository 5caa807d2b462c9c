// One interface every dataset format implements (one file per format, found through
// ./registry.ts): a writer that takes samples split by split, and a reader that gives
// the same samples back, so every export is tested as a round trip.
import type { ResolvedSampleOptions } from '../builders';
import type { DatasetSample, SampleMessage, Split, ToolSchema } from '../sample';

export interface WriteContext {
  /** The dataset's name (card title, dataset_info.json keys). */
  name: string;
  /** Whether samples carry reasoning; formats keep the column/field shape stable across rows. */
  reasoning: boolean;
  reasoningStyle: 'field' | 'inline';
  sampleOptions: ResolvedSampleOptions;
}

export interface DatasetWriter {
  write(sample: DatasetSample, split: Split): void | Promise<void>;
  /** Closes every file; returns the paths written, relative to the export folder. */
  finish(): Promise<string[]>;
}

export interface ReadSample {
  split: Split;
  messages: SampleMessage[];
  /** Set by formats that keep the sample id. */
  id?: string;
  /** Formats that keep prompt and completion apart: where the completion starts. */
  completionFrom?: number;
  tools?: ToolSchema[];
  /** Preference formats: the rejected answer. */
  rejected?: SampleMessage[];
}

export interface DatasetFormatSpec {
  id: string;
  label: string;
  open(dir: string, context: WriteContext): DatasetWriter;
  /** Why this format cannot hold samples built so, saying what to choose instead; null when it can. */
  refuses(options: ResolvedSampleOptions): string | null;
  /** Data files of one split, as the card's YAML `configs` names them (globs allowed). */
  dataFiles(split: Split): string[];
  read(dir: string): Promise<ReadSample[]>;
  /** The dataset card's "how to load it" paragraph (Markdown) for the folder's frameworks. */
  howToLoad(name: string, splits: readonly Split[]): string;
}

/** Reasoning inside the content, as ms-swift and LLaMA-Factory expect it. */
export function withInlineReasoning(content: string, reasoning: string | undefined): string {
  return reasoning ? `<think>\n${reasoning}\n</think>\n\n${content}` : content;
}

/** Undoes withInlineReasoning exactly. */
export function splitInlineReasoning(text: string): { content: string; reasoning?: string } {
  const m = /^<think>\n([\s\S]*?)\n<\/think>\n\n/.exec(text);
  if (!m) return { content: text };
  return { content: text.slice(m[0].length), reasoning: m[1]! };
}

/** Parses JSON lines, naming the file and line of the first one that is not valid. */
export function parseJsonLines<T>(text: string, file: string, check: (row: unknown) => T): T[] {
  const rows: T[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      rows.push(check(JSON.parse(line)));
    } catch (err) {
      throw new Error(`${file} line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return rows;
}
