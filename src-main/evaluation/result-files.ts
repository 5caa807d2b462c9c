// A run's folder: predictions.jsonl and judged.jsonl (lines in the public script's layout,
// result-lines.ts) and scores.json. Lines are appended one per finished case, so a run
// that stops (crash, Ctrl-C) loses at most the cases in flight and resumes from the
// files; the public script's own files are read the same way.
import { appendFileSync, closeSync, existsSync, fstatSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines } from '../parsing/json-lines';
import { fileSource } from '../parsing/sources';
import type { Domain } from '../common/trajectory/model';
import { isObject } from '../common/json-values';
import {
  domainOfKey,
  genOf,
  inferenceFailureOf,
  inferenceFailureOutcome,
  isOlderWorldloomLine,
  judgeOutcomeOf,
  keyOfLine,
  predictionDetails,
  type JudgeOutcome,
  type PredictionDetails,
  type ResultLine,
} from './result-lines';

export const RESULT_FILES = { predictions: 'predictions.jsonl', judged: 'judged.jsonl', scores: 'scores.json' } as const;

interface StoredLine {
  key: string | null;
  text: string;
  line: ResultLine;
}

/** One JSONL results file; for each case the line written last is the one that counts. */
export class ResultFile {
  readonly #path: string;
  #stored: StoredLine[] = [];
  readonly #latest = new Map<string, StoredLine>();

  private constructor(path: string) {
    this.#path = path;
  }

  /**
   * Reads the file. A line that is not a JSON object (nor valid UTF-8) can only be a write
   * torn by a crash: it is skipped, and with `repair` the file is rewritten without it (that
   * case is simply done again), ending in a newline so that appends start on a line of
   * their own.
   */
  static read(path: string, options: { repair: boolean }): ResultFile {
    const file = new ResultFile(path);
    if (!existsSync(path)) return file;
    let torn = false;
    for (const item of jsonLines(fileSource(path))) {
      if (item.kind === 'problem' || !isObject(item.value)) {
        torn = true;
        continue;
      }
      file.#remember({ key: keyOfLine(item.value), text: item.text, line: item.value });
    }
    if (options.repair && (torn || !endsWithNewline(path))) file.#rewrite(file.#stored);
    return file;
  }

  get(key: string): ResultLine | undefined {
    return this.#latest.get(key)?.line;
  }

  /** Every line read or appended, in file order, earlier lines of a case included. */
  lines(): ResultLine[] {
    return this.#stored.map((s) => s.line);
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
   * Rewrites the file as the public script would have written it: one line per case, in
   * the benchmark's order (lines of other cases after them, as they were). Appends made
   * out of order (a case done again, or finished after one that was stopped) are what
   * this undoes. Lines keep their text byte for byte (only a Windows line end becomes a
   * plain newline); the new file replaces the old in one rename, so a crash leaves one or
   * the other.
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

/** Whether the file's last byte is a newline; an empty file needs none. */
function endsWithNewline(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

interface RunFolder {
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
 * A case's prediction: its predictions line, else its judged line (a folder may hold the
 * public script's judged.jsonl alone; every judged line carries the prediction too).
 */
export function predictionOf(folder: RunFolder, key: string): ResultLine | undefined {
  for (const line of [folder.predictions.get(key), folder.judged.get(key)]) if (line && genOf(line) !== null) return line;
  return undefined;
}

/** The case's judged line, when it judged the case's current prediction (the same `gen`). */
export function judgedOf(folder: RunFolder, key: string, prediction: ResultLine): ResultLine | undefined {
  const judged = folder.judged.get(key);
  return judged && genOf(judged) === genOf(prediction) ? judged : undefined;
}

/** Whether the folder holds lines an older Worldloom wrote, which nothing here reads as predictions. */
export function holdsOlderLayout(folder: RunFolder): boolean {
  return [folder.predictions, folder.judged].some((file) => file.lines().some(isOlderWorldloomLine));
}

export interface EvaluatedLine {
  key: string;
  domain: Domain | undefined;
  prediction: ResultLine;
  judged: ResultLine | null;
  /** The prediction parsed from `gen` and compared with the real observation. */
  details: PredictionDetails;
  /**
   * The judge's fields of `judged`; a failed outcome with the reason when the prediction
   * itself failed (no judge needed to know); null when it is not judged.
   */
  outcome: JudgeOutcome | null;
}

/** The predicted cases among `keys` (default: every case in the folder, in file order), with their judgements. */
export function evaluatedLines(folder: RunFolder, keys?: readonly string[]): EvaluatedLine[] {
  const wanted = keys ?? [...new Set([...folder.predictions.keys(), ...folder.judged.keys()])];
  const lines: EvaluatedLine[] = [];
  for (const key of wanted) {
    const prediction = predictionOf(folder, key);
    if (!prediction) continue;
    const domain = domainOfKey(key);
    const judged = judgedOf(folder, key, prediction) ?? null;
    const failure = judged ? null : inferenceFailureOf(prediction);
    const outcome = judged ? judgeOutcomeOf(judged) : failure ? inferenceFailureOutcome(failure) : null;
    lines.push({ key, domain, prediction, judged, details: predictionDetails(prediction, domain), outcome });
  }
  return lines;
}
