// Hostile GGUF files for tests, made at test time from a good one (the converted tiny fixture)
// by changing one field in place: a metadata value, a key's length, a tensor's type or shape.
// The header scanner (gguf-header-scan.ts) says where each field sits in the file.

import { readFileSync, writeFileSync } from 'node:fs';
import { scanGgufHeader } from '../engine/gguf/gguf-header-scan';

export type GgufEdit =
  /** A numeric metadata value, rewritten in its own width (uint32 stays uint32). */
  | { key: string; value: number }
  /** One item of a numeric array value. */
  | { key: string; item: number; value: number }
  /** The length field of a key's name: what a parser would allocate. */
  | { keyLength: string; value: bigint }
  /** A tensor's type id. */
  | { tensor: string; type: number }
  /** One of a tensor's dimensions. */
  | { tensor: string; dim: number; value: number }
  /** A tensor's number of dimensions. */
  | { tensor: string; rank: number }
  /** A key renamed (its last character made '_') so readers pass it by, when the file has it. */
  | { hideKey: string }
  /** The tensor count or the metadata key count of the file's header. */
  | { count: 'tensors' | 'keys'; value: bigint };

const WIDTH: Record<string, number> = { uint8: 1, int8: 1, uint16: 2, int16: 2, uint32: 4, int32: 4, float32: 4, uint64: 8, int64: 8, float64: 8 };

function writeNumber(bytes: Buffer, at: number, type: string, value: number): void {
  switch (type) {
    case 'uint8': bytes.writeUInt8(value, at); break;
    case 'int8': bytes.writeInt8(value, at); break;
    case 'uint16': bytes.writeUInt16LE(value, at); break;
    case 'int16': bytes.writeInt16LE(value, at); break;
    case 'uint32': bytes.writeUInt32LE(value, at); break;
    case 'int32': bytes.writeInt32LE(value, at); break;
    case 'float32': bytes.writeFloatLE(value, at); break;
    case 'float64': bytes.writeDoubleLE(value, at); break;
    case 'uint64': bytes.writeBigUInt64LE(BigInt(value), at); break;
    case 'int64': bytes.writeBigInt64LE(BigInt(value), at); break;
    default: throw new Error(`cannot write a number into a ${type} value`);
  }
}

/** Writes `source` with `edits` applied to `out`; each edit keeps every other byte where it was. */
export function ggufVariant(source: string, out: string, ...edits: GgufEdit[]): string {
  const header = scanGgufHeader(source);
  const bytes = readFileSync(source);
  for (const edit of edits) {
    if ('hideKey' in edit) {
      const entry = header.entries.get(edit.hideKey);
      // The key's bytes follow its 8-byte length.
      if (entry) bytes.write('_', entry.keyAt + 8 + Buffer.byteLength(edit.hideKey) - 1, 'latin1');
    } else if ('count' in edit) {
      // After the magic (4) and the version (4): the tensor count, then the key count.
      bytes.writeBigUInt64LE(edit.value, edit.count === 'tensors' ? 8 : 16);
    } else if ('keyLength' in edit) {
      const entry = header.entries.get(edit.keyLength);
      if (!entry) throw new Error(`no key ${edit.keyLength}`);
      bytes.writeBigUInt64LE(edit.value, entry.keyAt);
    } else if ('key' in edit) {
      const entry = header.entries.get(edit.key);
      if (!entry) throw new Error(`no key ${edit.key}`);
      if ('item' in edit) {
        // An array value: item type (4), count (8), then the items.
        writeNumber(bytes, entry.valueAt + 12 + edit.item * WIDTH[entry.itemType!]!, entry.itemType!, edit.value);
      } else writeNumber(bytes, entry.valueAt, entry.type, edit.value);
    } else {
      const tensor = header.tensors.find((t) => t.name === edit.tensor);
      if (!tensor) throw new Error(`no tensor ${edit.tensor}`);
      if ('type' in edit) bytes.writeUInt32LE(edit.type, tensor.typeAt);
      else if ('rank' in edit) bytes.writeUInt32LE(edit.rank, tensor.dimsAt);
      else bytes.writeBigUInt64LE(BigInt(edit.value), tensor.dimsAt + 4 + 8 * edit.dim);
    }
  }
  writeFileSync(out, bytes);
  return out;
}
