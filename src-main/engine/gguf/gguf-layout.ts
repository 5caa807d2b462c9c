// A GGUF file's header as written (key/value pairs kept as their raw bytes, tensor infos with
// their offsets), and a writer that puts a new header in front of tensor data taken from
// another file. Used to read a file whose layout llama.cpp does not accept (ollama-layout.ts)
// as a copy llama.cpp does: the values a copy does not change are carried over byte for byte.
// node-llama-cpp's own reader turns values into JavaScript numbers and loses their GGUF types,
// which a writer needs.

import { closeSync, openSync, readSync } from 'node:fs';
import { GGML_TYPES } from './gguf-header-scan';

export const GGUF_ARRAY = 9;
export const GGUF_STRING = 8;
const SCALAR_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

export interface GgufEntry {
  key: string;
  type: number;
  /** For arrays, the item type. */
  itemType?: number;
  /** The value's bytes as stored after the type (for arrays: item type, count, items). */
  raw: Buffer;
  /** Decoded value for numbers, strings and arrays of numbers (strings in arrays are left out). */
  value: number | bigint | boolean | string | (number | bigint | boolean)[] | null;
}

export interface GgufTensor {
  name: string;
  dims: number[];
  type: number;
  /** Offset from the start of the data section. */
  offset: number;
}

export interface GgufLayout {
  path: string;
  version: number;
  entries: GgufEntry[];
  tensors: GgufTensor[];
  alignment: number;
  dataStart: number;
  fileBytes: number;
}

class HeaderReader {
  private buffer = Buffer.alloc(0);
  private start = 0;
  pos = 0;
  constructor(
    private readonly fd: number,
    readonly fileBytes: number,
  ) {}

  private need(n: number): void {
    if (this.pos + n <= this.start + this.buffer.length) return;
    if (this.pos + n > this.fileBytes) throw new Error(`the header runs past the end of the file (at byte ${this.pos}): the file is cut short`);
    const size = Math.max(n, 1 << 20);
    this.buffer = Buffer.alloc(Math.min(size, this.fileBytes - this.pos));
    readSync(this.fd, this.buffer, 0, this.buffer.length, this.pos);
    this.start = this.pos;
  }
  bytes(n: number): Buffer {
    this.need(n);
    const out = Buffer.from(this.buffer.subarray(this.pos - this.start, this.pos - this.start + n));
    this.pos += n;
    return out;
  }
  u32(): number {
    return this.bytes(4).readUInt32LE();
  }
  u64(): number {
    return Number(this.bytes(8).readBigUInt64LE());
  }
  string(): string {
    return this.bytes(this.u64()).toString('utf8');
  }
  scalar(type: number): number | bigint | boolean | string {
    if (type === GGUF_STRING) return this.string();
    const size = SCALAR_BYTES[type];
    if (size === undefined) throw new Error(`unknown GGUF value type ${type} at byte ${this.pos}`);
    const b = this.bytes(size);
    switch (type) {
      case 0: return b.readUInt8();
      case 1: return b.readInt8();
      case 2: return b.readUInt16LE();
      case 3: return b.readInt16LE();
      case 4: return b.readUInt32LE();
      case 5: return b.readInt32LE();
      case 6: return b.readFloatLE();
      case 7: return b.readUInt8() !== 0;
      case 10: return b.readBigUInt64LE();
      case 11: return b.readBigInt64LE();
      default: return b.readDoubleLE();
    }
  }
}

/** Reads a GGUF file's header (not its tensor data). */
export function readGgufLayout(path: string, fileBytes: number): GgufLayout {
  const fd = openSync(path, 'r');
  try {
    const r = new HeaderReader(fd, fileBytes);
    if (r.bytes(4).toString('latin1') !== 'GGUF') throw new Error(`${path} does not start with GGUF`);
    const version = r.u32();
    const tensorCount = r.u64();
    const entryCount = r.u64();
    const entries: GgufEntry[] = [];
    for (let i = 0; i < entryCount; i++) {
      const key = r.string();
      const type = r.u32();
      const from = r.pos;
      let value: GgufEntry['value'] = null;
      let itemType: number | undefined;
      if (type === GGUF_ARRAY) {
        itemType = r.u32();
        const count = r.u64();
        const items: (number | bigint | boolean)[] = [];
        for (let j = 0; j < count; j++) {
          const item = r.scalar(itemType);
          if (typeof item !== 'string') items.push(item);
        }
        value = itemType === GGUF_STRING ? null : items;
      } else {
        value = r.scalar(type);
      }
      const to = r.pos;
      r.pos = from;
      entries.push({ key, type, itemType, raw: r.bytes(to - from), value });
    }
    const tensors: GgufTensor[] = [];
    for (let i = 0; i < tensorCount; i++) {
      const name = r.string();
      const dims = Array.from({ length: r.u32() }, () => r.u64());
      tensors.push({ name, dims, type: r.u32(), offset: r.u64() });
    }
    const alignment = Number(entries.find((e) => e.key === 'general.alignment')?.value ?? 32);
    return { path, version, entries, tensors, alignment, dataStart: Math.ceil(r.pos / alignment) * alignment, fileBytes };
  } finally {
    closeSync(fd);
  }
}

/** Bytes of one row (dims[0] elements) of a tensor of this ggml type, or null for a type not listed. */
export function rowBytes(tensor: Pick<GgufTensor, 'dims' | 'type'>): number | null {
  const block = GGML_TYPES[tensor.type];
  if (!block || tensor.dims[0]! % block.blockSize) return null;
  return (tensor.dims[0]! / block.blockSize) * block.blockBytes;
}

const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const u64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const ggufString = (s: string): Buffer => Buffer.concat([u64(Buffer.byteLength(s)), Buffer.from(s, 'utf8')]);

/** An array entry of int32 or bool items, as a writer would store it. */
export function arrayEntry(key: string, itemType: 5 | 7, items: (number | boolean)[]): GgufEntry {
  const body = Buffer.alloc(items.length * (itemType === 5 ? 4 : 1));
  items.forEach((item, i) => (itemType === 5 ? body.writeInt32LE(Number(item), i * 4) : body.writeUInt8(item ? 1 : 0, i)));
  return { key, type: GGUF_ARRAY, itemType, raw: Buffer.concat([u32(itemType), u64(items.length), body]), value: items };
}

/** The header bytes (padded to the alignment) for these entries and tensors, whose offsets it sets. */
export function writeGgufHeader(version: number, entries: GgufEntry[], tensors: { name: string; dims: number[]; type: number; bytes: number }[], alignment: number): { header: Buffer; offsets: number[] } {
  const parts: Buffer[] = [Buffer.from('GGUF', 'latin1'), u32(version), u64(tensors.length), u64(entries.length)];
  for (const e of entries) parts.push(ggufString(e.key), u32(e.type), e.raw);
  const offsets: number[] = [];
  let offset = 0;
  for (const t of tensors) {
    offsets.push(offset);
    parts.push(ggufString(t.name), u32(t.dims.length), ...t.dims.map(u64), u32(t.type), u64(offset));
    offset += Math.ceil(t.bytes / alignment) * alignment;
  }
  const header = Buffer.concat(parts);
  const padded = Buffer.alloc(Math.ceil(header.length / alignment) * alignment);
  header.copy(padded);
  return { header: padded, offsets };
}
