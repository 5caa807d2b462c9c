// Ollama's own Qwen3.5 exports (what `ollama pull qwen3.5:…` stores, written by Ollama's
// converter, convert/convert_qwen35.go, not by llama.cpp's) read as llama.cpp needs them.
// What differs, by that converter's source and public reports of its files:
// - `rope.dimension_sections` has 3 entries (llama.cpp reads 4), or is missing beside Ollama's
//   own `mrope_sections`; a per-layer `attention.head_count_kv` array (0 on recurrent layers)
//   stands in for llama.cpp's one count and recurrent-layer list;
// - the dt bias is `blk.N.ssm_dt`, without `.bias`;
// - the beta and alpha projections are one tensor, `ssm_ba.weight` (beta rows, then alpha rows);
// - linear-attention value heads stay in transformers' order (grouped by key head), where
//   llama.cpp's converter tiles them (see native/qwen35/gguf_convert.py): every tensor indexed by
//   value head is permuted back (rows, or column blocks of the output projection);
// - the vision encoder (`v.*`) and multi-token prediction (`mtp.*`) sit in the same file.
// llama.cpp opens files, not remapped views, so the blob is left untouched and a copy in
// Worldloom's cache is what llama.cpp opens; its size is said before it is written, and a later
// load of the same blob reuses it.

import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, statfsSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { arrayEntry, readGgufLayout, rowBytes, writeGgufHeader, type GgufEntry, type GgufLayout, type GgufTensor } from './gguf-layout';
import { GGML_TYPES } from './gguf-header-scan';

const QWEN35 = /^qwen35(moe)?$/;

/** Where Worldloom keeps files it derives from the user's (here: llama.cpp-layout copies). */
export function worldloomCacheDir(): string {
  return process.env.WORLDLOOM_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'worldloom');
}

/** Why a Qwen3.5 file is in Ollama's layout, or null when it is not (llama.cpp reads it as it is). */
export function ollamaLayoutSigns(layout: GgufLayout): string[] | null {
  const arch = String(layout.entries.find((e) => e.key === 'general.architecture')?.value ?? '');
  if (!QWEN35.test(arch)) return null;
  const signs: string[] = [];
  const sections = layout.entries.find((e) => e.key === `${arch}.rope.dimension_sections`);
  if (!sections && layout.entries.some((e) => e.key === `${arch}.mrope_sections`)) signs.push('rope sections under mrope_sections');
  if (Array.isArray(sections?.value) && sections.value.length !== 4) signs.push(`${sections.value.length}-entry rope.dimension_sections`);
  if (layout.tensors.some((t) => /^blk\.\d+\.ssm_dt$/.test(t.name))) signs.push('ssm_dt without .bias');
  if (layout.tensors.some((t) => /\.ssm_ba\.weight$/.test(t.name))) signs.push('fused ssm_ba');
  if (layout.tensors.some((t) => t.name.startsWith('v.'))) signs.push('vision tensors (v.*)');
  return signs.length ? signs : null;
}

interface Dims {
  kHeads: number;
  vHeads: number;
  vHeadDim: number;
  keyDim: number;
}

/** For each tiled position, the grouped (transformers, Ollama) value head it holds. */
export function groupedToTiled(kHeads: number, vHeads: number): number[] {
  const perKey = vHeads / kHeads;
  const order = new Array<number>(vHeads);
  for (let k = 0; k < kHeads; k++) for (let m = 0; m < perKey; m++) order[m * kHeads + k] = k * perKey + m;
  return order;
}

/** How one output tensor is made from the source: which bytes, and how they are reordered. */
interface Planned {
  name: string;
  dims: number[];
  type: number;
  from: GgufTensor;
  /** Byte range of the source tensor (relative to its start) that this tensor is. */
  start: number;
  bytes: number;
  /** Row permutation: blocks of `blockRows` rows, block i of the output being block order[i] of the input, from row `firstRow`. */
  rows?: { firstRow: number; blockRows: number; order: number[] };
  /** Column-block permutation within each row, for the output projection. */
  columns?: { blockBytes: number; order: number[] };
}

function tensorBytes(t: GgufTensor): number {
  const block = GGML_TYPES[t.type];
  if (!block) throw new Error(`tensor ${t.name} has ggml type ${t.type}, which this reader does not size`);
  return (t.dims.reduce((a, b) => a * b, 1) / block.blockSize) * block.blockBytes;
}

