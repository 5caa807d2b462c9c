// One interface every dataset format implements (one file per format, found through
// ./registry.ts): a writer that takes examples split by split, and a reader that gives
// the same examples back, so every export is tested as a round trip.
import type { ResolvedExampleOptions } from '../builders';
import type { DatasetExample, ExampleMessage, Split, ToolSchema } from '../example';

export interface WriteContext {
  /** The dataset's name (card title, dataset_info.json keys). */
  name: string;
  /** Whether examples carry reasoning; formats keep the column/field shape stable across rows. */
  reasoning: boolean;
  reasoningStyle: 'field' | 'inline';
  exampleOptions: ResolvedExampleOptions;
}

export interface DatasetWriter {
  write(example: DatasetExample, split: Split): void | Promise<void>;
  /** Closes every file; returns the paths written, relative to the export folder. */
  finish(): Promise<string[]>;
}

export interface ReadExample {
  split: Split;
  messages: ExampleMessage[];
  /** Set by formats that keep the example id. */
  id?: string;
  /** Formats that keep prompt and completion apart: where the completion starts. */
  completionFrom?: number;
  tools?: ToolSchema[];
  /** Preference formats: the rejected answer. */
  rejected?: ExampleMessage[];
}

export interface DatasetFormatSpec {
  id: string;
  label: string;
  open(dir: string, context: WriteContext): DatasetWriter;
  /** Why this format cannot hold examples built so, saying what to choose instead; null when it can. */
  refuses(options: ResolvedExampleOptions): string | null;
  /** Data files of one split, as the card's YAML `configs` names them (globs allowed). */
  dataFiles(split: Split): string[];
  read(dir: string): Promise<ReadExample[]>;
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
