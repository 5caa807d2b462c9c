// Copying operations on cache tensors (host memory): start empty, cut a sequence cache to
// a prefix, assemble one-sequence caches into a left-padded batch, keep some batch rows.
// Element-type agnostic: they move typed-array elements and never read their values.

import ort from 'onnxruntime-node';
import type { Tensor } from 'onnxruntime-node';
import type { CacheLayout, CacheSlot } from './cache-layout';

type NumericArray = Float32Array | Uint16Array | Float64Array | Int8Array | Uint8Array;
type NumericArrayConstructor = new (length: number) => NumericArray;

/** Cache tensors in layout slot order. */
export type CacheTensors = Tensor[];

function product(dims: readonly number[], from = 0, to = dims.length): number {
  let n = 1;
  for (let i = from; i < to; i++) n *= dims[i]!;
  return n;
}

function allocateLike(tensor: Tensor, dims: readonly number[]): Tensor {
  const Constructor = (tensor.data as NumericArray).constructor as NumericArrayConstructor;
  return new ort.Tensor(tensor.type, new Constructor(product(dims)) as never, dims);
}

function arrayFor(slot: CacheSlot, length: number): NumericArray {
  switch (slot.type) {
    case 'float32':
      return new Float32Array(length);
    case 'float64':
      return new Float64Array(length);
    case 'int8':
      return new Int8Array(length);
    case 'uint8':
      return new Uint8Array(length);
    default:
      // float16 travels as raw 16-bit words; all-zero bits are 0.0.
      return new Uint16Array(length);
  }
}

/** A cache for `batch` sequences that have seen nothing: sequence slots of length 0, zero state. */
export function emptyCache(layout: CacheLayout, batch: number): CacheTensors {
  return layout.slots.map((slot) => {
    const dims = slot.shape.map((d, axis) => (axis === 0 ? batch : d));
    return new ort.Tensor(slot.type, arrayFor(slot, product(dims)) as never, dims);
  });
}

export function tensorBytes(tensor: Tensor): number {
  return (tensor.data as NumericArray).byteLength;
}

/** Keeps the first `length` positions of a sequence slot (a copy); state slots are returned as is. */
export function cutToLength(tensors: CacheTensors, layout: CacheLayout, length: number): CacheTensors {
  return tensors.map((tensor, i) => {
    const axis = layout.slots[i]!.sequenceAxis;
    if (axis < 0 || tensor.dims[axis] === length) return tensor;
    return copyAlongAxis(tensor, axis, length, 0, length);
  });
}

/** Copies positions [start, end) of `axis` into a new tensor of `newLength` positions. */
function copyAlongAxis(tensor: Tensor, axis: number, newLength: number, start: number, end: number): Tensor {
  const dims = [...tensor.dims];
  const oldLength = dims[axis]!;
  dims[axis] = newLength;
  const out = allocateLike(tensor, dims);
  const source = tensor.data as NumericArray;
  const target = out.data as NumericArray;
  const outer = product(dims, 0, axis);
  const inner = product(dims, axis + 1);
  const span = (end - start) * inner;
  for (let o = 0; o < outer; o++) {
    const from = (o * oldLength + start) * inner;
    target.set(source.subarray(from, from + span), o * newLength * inner);
  }
  return out;
}

/**
 * Stacks per-row caches (each batch 1) into one batch. Sequence slots are left-padded to
 * `paddedLength` so every row's newest position lines up at the end; the attention mask
 * marks the padding. Rows may be the same cache several times (K samples of one prompt).
 */
export function stackRows(rows: readonly CacheTensors[], layout: CacheLayout, paddedLength: number): CacheTensors {
  return layout.slots.map((slot, i) => {
    const first = rows[0]![i]!;
    const dims = [...first.dims];
    dims[0] = rows.length;
    if (slot.sequenceAxis > 0) dims[slot.sequenceAxis] = paddedLength;
    const out = allocateLike(first, dims);
    const target = out.data as NumericArray;
    const rowElements = product(dims, 1);
    rows.forEach((row, r) => {
      const tensor = row[i]!;
      const source = tensor.data as NumericArray;
      if (slot.sequenceAxis < 0) {
        target.set(source, r * rowElements);
        return;
      }
      const axis = slot.sequenceAxis;
      const length = tensor.dims[axis]!;
      const outer = product(dims, 1, axis);
      const inner = product(dims, axis + 1);
      for (let o = 0; o < outer; o++) {
        target.set(
          source.subarray(o * length * inner, (o + 1) * length * inner),
          r * rowElements + (o * paddedLength + (paddedLength - length)) * inner,
        );
      }
    });
    return out;
  });
}

