// A walk over a GGUF file's header (metadata and tensor table) that checks every length, count
// and type id against the file itself before any parser trusts it. node-llama-cpp's reader and
// llama.cpp's both trust these numbers: a key said to be 2^62 bytes long surfaces as a Buffer
// RangeError, a tensor type from the future as "may be damaged". Here each one is refused with
// the field, the value it has, and the limit it breaks. The header is read in pieces as the walk
// reaches them, so a lying count never makes it allocate more than the file holds.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { EngineError } from '../../common/engine';

/** GGUF value types (gguf.h `enum gguf_type`). */
const VALUE_TYPES = ['uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32', 'float32', 'bool', 'string', 'array', 'uint64', 'int64', 'float64'] as const;
type ValueType = (typeof VALUE_TYPES)[number];
const SCALAR_BYTES: Partial<Record<ValueType, number>> = {
  uint8: 1, int8: 1, bool: 1, uint16: 2, int16: 2, uint32: 4, int32: 4, float32: 4, uint64: 8, int64: 8, float64: 8,
};

/**
 * Tensor types of the llama.cpp that node-llama-cpp ships (ggml.h `enum ggml_type`), with the
 * bytes of one block and the elements in it; ids 4, 5 and 31–33, 36–38 were removed from GGUF.
 */
export const GGML_TYPES: Record<number, { name: string; blockBytes: number; blockSize: number }> = {
  0: { name: 'F32', blockBytes: 4, blockSize: 1 }, 1: { name: 'F16', blockBytes: 2, blockSize: 1 },
  2: { name: 'Q4_0', blockBytes: 18, blockSize: 32 }, 3: { name: 'Q4_1', blockBytes: 20, blockSize: 32 },
  6: { name: 'Q5_0', blockBytes: 22, blockSize: 32 }, 7: { name: 'Q5_1', blockBytes: 24, blockSize: 32 },
  8: { name: 'Q8_0', blockBytes: 34, blockSize: 32 }, 9: { name: 'Q8_1', blockBytes: 36, blockSize: 32 },
  10: { name: 'Q2_K', blockBytes: 84, blockSize: 256 }, 11: { name: 'Q3_K', blockBytes: 110, blockSize: 256 },
  12: { name: 'Q4_K', blockBytes: 144, blockSize: 256 }, 13: { name: 'Q5_K', blockBytes: 176, blockSize: 256 },
  14: { name: 'Q6_K', blockBytes: 210, blockSize: 256 }, 15: { name: 'Q8_K', blockBytes: 292, blockSize: 256 },
  16: { name: 'IQ2_XXS', blockBytes: 66, blockSize: 256 }, 17: { name: 'IQ2_XS', blockBytes: 74, blockSize: 256 },
  18: { name: 'IQ3_XXS', blockBytes: 98, blockSize: 256 }, 19: { name: 'IQ1_S', blockBytes: 50, blockSize: 256 },
  20: { name: 'IQ4_NL', blockBytes: 18, blockSize: 32 }, 21: { name: 'IQ3_S', blockBytes: 110, blockSize: 256 },
  22: { name: 'IQ2_S', blockBytes: 82, blockSize: 256 }, 23: { name: 'IQ4_XS', blockBytes: 136, blockSize: 256 },
  24: { name: 'I8', blockBytes: 1, blockSize: 1 }, 25: { name: 'I16', blockBytes: 2, blockSize: 1 },
  26: { name: 'I32', blockBytes: 4, blockSize: 1 }, 27: { name: 'I64', blockBytes: 8, blockSize: 1 },
  28: { name: 'F64', blockBytes: 8, blockSize: 1 }, 29: { name: 'IQ1_M', blockBytes: 56, blockSize: 256 },
  30: { name: 'BF16', blockBytes: 2, blockSize: 1 }, 34: { name: 'TQ1_0', blockBytes: 54, blockSize: 256 },
  35: { name: 'TQ2_0', blockBytes: 66, blockSize: 256 }, 39: { name: 'MXFP4', blockBytes: 17, blockSize: 32 },
  40: { name: 'NVFP4', blockBytes: 36, blockSize: 64 }, 41: { name: 'Q1_0', blockBytes: 18, blockSize: 128 },
  42: { name: 'Q2_0', blockBytes: 18, blockSize: 64 },
};

