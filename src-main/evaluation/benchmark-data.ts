// An AgentWorldBench directory: per-domain `<domain>_test.jsonl` files, one line per
// evaluated turn. Each case asks for that turn's observation given the real history.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../common/engine';
import { AwbLine, domainOf } from '../parsing/agentworldbench-line';
import { jsonLines } from '../parsing/json-lines';
import { fileSource } from '../parsing/sources';
import type { Domain } from '../common/trajectory/model';
import { observationFromResponse } from '../common/trajectory/turn-format';

/** A benchmark line exactly as read, every field kept: result lines repeat it unchanged. */
type BenchmarkRecord = Record<string, unknown>;

export interface BenchmarkCase {
  /** Unique within a run: `<domain>/<id>/<turn>`; what resume matches on (see `caseKey`). */
  key: string;
  domain: Domain;
  turnIdx: number;
  record: BenchmarkRecord;
  line: AwbLine;
}

export interface BenchmarkProblem {
  file: string;
  /** 1-based; null where the reader names no line. */
  line: number | null;
  reason: string;
}

/** How the public evaluation script groups results: `task` after its last "/". */
export function subtaskOf(task: string): string {
  return task.slice(task.lastIndexOf('/') + 1);
}

/**
 * The key of one evaluated turn, made from the record alone so that result lines written
 * by any tool (the public script keeps the record's fields) find their case again.
 */
export function caseKey(domain: string, id: string | number, turnIdx: number): string {
  return `${domain}/${String(id)}/${turnIdx}`;
}

/** The evaluated turn, 1-based; a line without `turn_idx` asks for turn 1, as in the public script. */
export function turnOf(turnIdx: unknown): number {
  return typeof turnIdx === 'number' && Number.isInteger(turnIdx) && turnIdx >= 1 ? turnIdx : 1;
}

export function loadBenchmarkDir(dir: string): { cases: BenchmarkCase[]; problems: BenchmarkProblem[] } {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    names = readdirSync(dir).filter((n) => /_test\.jsonl$/i.test(n)).sort();
  } catch {
    throw new Error(`${dir} is not a readable directory. Point --data at a folder holding AgentWorldBench <domain>_test.jsonl files.`);
  }
  if (names.length === 0) throw new Error(`${dir} holds no <domain>_test.jsonl files (e.g. terminal_test.jsonl).`);
  const cases: BenchmarkCase[] = [];
  const problems: BenchmarkProblem[] = [];
  const keys = new Set<string>();
  for (const name of names) {
    for (const item of jsonLines(fileSource(join(dir, name)))) {
      if (item.kind === 'problem') {
        problems.push({ file: name, line: item.line, reason: item.reason });
        continue;
      }
      const parsed = AwbLine.safeParse(item.value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        problems.push({ file: name, line: item.lineNo, reason: `${issue.path.join('.')}: ${issue.message}` });
        continue;
      }
      const rec = parsed.data;
      const domain = domainOf(rec.task, name);
      const turnIdx = turnOf(rec.turn_idx);
      if (!domain || turnIdx > rec.prompt.length || turnIdx > rec.response.length) {
        problems.push({ file: name, line: item.lineNo, reason: !domain ? `unknown domain "${rec.task}"` : `turn_idx ${turnIdx} is past the turn lists` });
        continue;
      }
      const key = caseKey(domain, rec.id, turnIdx);
      if (keys.has(key)) continue;
      keys.add(key);
      cases.push({ key, domain, turnIdx, record: item.value as BenchmarkRecord, line: rec });
    }
  }
  return { cases, problems };
}

/** The real turns before the evaluated one, as (prompt, response) pairs. */
export function earlierTurns(benchmarkCase: BenchmarkCase): { prompt: string; response: string }[] {
  const { line, turnIdx } = benchmarkCase;
  return line.prompt.slice(0, turnIdx - 1).map((prompt, i) => ({ prompt, response: line.response[i]! }));
}

/**
 * The evaluated turn's prompt (its action): what the model predicts from and what the
 * judge is shown, so both steps see the same text. It is the turn's entry in `prompt`, the
 * list the history comes from; `current_prompt`, where a line has one, is the same text.
 */
export function actionPrompt(benchmarkCase: BenchmarkCase): string {
  return benchmarkCase.line.prompt[benchmarkCase.turnIdx - 1]!;
}

/**
 * What the world model sees: the case's own system prompt, the real turns before as
 * user/assistant messages, then the turn's prompt. The public script's inference step
 * builds the same messages (since July 2026; its first release sent the system prompt and
 * the current prompt alone).
 */
export function caseMessages(benchmarkCase: BenchmarkCase): ChatMessage[] {
  const system = benchmarkCase.line.system_str;
  const messages: ChatMessage[] = system ? [{ role: 'system', content: system }] : [];
  for (const { prompt, response } of earlierTurns(benchmarkCase)) messages.push({ role: 'user', content: prompt }, { role: 'assistant', content: response });
  messages.push({ role: 'user', content: actionPrompt(benchmarkCase) });
  return messages;
}

/** The real observation of the evaluated turn, without its heading. */
export function referenceObservation(benchmarkCase: BenchmarkCase): string {
  return observationFromResponse(benchmarkCase.line.response[benchmarkCase.turnIdx - 1]!);
}
