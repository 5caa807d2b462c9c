// What a GGUF file is, read from the first keys of its header only: general.type ("model",
// "adapter", …) and general.architecture. Writers put the general.* keys first (gguf-py's
// GGUFWriter, llama.cpp's converters), so a bounded read of the file's start finds them without
// walking a vocabulary of megabytes. Used where many files are listed at once (local-models.ts);
// a file is opened with the full checks (gguf-header-scan.ts, lora-adapter.ts).

import { closeSync, openSync, readSync } from 'node:fs';

export interface GgufGeneralType {
  /** general.type as written; 'model' when the file does not say (older converters write none). */
  type: string;
  architecture?: string;
  /** adapter.type, for an adapter ("lora"). */
  adapterType?: string;
}

const HEAD_BYTES = 64 * 1024;
const SCALAR_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;

/** general.type and architecture of a GGUF file, or null when it does not start like one. */
export function readGgufGeneralType(path: string): GgufGeneralType | null {
  const head = Buffer.alloc(HEAD_BYTES);
  let length: number;
  try {
    const fd = openSync(path, 'r');
    try {
      length = readSync(fd, head, 0, HEAD_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  if (length < 24 || head.toString('latin1', 0, 4) !== 'GGUF') return null;
  const found: Record<string, string> = {};
  let pos = 24;
  const entries = head.readBigUInt64LE(16);
  const fits = (n: number) => pos + n <= length;
  const string = (): string | null => {
    if (!fits(8)) return null;
    const size = Number(head.readBigUInt64LE(pos));
    if (!fits(8 + size)) return null;
    const text = head.toString('utf8', pos + 8, pos + 8 + size);
    pos += 8 + size;
    return text;
  };
  // Keys are read until the three wanted are found or the bounded head ends: a key past it is left unread.
  for (let i = 0n; i < entries && Object.keys(found).length < 3; i++) {
    // A model says so in its general.* keys; only an adapter has adapter.* keys to look on for.
    if (found['general.architecture'] && found['general.type'] && found['general.type'] !== 'adapter') break;
    const key = string();
    if (key === null || !fits(4)) break;
    const type = head.readUInt32LE(pos);
    pos += 4;
    if (type === STRING) {
      const value = string();
      if (value === null) break;
      if (key === 'general.type' || key === 'general.architecture' || key === 'adapter.type') found[key] = value;
    } else if (type === ARRAY) {
      if (!fits(12)) break;
      const itemType = head.readUInt32LE(pos);
      const count = Number(head.readBigUInt64LE(pos + 4));
      pos += 12;
      if (itemType === STRING) {
        let ok = true;
        for (let j = 0; j < count && ok; j++) ok = string() !== null;
        if (!ok) break;
      } else {
        const size = SCALAR_BYTES[itemType];
        if (size === undefined || !fits(size * count)) break;
        pos += size * count;
      }
    } else {
      const size = SCALAR_BYTES[type];
      if (size === undefined || !fits(size)) break;
      pos += size;
    }
  }
  return {
    type: found['general.type'] ?? 'model',
    ...(found['general.architecture'] ? { architecture: found['general.architecture'] } : {}),
    ...(found['adapter.type'] ? { adapterType: found['adapter.type'] } : {}),
  };
}