/** ggml's GGML_MAX_DIMS. */
const MAX_DIMS = 4;
/** Longest array value kept in memory as values; a longer one (a tokenizer's vocabulary) is kept as its count. */
const KEPT_ARRAY_LENGTH = 4096;

export type GgufScalar = number | bigint | boolean | string;

export interface GgufHeaderEntry {
  key: string;
  type: ValueType;
  /** A scalar's value; an array's values when it has at most 4096, else undefined (its length is in `count`). */
  value: GgufScalar | GgufScalar[] | undefined;
  /** Elements of an array value. */
  count?: number;
  itemType?: ValueType;
  /** Byte offsets in the file: where the key's length starts and where the value starts (tests patch these). */
  keyAt: number;
  valueAt: number;
}

export interface GgufHeaderTensor {
  name: string;
  /** ne[0], ne[1], … as llama.cpp counts them (innermost first). */
  dims: number[];
  type: number;
  offset: bigint;
  /** Byte offsets in the file of the dimension count, of the type id and of the data offset. */
  dimsAt: number;
  typeAt: number;
  offsetAt: number;
}

export interface GgufHeader {
  version: number;
  entries: Map<string, GgufHeaderEntry>;
  tensors: GgufHeaderTensor[];
  fileBytes: number;
  /** Where the tensor data starts (the header's end, aligned): tensor offsets count from here. */
  dataAt: number;
}

class HeaderReader {
  private buffer = Buffer.alloc(0);
  private bufferAt = 0;
  at = 0;

  constructor(private readonly fd: number, readonly size: number, private readonly name: string) {}

  /** Bytes [at, at + length), read from disk as the walk reaches them; a length past the end is the file's fault. */
  take(length: number, what: () => string): Buffer {
    if (length > this.size - this.at) {
      throw new EngineError(
        `${this.name}: ${what()} needs ${length} bytes at byte ${this.at}, but the file ends at byte ${this.size}. ` +
          'The header is damaged or the file was cut short; download it again.',
        'model-corrupt',
      );
    }
    const end = this.at + length;
    if (this.at < this.bufferAt || end > this.bufferAt + this.buffer.length) {
      const chunk = Math.min(Math.max(length, 1 << 20), this.size - this.at);
      this.buffer = Buffer.alloc(chunk);
      readSync(this.fd, this.buffer, 0, chunk, this.at);
      this.bufferAt = this.at;
    }
    const slice = this.buffer.subarray(this.at - this.bufferAt, end - this.bufferAt);
    this.at = end;
    return slice;
  }

  u32(what: () => string): number {
    return this.take(4, what).readUInt32LE(0);
  }

  u64(what: () => string): bigint {
    return this.take(8, what).readBigUInt64LE(0);
  }

  /** A count or a length: refused when it cannot fit in what is left of the file at `minBytesEach` bytes each. */
  count(what: () => string, minBytesEach: number): number {
    const start = this.at;
    const value = this.u64(what);
    const left = BigInt(this.size - this.at);
    if (value * BigInt(minBytesEach) > left) {
      this.at = start;
      throw new EngineError(
        `${this.name}: ${what()} is ${value}, but the ${left} bytes left in the file can hold at most ${left / BigInt(minBytesEach)}. ` +
          'The header is damaged or the file was cut short; download it again.',
        'model-corrupt',
      );
    }
    return Number(value);
  }

  string(what: () => string): string {
    const length = this.count(() => `the length of ${what()}`, 1);
    return this.take(length, what).toString('utf8');
  }
}

