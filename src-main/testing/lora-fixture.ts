// A real GGUF LoRA adapter written at test time over a base GGUF (worldloom-nano by default), in
// the form llama.cpp loads and native/qwen35/lora_convert.py writes: general.type "adapter",
// adapter.type "lora", adapter.lora.alpha, and for each adapted weight W two f32 tensors,
// `W.lora_a` with GGUF dims [in, rank] and `W.lora_b` with dims [rank, out] (W's own dims are
// [in, out]; llama.cpp checks a.ne[0] == W.ne[0], b.ne[1] == W.ne[1] and a.ne[1] == b.ne[0]).
// llama.cpp adds alpha / rank · B·A·x to W·x. The values are a fixed pseudo-random pattern large
// enough to move nano's greedy tokens; the adapter trained with TRL (native/lora/test_lora.py)
// needs Python and minutes, this one a few milliseconds.

import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GGUF_STRING, readGgufLayout, writeGgufHeader, type GgufEntry } from '../engine/gguf/gguf-layout';
import { RESOURCES_DIR } from './paths';

export const NANO_GGUF = join(RESOURCES_DIR, 'models', 'worldloom-nano', 'worldloom-nano.gguf');

/** Block 0's shared-expert projections: every qwen35moe layer has them, and llama.cpp's qwen35moe graph applies LoRA to them. */
export const NANO_LORA_TARGETS = ['blk.0.ffn_up_shexp.weight', 'blk.0.ffn_down_shexp.weight'];

export interface LoraFixtureOptions {
  /** The base GGUF the adapter is shaped for. */
  base?: string;
  /** Base weights adapted (2-D tensors of the base). */
  targets?: string[];
  rank?: number;
  /** adapter.lora.alpha; llama.cpp scales B·A by alpha / rank (0: by 1). */
  alpha?: number;
  /** Largest absolute value in A and B. */
  magnitude?: number;
  /** Writes B as zeros: the adapter then changes nothing. */
  zeroB?: boolean;
  /** general.name (what the studio shows beside the model's name). */
  name?: string;
  /** general.architecture, when a test wants another than the base's. */
  architecture?: string;
}

const F32 = 0;
const FLOAT32_VALUE = 6;

function stringEntry(key: string, value: string): GgufEntry {
  const bytes = Buffer.from(value, 'utf8');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(bytes.length));
  return { key, type: GGUF_STRING, raw: Buffer.concat([length, bytes]), value };
}

function float32Entry(key: string, value: number): GgufEntry {
  const raw = Buffer.alloc(4);
  raw.writeFloatLE(value);
  return { key, type: FLOAT32_VALUE, raw, value };
}

/** A fixed pattern in [-magnitude, magnitude], different for each tensor (seed). */
function pattern(count: number, seed: number, magnitude: number, zero: boolean): Buffer {
  const out = Buffer.alloc(count * 4);
  if (zero) return out;
  let state = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    // xorshift32: the same bytes on every run and platform.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    out.writeFloatLE((state / 0xffffffff) * 2 * magnitude - magnitude, i * 4);
  }
  return out;
}

/** Writes the adapter to `out` and returns its path and the tensors it holds. */
export function writeLoraAdapter(out: string, options: LoraFixtureOptions = {}): { path: string; tensors: string[] } {
  const base = options.base ?? NANO_GGUF;
  const { targets = NANO_LORA_TARGETS, rank = 4, alpha = 4, magnitude = 0.4, zeroB = false } = options;
  const layout = readGgufLayout(base, statSync(base).size);
  const architecture = options.architecture ?? String(layout.entries.find((e) => e.key === 'general.architecture')?.value ?? '');
  const tensors: { name: string; dims: number[]; type: number; data: Buffer }[] = [];
  targets.forEach((target, i) => {
    const weight = layout.tensors.find((t) => t.name === target);
    if (!weight || weight.dims.length !== 2) throw new Error(`${base} has no 2-D tensor ${target} to adapt (a LoRA pair needs one)`);
    const [inputs, outputs] = weight.dims as [number, number];
    tensors.push({ name: `${target}.lora_a`, dims: [inputs, rank], type: F32, data: pattern(inputs * rank, 2 * i + 1, magnitude, false) });
    tensors.push({ name: `${target}.lora_b`, dims: [rank, outputs], type: F32, data: pattern(rank * outputs, 2 * i + 2, magnitude, zeroB) });
  });
  const entries = [
    stringEntry('general.architecture', architecture),
    stringEntry('general.type', 'adapter'),
    stringEntry('general.name', options.name ?? 'nano-test-lora'),
    stringEntry('adapter.type', 'lora'),
    float32Entry('adapter.lora.alpha', alpha),
  ];
  const alignment = 32;
  const { header } = writeGgufHeader(3, entries, tensors.map(({ name, dims, type, data }) => ({ name, dims, type, bytes: data.length })), alignment);
  const parts = [header];
  for (const { data } of tensors) parts.push(data, Buffer.alloc(Math.ceil(data.length / alignment) * alignment - data.length));
  writeFileSync(out, Buffer.concat(parts));
  return { path: out, tensors: tensors.map((t) => t.name) };
}
