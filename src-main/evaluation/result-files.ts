// A run's folder: predictions.jsonl and judged.jsonl (lines in the public script's layout,
// result-lines.ts) and scores.json. Lines are appended one per finished sample, so a run
// that stops (crash, Ctrl-C) loses at most the samples in flight and resumes from the
// files; the public script's own files are read the same way.
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricsRecord } from '../metrics/compare';
import type { Domain } from '../trajectory/model';
import { domainOfKey, genOf, keyOfLine, predictionDetails, type ResultLine } from './result-lines';

export const RESULT_FILES = { predictions: 'predictions.jsonl', judged: 'judged.jsonl', scores: 'scores.json' } as const;

interface StoredLine {
  key: string | null;
  text: string;
  line: ResultLine;
}

/** One JSONL results file; for each sample the line written last is the one that counts. */
export class ResultFile {
  readonly #path: string;
  #stored: StoredLine[] = [];
  readonly #latest = new Map<string, StoredLine>();

  private constructor(path: string) {
    this.#path = path;
  }

  /**
   * Reads the file. A line that is not a JSON object can only be a write torn by a crash:
   * it is skipped, and with `repair` the file is rewritten without it (that sample is
   * simply done again), ending in a newline so that appends start on a line of their own.
   */
  static read(path: string, options: { repair: boolean }): ResultFile {
    const file = new ResultFile(path);
    if (!existsSync(path)) return file;
    const text = readFileSync(path, 'utf8');
    let torn = false;
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      let line: unknown;
      try {
        line = JSON.parse(raw);
      } catch {
        torn = true;
        continue;
      }
      if (typeof line !== 'object' || line === null || Array.isArray(line)) {
        torn = true;
        continue;
      }
      file.#remember({ key: keyOfLine(line as ResultLine), text: raw, line: line as ResultLine });
    }
    if (options.repair && (torn || (text !== '' && !text.endsWith('\n')))) file.#rewrite(file.#stored);
    return file;
  }

  get(key: string): ResultLine | undefined {
    return this.#latest.get(key)?.line;
  }

  /** Keys in the order their latest lines appear in the file. */
  keys(): string[] {
    return this.#stored.filter((s) => s.key !== null && this.#latest.get(s.key) === s).map((s) => s.key!);
  }

  append(line: ResultLine): void {
    const text = JSON.stringify(line);
    appendFileSync(this.#path, text + '\n');
    this.#remember({ key: keyOfLine(line), text, line });
  }

  /**
   * Rewrites the file as the public script would have written it: one line per sample, in
   * the benchmark's order (lines of other samples after them, as they were). Appends made
   * out of order (a sample done again, or finished after one that was stopped) are what
   * this undoes. Lines keep their text byte for byte; the new file replaces the old in one
   * rename, so a crash leaves one or the other.
   */
  putInOrder(order: readonly string[]): void {
    const ordered = new Set(order);
    const inOrder = order.map((k) => this.#latest.get(k)).filter((s): s is StoredLine => s !== undefined);
    const others = this.#stored.filter((s) => s.key === null || (!ordered.has(s.key) && this.#latest.get(s.key) === s));
    const wanted = [...inOrder, ...others];
    if (wanted.length === this.#stored.length && wanted.every((s, i) => s === this.#stored[i])) return;
    this.#rewrite(wanted);
  }

  #remember(stored: StoredLine): void {
    this.#stored.push(stored);
    if (stored.key !== null) this.#latest.set(stored.key, stored);
  }

  #rewrite(lines: StoredLine[]): void {
    const temporary = `${this.#path}.${process.pid}.tmp`;
    writeFileSync(temporary, lines.map((s) => s.text + '\n').join(''));
    renameSync(temporary, this.#path);
    this.#stored = lines;
  }
}

export interface RunFolder {
  predictions: ResultFile;
  judged: ResultFile;
}

export function openRunFolder(outDir: string, options: { repair: boolean }): RunFolder {
  return {
    predictions: ResultFile.read(join(outDir, RESULT_FILES.predictions), options),
    judged: ResultFile.read(join(outDir, RESULT_FILES.judged), options),
  };
}

/**
 * A sample's prediction: its predictions line, else its judged line (a folder may hold the
 * public script's judged.jsonl alone; every judged line carries the prediction too).
 */
export function predictionOf(folder: RunFolder, key: string): ResultLine | undefined {
  for (const line of [folder.predictions.get(key), folder.judged.get(key)]) if (line && genOf(line) !== null) return line;
  return undefined;
}

/** The sample's judged line, when it judged the sample's current prediction (the same `gen`). */
export function judgedOf(folder: RunFolder, key: string, prediction: ResultLine): ResultLine | undefined {
  const judged = folder.judged.get(key);
  return judged && genOf(judged) === genOf(prediction) ? judged : undefined;
}

export interface EvaluatedLine {
  key: string;
  domain: Domain | undefined;
  prediction: ResultLine;
  judged: ResultLine | null;
  metrics: MetricsRecord;
}

/** The predicted samples among `keys` (default: every sample in the folder, in file order), with their judgements. */
export function evaluatedLines(folder: RunFolder, keys?: readonly string[]): EvaluatedLine[] {
  const wanted = keys ?? [...new Set([...folder.predictions.keys(), ...folder.judged.keys()])];
  const lines: EvaluatedLine[] = [];
  for (const key of wanted) {
    const prediction = predictionOf(folder, key);
    if (!prediction) continue;
    const domain = domainOfKey(key);
    lines.push({ key, domain, prediction, judged: judgedOf(folder, key, prediction) ?? null, metrics: predictionDetails(prediction, domain).metrics });
  }
  return lines;
}