function valueType(reader: HeaderReader, name: string, what: () => string): ValueType {
  const at = reader.at;
  const id = reader.u32(what);
  const type = VALUE_TYPES[id];
  if (type === undefined) {
    throw new EngineError(
      `${name}: ${what()} at byte ${at} is ${id}, which is no GGUF value type (0–${VALUE_TYPES.length - 1}). The header is damaged; download the file again.`,
      'model-corrupt',
    );
  }
  return type;
}

function scalar(reader: HeaderReader, type: ValueType, what: () => string): GgufScalar {
  if (type === 'string') return reader.string(what);
  const bytes = reader.take(SCALAR_BYTES[type]!, what);
  switch (type) {
    case 'uint8': return bytes.readUInt8(0);
    case 'int8': return bytes.readInt8(0);
    case 'bool': return bytes.readUInt8(0) !== 0;
    case 'uint16': return bytes.readUInt16LE(0);
    case 'int16': return bytes.readInt16LE(0);
    case 'uint32': return bytes.readUInt32LE(0);
    case 'int32': return bytes.readInt32LE(0);
    case 'float32': return bytes.readFloatLE(0);
    case 'float64': return bytes.readDoubleLE(0);
    case 'uint64': return bytes.readBigUInt64LE(0);
    default: return bytes.readBigInt64LE(0);
  }
}

/**
 * Walks the header of one GGUF file (one part of a split model) and refuses, with the field, its
 * value and the limit, anything a parser would have to trust blindly. Returns the metadata and
 * tensor table it read.
 */
