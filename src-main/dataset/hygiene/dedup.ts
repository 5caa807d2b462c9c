// Duplicate removal: exact (the same messages) and near (MinHash over the part of the
// example it teaches). The first example seen is kept; later copies are counted and dropped.
import { createHash } from 'node:crypto';
import type { DatasetExample } from '../example';
import { NearDuplicateIndex } from './minhash';

export type DuplicateVerdict = 'unique' | 'duplicate' | 'near-duplicate';

/**
 * The text near-duplicates are judged on. For a step example that is the last action and
 * observation: consecutive steps of one path share their whole history, and comparing
 * that would call every step a copy of the one before it.
 */
export function teachingText(example: DatasetExample): string {
  const from = example.kind === 'step' ? Math.max(1, example.messages.length - 2) : 1;
  let text = '';
  for (let i = from; i < example.messages.length; i++) text += example.messages[i]!.content + '\n';
  // A preference pair teaches the difference: the same chosen answer against another rejected one is another pair.
  for (const m of example.rejected?.messages ?? []) text += m.content + '\n';
  return text;
}

export class Deduplicator {
  private readonly exact = new Set<string>();
  private readonly near: NearDuplicateIndex | null;

  constructor(options: { nearDuplicateThreshold: number | null }) {
    this.near = options.nearDuplicateThreshold === null ? null : new NearDuplicateIndex(options.nearDuplicateThreshold);
  }

  judge(example: DatasetExample): DuplicateVerdict {
    const hash = createHash('sha1');
    for (const m of example.messages) hash.update(`${m.role}\u0000${m.content}\u0000${m.reasoning ?? ''}\u0001`);
    for (const m of example.rejected?.messages ?? []) hash.update(`rejected\u0000${m.content}\u0000${m.reasoning ?? ''}\u0001`);
    const key = hash.digest('base64');
    if (this.exact.has(key)) return 'duplicate';
    this.exact.add(key);
    return this.near?.checkAndAdd(teachingText(example)) ? 'near-duplicate' : 'unique';
  }
}