function plan(layout: GgufLayout, arch: string, dims: Dims): Planned[] {
  const order = groupedToTiled(dims.kHeads, dims.vHeads);
  const out: Planned[] = [];
  const permuteRows = (t: GgufTensor, name: string, firstRow: number, blockRows: number, start = 0, rowsTaken = t.dims.slice(1).reduce((a, b) => a * b, 1)): void => {
    const row = rowBytes(t);
    if (row === null) throw new Error(`tensor ${t.name} has ggml type ${GGML_TYPES[t.type]?.name ?? t.type} rows this reader cannot size`);
    out.push({ name, dims: [t.dims[0]!, rowsTaken, ...t.dims.slice(2)], type: t.type, from: t, start: start * row, bytes: rowsTaken * row, rows: { firstRow, blockRows, order } });
  };
  for (const t of layout.tensors) {
    const name = t.name;
    if (name.startsWith('v.') || name.startsWith('mtp.')) continue;
    const base = /^blk\.\d+\./.exec(name)?.[0];
    const part = base ? name.slice(base.length) : '';
    if (part === 'attn_qkv.weight' || part === 'ssm_conv1d.weight') permuteRows(t, name, dims.keyDim * 2, dims.vHeadDim);
    else if (part === 'attn_gate.weight') permuteRows(t, name, 0, dims.vHeadDim);
    else if (part === 'ssm_dt' || part === 'ssm_dt.bias' || part === 'ssm_a' || part === 'ssm_beta.weight' || part === 'ssm_alpha.weight') {
      // One value per value head (a 1-D tensor is one "row" per element here).
      const perHead = t.dims.length === 1 ? { ...t, dims: [1, t.dims[0]!] } : t;
      permuteRows(perHead, part === 'ssm_dt' ? `${base}ssm_dt.bias` : name, 0, 1);
      out.at(-1)!.dims = t.dims;
    } else if (part === 'ssm_ba.weight') {
      const half = t.dims[1]! / 2;
      permuteRows(t, `${base}ssm_beta.weight`, 0, 1, 0, half);
      permuteRows(t, `${base}ssm_alpha.weight`, 0, 1, half, half);
    } else if (part === 'ssm_out.weight') {
      const block = GGML_TYPES[t.type];
      if (!block || dims.vHeadDim % block.blockSize) {
        throw new Error(
          `${name} is stored as ${block?.name ?? `ggml type ${t.type}`}, whose blocks of ${block?.blockSize ?? '?'} values span more than one value head ` +
            `(${dims.vHeadDim} values): its columns cannot be reordered for llama.cpp without requantising. Pull a GGUF made by llama.cpp's converter ` +
            '(hf.co/… in Ollama, or LM Studio) for this model instead.',
        );
      }
      out.push({ name, dims: t.dims, type: t.type, from: t, start: 0, bytes: tensorBytes(t), columns: { blockBytes: (dims.vHeadDim / block.blockSize) * block.blockBytes, order } });
    } else out.push({ name, dims: t.dims, type: t.type, from: t, start: 0, bytes: tensorBytes(t) });
  }
  if (!out.some((p) => p.name.startsWith('blk.') && p.name.endsWith('.attn_norm.weight'))) throw new Error(`no decoder layers (blk.N.attn_norm.weight) for ${arch}`);
  return out;
}

function entries(layout: GgufLayout, arch: string): GgufEntry[] {
  const kept = layout.entries.filter((e) => !e.key.startsWith(`${arch}.vision.`) && e.key !== `${arch}.rope.dimension_sections` && e.key !== `${arch}.mrope_sections`);
  const sections = (layout.entries.find((e) => e.key === `${arch}.rope.dimension_sections`) ?? layout.entries.find((e) => e.key === `${arch}.mrope_sections`))?.value;
  if (Array.isArray(sections)) kept.push(arrayEntry(`${arch}.rope.dimension_sections`, 5, [...sections.map(Number), 0, 0, 0, 0].slice(0, 4)));
  const kv = layout.entries.find((e) => e.key === `${arch}.attention.head_count_kv`)?.value;
  if (Array.isArray(kv)) {
    // Ollama's per-layer list (0 on a recurrent layer) becomes what llama.cpp's converter writes:
    // the attention layers' count, and the recurrent-layer list.
    const heads = Math.max(...kv.map(Number));
    const index = kept.findIndex((e) => e.key === `${arch}.attention.head_count_kv`);
    kept[index] = { key: `${arch}.attention.head_count_kv`, type: 4, raw: Buffer.from(new Uint32Array([heads]).buffer), value: heads };
    if (!layout.entries.some((e) => e.key === `${arch}.attention.recurrent_layers`)) {
      kept.push(arrayEntry(`${arch}.attention.recurrent_layers`, 7, kv.map((n) => Number(n) === 0)));
    }
  }
  return kept;
}