export function scanGgufHeader(path: string): GgufHeader {
  const name = basename(path);
  const fd = openSync(path, 'r');
  try {
    const reader = new HeaderReader(fd, fstatSync(fd).size, name);
    const magic = reader.take(4, () => 'the GGUF magic').toString('latin1');
    if (magic !== 'GGUF') {
      throw new EngineError(`${name} is not a readable GGUF file: it does not start with 'GGUF' (it starts with ${JSON.stringify(magic)}); pick the .gguf file of a model, or download it again.`, 'model-corrupt');
    }
    const version = reader.u32(() => 'the GGUF version');
    if (version !== 2 && version !== 3) {
      throw new EngineError(`${name} is GGUF version ${version}; llama.cpp reads versions 2 and 3. Convert the model again with a current converter.`, 'model-corrupt');
    }
    // Smallest tensor entry: an empty name (8), one dimension count (4), its type (4) and offset (8).
    const tensorCount = reader.count(() => 'the tensor count', 24);
    // Smallest metadata entry: an empty key (8) and a value type (4) with a one-byte value.
    const entryCount = reader.count(() => 'the metadata key count', 13);
    const entries = new Map<string, GgufHeaderEntry>();
    let previous = '(the first key)';
    for (let index = 0; index < entryCount; index++) {
      const keyAt = reader.at;
      const after = previous;
      const key = reader.string(() => `metadata key #${index + 1} (after '${after}')`);
      const type = valueType(reader, name, () => `the value type of '${key}'`);
      const valueAt = reader.at;
      if (type === 'array') {
        const itemType = valueType(reader, name, () => `the item type of the array '${key}'`);
        if (itemType === 'array') {
          throw new EngineError(`${name}: '${key}' is an array of arrays, which GGUF metadata never holds. The header is damaged; download the file again.`, 'model-corrupt');
        }
        const count = reader.count(() => `the length of the array '${key}'`, itemType === 'string' ? 8 : SCALAR_BYTES[itemType]!);
        const keep = count <= KEPT_ARRAY_LENGTH;
        const values: GgufScalar[] = [];
        for (let i = 0; i < count; i++) {
          const item = scalar(reader, itemType, () => `item ${i} of '${key}'`);
          if (keep) values.push(item);
        }
        entries.set(key, { key, type, itemType, count, value: keep ? values : undefined, keyAt, valueAt });
      } else {
        entries.set(key, { key, type, value: scalar(reader, type, () => `the value of '${key}'`), keyAt, valueAt });
      }
      previous = key;
    }
    const tensors: GgufHeaderTensor[] = [];
    for (let index = 0; index < tensorCount; index++) {
      const tensorName = reader.string(() => `the name of tensor #${index + 1}`);
      const dimsAt = reader.at;
      const rank = reader.u32(() => `the dimension count of '${tensorName}'`);
      if (rank === 0 || rank > MAX_DIMS) {
        throw new EngineError(
          `${name}: tensor '${tensorName}' has ${rank} dimensions; llama.cpp takes 1 to ${MAX_DIMS}. The header is damaged; download the file again.`,
          'model-corrupt',
        );
      }
      const dims: number[] = [];
      let elements = 1n;
      for (let d = 0; d < rank; d++) {
        const size = reader.u64(() => `dimension ${d} of '${tensorName}'`);
        elements *= size;
        // ggml counts elements in int64 (INT64_MAX / 2 leaves room for the byte count).
        if (size === 0n || elements > 2n ** 62n) {
          throw new EngineError(
            `${name}: tensor '${tensorName}' has dimension ${d} of ${size}${size === 0n ? '' : `, ${elements} elements so far, more than ggml can count (2^62)`}. ` +
              'The header is damaged; download the file again.',
            'model-corrupt',
          );
        }
        dims.push(Number(size));
      }
      const typeAt = reader.at;
      const type = reader.u32(() => `the type of '${tensorName}'`);
      const known = GGML_TYPES[type];
      if (!known) {
        throw new EngineError(
          `${name}: tensor '${tensorName}' is stored as tensor type ${type}, which the llama.cpp Worldloom ships does not know ` +
            `(it knows ${Object.values(GGML_TYPES).map((t) => t.name).join(', ')}). The file was written by a newer or ` +
            'different tool: convert it again, or download a copy in one of these types (Q4_K_M, Q8_0 and F16 are common).',
          'model-corrupt',
        );
      }
      if (dims[0]! % known.blockSize !== 0) {
        throw new EngineError(
          `${name}: tensor '${tensorName}' is ${known.name}, stored in blocks of ${known.blockSize}, but its rows are ${dims[0]} wide. ` +
            'The header is damaged; download the file again.',
          'model-corrupt',
        );
      }
      const offsetAt = reader.at;
      const offset = reader.u64(() => `the data offset of '${tensorName}'`);
      tensors.push({ name: tensorName, dims, type, offset, dimsAt, typeAt, offsetAt });
    }
    const alignment = Number(entries.get('general.alignment')?.value ?? 32);
    if (!Number.isInteger(alignment) || alignment <= 0 || (alignment & (alignment - 1)) !== 0) {
      throw new EngineError(`${name}: general.alignment is ${alignment}; GGUF takes a power of two (32 by default). The header is damaged; download the file again.`, 'model-corrupt');
    }
    const dataAt = Math.ceil(reader.at / alignment) * alignment;
    for (const tensor of tensors) {
      const end = BigInt(dataAt) + tensor.offset + tensorBytes(tensor);
      if (end > BigInt(reader.size)) {
        throw new EngineError(
          `${name} is truncated: its tensor '${tensor.name}' (${GGML_TYPES[tensor.type]!.name}, ${tensor.dims.join('×')}) ends at byte ${end}, ` +
            `but the file is ${reader.size} bytes. The download was probably interrupted; download the file again.`,
          'model-corrupt',
        );
      }
    }
    return { version, entries, tensors, fileBytes: reader.size, dataAt };
  } finally {
    closeSync(fd);
  }
}

/** Bytes a tensor's data takes on disk. */
export function tensorBytes(tensor: Pick<GgufHeaderTensor, 'dims' | 'type'>): bigint {
  const { blockBytes, blockSize } = GGML_TYPES[tensor.type]!;
  const elements = tensor.dims.reduce((product, size) => product * BigInt(size), 1n);
  return (elements / BigInt(blockSize)) * BigInt(blockBytes);
}
