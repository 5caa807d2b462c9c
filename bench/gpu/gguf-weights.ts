// What a decode step of a GGUF model reads, from the file's own tensor table (bench/gpu/figures.ts
// turns it into bandwidth limits).

import { readGgufFileInfo } from 'node-llama-cpp';
import type { WeightBytes } from './figures';

/** ggml type id → [elements per block, bytes per block], for the types the converter and llama.cpp's quantiser write. */
const BLOCKS: Record<number, [number, number]> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  30: [1, 2], // BF16
};

export function tensorBytes(name: string, ggmlType: number, dimensions: readonly (number | bigint)[]): number {
  const block = BLOCKS[ggmlType];
  if (!block) throw new Error(`${name} is stored as ggml type ${ggmlType}, which the GPU bench cannot size; add it to BLOCKS in bench/gpu/gguf-weights.ts`);
  const elements = dimensions.reduce<number>((product, d) => product * Number(d), 1);
  return (elements / block[0]) * block[1];
}

/** The weights a decode step reads, the file's quantisation as llama.cpp names it, and its vocabulary. */
export async function readGgufSummary(file: string): Promise<{ weights: WeightBytes; fileType: string; vocabulary: number }> {
  const info = await readGgufFileInfo(file, { readTensorInfo: true });
  const fileType = info.metadata.general.file_type;
  return {
    weights: weightBytes(info),
    fileType: fileType === undefined ? 'unknown' : (FILE_TYPES[Number(fileType)] ?? `file type ${fileType}`),
    vocabulary: Number(info.metadata.tokenizer?.ggml?.tokens?.length ?? 0),
  };
}

/** llama.cpp's general.file_type ids for what the bench writes (llama_ftype). */
const FILE_TYPES: Record<number, string> = { 0: 'f32', 1: 'f16', 7: 'q8_0', 15: 'q4_k_m', 17: 'q5_k_m', 18: 'q6_k', 32: 'bf16' };

function weightBytes(info: Awaited<ReturnType<typeof readGgufFileInfo>>): WeightBytes {
  const architecture = String(info.metadata.general.architecture);
  const fields = (info.metadata as unknown as Record<string, Record<string, unknown>>)[architecture] ?? {};
  const weights: WeightBytes = {
    dense: 0,
    experts: 0,
    head: 0,
    headRows: 0,
    expertCount: Number(fields.expert_count ?? 0),
    expertsUsed: Number(fields.expert_used_count ?? 0),
    layers: Number(fields.block_count ?? 0),
  };
  for (const tensor of info.tensorInfo ?? []) {
    if (tensor.name === 'token_embd.weight') continue;
    const bytes = tensorBytes(tensor.name, tensor.ggmlType, tensor.dimensions);
    if (tensor.name === 'output.weight') {
      weights.head += bytes;
      weights.headRows = Number(tensor.dimensions.at(-1));
    }
    else if (/_exps\.weight$/.test(tensor.name)) weights.experts += bytes;
    else weights.dense += bytes;
  }
  return weights;
}
