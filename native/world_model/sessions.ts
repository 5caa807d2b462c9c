// Reading and writing recorded sessions (data/sessions.jsonl), one JSON object a line.
import { readFileSync, writeFileSync } from 'node:fs';
import type { RecordedSession } from './paths';

export function readSessions(file: string): RecordedSession[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`${file} is missing: record the sessions first (tsx native/world_model/record.ts, or npm run model:build).`);
  }
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as RecordedSession);
}

export function writeSessions(file: string, sessions: readonly RecordedSession[]): void {
  writeFileSync(file, sessions.map((s) => JSON.stringify(s)).join('\n') + '\n');
}

/** Runs `work(i)` for i in [0, count) on `workers` concurrent loops; results keep their index. */
export async function inParallel<T>(count: number, workers: number, work: (i: number, worker: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(workers, count) }, async (_, worker) => {
    while (next < count) {
      const i = next++;
      out[i] = await work(i, worker);
    }
  }));
  return out;
}