/**
 * Stacks per-row caches of one length into one batch whose sequence slots hold `capacity`
 * positions, each row's tokens at the start: the layout of a key/value buffer that
 * GroupQueryAttention fills in place (past and present share it).
 */
export function stackIntoCapacity(rows: readonly CacheTensors[], layout: CacheLayout, capacity: number): CacheTensors {
  return layout.slots.map((slot, i) => {
    const first = rows[0]![i]!;
    const dims = [...first.dims];
    dims[0] = rows.length;
    if (slot.sequenceAxis > 0) dims[slot.sequenceAxis] = capacity;
    const out = allocateLike(first, dims);
    const target = out.data as NumericArray;
    const rowElements = product(dims, 1);
    rows.forEach((row, r) => {
      const source = row[i]!.data as NumericArray;
      if (slot.sequenceAxis < 0) return target.set(source, r * rowElements);
      copyRowAlongAxis(source, row[i]!.dims[slot.sequenceAxis]!, target, r * rowElements, dims, slot.sequenceAxis);
    });
    return out;
  });
}

/** The same batch with room for `capacity` positions in every sequence slot (tokens kept at the start). */
export function growCapacity(tensors: CacheTensors, layout: CacheLayout, length: number, capacity: number): CacheTensors {
  return tensors.map((tensor, i) => {
    const axis = layout.slots[i]!.sequenceAxis;
    if (axis < 0) return tensor;
    const dims = [...tensor.dims];
    const old = dims[axis]!;
    dims[axis] = capacity;
    const out = allocateLike(tensor, dims);
    const rowElements = product(dims, 1);
    const oldRow = product(tensor.dims, 1);
    const source = tensor.data as NumericArray;
    for (let r = 0; r < dims[0]!; r++) {
      const view = source.subarray(r * oldRow, (r + 1) * oldRow);
      copyRowAlongAxis(view, old, out.data as NumericArray, r * rowElements, dims, axis, length);
    }
    return out;
  });
}

/** Copies one row's first `length` positions (of `sourceLength`) into a row of `dims` at `offset`. */
function copyRowAlongAxis(
  source: NumericArray,
  sourceLength: number,
  target: NumericArray,
  offset: number,
  dims: readonly number[],
  axis: number,
  length = sourceLength,
): void {
  const outer = product(dims, 1, axis);
  const inner = product(dims, axis + 1);
  const capacity = dims[axis]!;
  for (let o = 0; o < outer; o++) {
    target.set(source.subarray(o * sourceLength * inner, (o * sourceLength + length) * inner), offset + o * capacity * inner);
  }
}

/** Keeps the listed batch rows, in that order. */
export function selectRows(tensors: CacheTensors, rows: readonly number[]): CacheTensors {
  return tensors.map((tensor) => {
    const dims = [...tensor.dims];
    dims[0] = rows.length;
    const out = allocateLike(tensor, dims);
    const rowElements = product(dims, 1);
    const source = tensor.data as NumericArray;
    rows.forEach((row, r) =>
      (out.data as NumericArray).set(source.subarray(row * rowElements, (row + 1) * rowElements), r * rowElements),
    );
    return out;
  });
}

/** The last position's logits of one batch row, as float32 (float16 graphs are widened). */
export function lastLogits(logits: Tensor, row: number): Float32Array {
  const [, sequence, vocab] = logits.dims as [number, number, number];
  const offset = (row * sequence + sequence - 1) * vocab;
  if (logits.type === 'float32') return (logits.data as Float32Array).slice(offset, offset + vocab);
  const words = logits.data as Uint16Array;
  const out = new Float32Array(vocab);
  for (let i = 0; i < vocab; i++) out[i] = float16ToFloat(words[offset + i]!);
  return out;
}

function float16ToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