function copy(source: number, target: number, p: Planned, dataStart: number, at: number): void {
  const buffer = Buffer.alloc(p.bytes);
  readSync(source, buffer, 0, p.bytes, dataStart + p.from.offset + p.start);
  let out = buffer;
  if (p.rows) {
    const row = rowBytes(p.from.dims.length === 1 ? { ...p.from, dims: [1] } : p.from)!;
    const { firstRow, blockRows, order } = p.rows;
    out = Buffer.from(buffer);
    const block = blockRows * row;
    // Only as many head blocks as there are value heads are reordered (qkv's and conv's V rows follow q and k).
    for (let i = 0; i < order.length; i++) buffer.copy(out, firstRow * row + i * block, firstRow * row + order[i]! * block, firstRow * row + (order[i]! + 1) * block);
  } else if (p.columns) {
    const { blockBytes, order } = p.columns;
    const row = rowBytes(p.from)!;
    out = Buffer.alloc(p.bytes);
    for (let r = 0; r < p.bytes / row; r++) {
      for (let i = 0; i < order.length; i++) buffer.copy(out, r * row + i * blockBytes, r * row + order[i]! * blockBytes, r * row + (order[i]! + 1) * blockBytes);
    }
  }
  writeSync(target, out, 0, out.length, at);
}

export interface PreparedFile {
  /** The file llama.cpp opens: the original when it needs nothing, else the cached copy. */
  path: string;
  notes: string[];
}

/**
 * The path llama.cpp should open for `path`: the file itself, or, for an Ollama Qwen3.5 export, a
 * copy in llama.cpp's layout in Worldloom's cache (written once per blob; `onNote` hears its size
 * before it is written).
 */
export function readableByLlama(path: string, onNote: (note: string) => void = () => {}): PreparedFile {
  let layout: GgufLayout;
  try {
    layout = readGgufLayout(path, statSync(path).size);
  } catch {
    // Not there, not GGUF, or cut short: the GGUF reader names that when it opens the file.
    return { path, notes: [] };
  }
  const signs = ollamaLayoutSigns(layout);
  if (!signs) return { path, notes: [] };
  const arch = String(layout.entries.find((e) => e.key === 'general.architecture')!.value);
  const number = (key: string): number => {
    const value = layout.entries.find((e) => e.key === `${arch}.${key}`)?.value;
    if (typeof value !== 'number') throw new Error(`${path} is an Ollama ${arch} export without ${arch}.${key}; it cannot be laid out for llama.cpp`);
    return value;
  };
  const vHeads = number('ssm.time_step_rank');
  const kHeads = number('ssm.group_count');
  const dims: Dims = { kHeads, vHeads, vHeadDim: number('ssm.inner_size') / vHeads, keyDim: kHeads * number('ssm.state_size') };
  const planned = plan(layout, arch, dims);
  const kept = entries(layout, arch);
  const { header, offsets } = writeGgufHeader(layout.version, kept, planned, layout.alignment);
  const total = header.length + offsets.at(-1)! + planned.at(-1)!.bytes;
  const folder = join(worldloomCacheDir(), 'llama-layout');
  const stat = statSync(path);
  const target = join(folder, `${basename(path).replace(/[^\w.-]/g, '_')}-${stat.size}-${Math.round(stat.mtimeMs)}.gguf`);
  const notes = [`Ollama's ${arch} layout (${signs.join(', ')}): llama.cpp opens a copy in its own layout, ${target} (${(total / 1e9).toFixed(2)} GB); the Ollama file is left as it is`];
  if (existsSync(target) && statSync(target).size === total) return { path: target, notes };
  mkdirSync(folder, { recursive: true });
  const free = statfsSync(folder);
  if (free.bavail * free.bsize < total) throw new Error(`${path} is in Ollama's layout; llama.cpp needs a ${(total / 1e9).toFixed(2)} GB copy in ${folder}, which has ${((free.bavail * free.bsize) / 1e9).toFixed(2)} GB free. Free space there, or set WORLDLOOM_CACHE_DIR to a folder with room.`);
  onNote(`${notes[0]}: writing it now`);
  const partial = `${target}.partial`;
  const source = openSync(path, 'r');
  const out = openSync(partial, 'w');
  try {
    writeSync(out, header, 0, header.length, 0);
    planned.forEach((p, i) => copy(source, out, p, layout.dataStart, header.length + offsets[i]!));
    closeSync(out);
    renameSync(partial, target);
  } finally {
    closeSync(source);
    try {
      closeSync(out);
    } catch {
      // closed above
    }
    rmSync(partial, { force: true });
  }
  return { path: target, notes };
}
