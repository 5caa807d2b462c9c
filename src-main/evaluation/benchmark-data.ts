// An AgentWorldBench directory: per-domain `<domain>_test.jsonl` files, one line per
// evaluated turn. Each sample asks for that turn's observation given the real history.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../engine/engine';
import { AwbLine, domainOf } from '../formats/agentworldbench';
import { fileLines } from '../formats/sources';
import type { Domain } from '../trajectory/model';
import { observationFromResponse } from '../trajectory/turn-format';

/** A benchmark line exactly as read, every field kept: result lines repeat it unchanged. */
export type BenchmarkRecord = Record<string, unknown>;

export interface BenchmarkSample {
  /** Unique within a run: `<domain>/<id>/<turn>`; what resume matches on (see `sampleKey`). */
  key: string;
  domain: Domain;
  /** The public script's grouping: the part of `task` after the last "/". */
  subtask: string;
  task: string;
  id: string;
  turnIdx: number;
  record: BenchmarkRecord;
  line: AwbLine;
  file: string;
  lineNo: number;
}

export interface BenchmarkProblem {
  file: string;
  line: number;
  reason: string;
}

/** How the public evaluation script groups results: `task` after its last "/". */
export function subtaskOf(task: string): string {
  return task.slice(task.lastIndexOf('/') + 1);
}

/**
 * The key of one evaluated turn, made from the record alone so that result lines written
 * by any tool (the public script keeps the record's fields) find their sample again.
 */
export function sampleKey(domain: string, id: string | number, turnIdx: number): string {
  return `${domain}/${String(id)}/${turnIdx}`;
}

/** The evaluated turn, 1-based; a line without `turn_idx` asks for turn 1, as in the public script. */
export function turnOf(turnIdx: unknown): number {
  return typeof turnIdx === 'number' && Number.isInteger(turnIdx) && turnIdx >= 1 ? turnIdx : 1;
}

export function loadBenchmarkDir(dir: string): { samples: BenchmarkSample[]; problems: BenchmarkProblem[] } {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    names = readdirSync(dir).filter((n) => /_test\.jsonl$/i.test(n)).sort();
  } catch {
    throw new Error(`${dir} is not a readable directory. Point --data at a folder holding AgentWorldBench <domain>_test.jsonl files.`);
  }
  if (names.length === 0) throw new Error(`${dir} holds no <domain>_test.jsonl files (e.g. terminal_test.jsonl).`);
  const samples: BenchmarkSample[] = [];
  const problems: BenchmarkProblem[] = [];
  const keys = new Set<string>();
  for (const name of names) {
    const file = join(dir, name);
    for (const line of fileLines(file)) {
      if (line.error) {
        problems.push({ file: name, line: line.lineNo, reason: line.error });
        continue;
      }
      if (!line.text.trim()) continue;
      let record: unknown;
      try {
        record = JSON.parse(line.text);
      } catch (err) {
        problems.push({ file: name, line: line.lineNo, reason: `not valid JSON (${(err as Error).message})` });
        continue;
      }
      const parsed = AwbLine.safeParse(record);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        problems.push({ file: name, line: line.lineNo, reason: `${issue.path.join('.')}: ${issue.message}` });
        continue;
      }
      const rec = parsed.data;
      const domain = domainOf(rec.task, name);
      const turnIdx = turnOf(rec.turn_idx);
      if (!domain || turnIdx > rec.prompt.length || turnIdx > rec.response.length) {
        problems.push({ file: name, line: line.lineNo, reason: !domain ? `unknown domain "${rec.task}"` : `turn_idx ${turnIdx} is past the turn lists` });
        continue;
      }
      const key = sampleKey(domain, rec.id, turnIdx);
      if (keys.has(key)) continue;
      keys.add(key);
      samples.push({
        key,
        domain,
        subtask: subtaskOf(rec.task),
        task: rec.task,
        id: String(rec.id),
        turnIdx,
        record: record as BenchmarkRecord,
        line: rec,
        file: name,
        lineNo: line.lineNo,
      });
    }
  }
  return { samples, problems };
}

/**
 * What the world model sees, as the public script's inference step builds it: the
 * sample's own system prompt, the real turns before, then the turn's prompt (the action).
 */
export function sampleMessages(sample: BenchmarkSample): ChatMessage[] {
  const { line, turnIdx } = sample;
  const messages: ChatMessage[] = line.system_str ? [{ role: 'system', content: line.system_str }] : [];
  for (let i = 0; i < turnIdx - 1; i++) {
    messages.push({ role: 'user', content: line.prompt[i]! });
    messages.push({ role: 'assistant', content: line.response[i]! });
  }
  messages.push({ role: 'user', content: line.prompt[turnIdx - 1]! });
  return messages;
}

/** The real observation of the evaluated turn, without its heading. */
export function referenceObservation(sample: BenchmarkSample): string {
  return observationFromResponse(sample.line.response[sample.turnIdx - 1]!);
}
