// GGUF files for tests: the committed tiny Qwen3.5-MoE checkpoint (src-main/engine/onnx/fixtures/
// qwen35/hf, the source of the ONNX fixtures) converted by the project's own converter at test
// time, cached in the temp folder by the checkpoint's and converter's contents; and hand-written
// headers for files llama.cpp must be refused (a projector, no chat template…).

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TINY_HF = join(ROOT, 'src-main', 'engine', 'onnx', 'fixtures', 'qwen35', 'hf');
export const TINY_ONNX = join(ROOT, 'src-main', 'engine', 'onnx', 'fixtures', 'qwen35', 'tokens-fp32');
const PYTHON = join(ROOT, 'native', '.venv', 'bin', 'python');
const CONVERTER = join(ROOT, 'native', 'qwen35', 'convert.py');
const GGUF_CONVERTER = join(ROOT, 'native', 'qwen35', 'gguf_convert.py');

/** Why the converted fixture cannot be made here, or null when it can. */
export function ggufFixtureUnavailable(): string | null {
  if (!existsSync(PYTHON)) return `the Python tooling is not set up (${PYTHON}); run npm run python:setup`;
  if (!existsSync(GGUF_CONVERTER)) return 'native/qwen35/gguf_convert.py (the GGUF converter) is not in this checkout';
  return null;
}

/** The tiny checkpoint as a GGUF of `type`, converted once per checkpoint and converter version. */
export function tinyGguf(type: 'f32' | 'f16' | 'bf16' | 'q8_0' = 'f32'): string {
  const why = ggufFixtureUnavailable();
  if (why) throw new Error(`The GGUF fixture cannot be made: ${why}.`);
  const hash = createHash('sha256');
  for (const file of ['model.safetensors', 'config.json', 'tokenizer.json', 'tokenizer_config.json', 'generation_config.json']) {
    hash.update(readFileSync(join(TINY_HF, file)));
  }
  hash.update(readFileSync(CONVERTER)).update(readFileSync(GGUF_CONVERTER)).update(type);
  const folder = join(tmpdir(), 'worldloom-gguf-fixtures');
  const path = join(folder, `tiny-${type}-${hash.digest('hex').slice(0, 16)}.gguf`);
  if (existsSync(path)) return path;
  mkdirSync(folder, { recursive: true });
  // Written beside the final name and renamed, so a test file running at the same time never reads half a file.
  const partial = `${path}.${process.pid}.partial.gguf`;
  convertToGguf(TINY_HF, partial, type);
  renameSync(partial, path);
  return path;
}

/** Runs the project's converter (--to gguf) on a Hugging Face checkpoint folder. */
export function convertToGguf(hfDir: string, out: string, type: 'f32' | 'f16' | 'bf16' | 'q8_0' = 'f32'): string {
  const result = spawnSync(PYTHON, ['-m', 'qwen35.convert', '--to', 'gguf', '--from', hfDir, '--out', out, '--type', type], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (result.status !== 0) throw new Error(`convert.py --to gguf failed (${result.status}): ${result.stderr || result.error?.message}`);
  return out;
}

/**
 * The tiny checkpoint with its final norm (model.norm.weight) set to `value` everywhere, converted
 * to an f32 GGUF: every logit llama.cpp computes from it is NaN. For the engine's NaN guard.
 */
export function poisonedTinyGguf(value: number): string {
  const why = ggufFixtureUnavailable();
  if (why) throw new Error(`The GGUF fixture cannot be made: ${why}.`);
  const scratch = mkdtempSync(join(tmpdir(), 'wl-gguf-poisoned-'));
  const folder = join(scratch, 'hf');
  cpSync(TINY_HF, folder, { recursive: true });
  const path = join(folder, 'model.safetensors');
  const bytes = readFileSync(path);
  // safetensors: an 8-byte little-endian header length, the JSON header, then the data.
  const headerLength = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8')) as Record<string, { dtype: string; data_offsets: [number, number] }>;
  const entry = header['model.norm.weight'];
  if (entry?.dtype !== 'F32') throw new Error('the tiny checkpoint has no float32 model.norm.weight');
  const [from, to] = entry.data_offsets.map((offset) => 8 + headerLength + offset);
  for (let at = from!; at < to!; at += 4) bytes.writeFloatLE(value, at);
  writeFileSync(path, bytes);
  return convertToGguf(folder, join(scratch, 'poisoned.gguf'));
}

type Value = string | number | boolean;

/**
 * A GGUF file (version 3) with these metadata keys and no tensors: enough for the header checks
 * that run before llama.cpp sees a file. Numbers are written as uint32, strings as strings.
 */
export function writeGgufHeader(path: string, metadata: Record<string, Value>): void {
  const chunks: Buffer[] = [];
  const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); chunks.push(b); };
  const u64 = (n: number) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(n)); chunks.push(b); };
  const str = (s: string) => { const bytes = Buffer.from(s, 'utf8'); u64(bytes.length); chunks.push(bytes); };
  chunks.push(Buffer.from('GGUF', 'ascii'));
  u32(3);
  u64(0);
  u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    str(key);
    if (typeof value === 'string') { u32(8); str(value); }
    else if (typeof value === 'boolean') { u32(7); chunks.push(Buffer.from([value ? 1 : 0])); }
    else { u32(4); u32(value); }
  }
  writeFileSync(path, Buffer.concat(chunks));
}
