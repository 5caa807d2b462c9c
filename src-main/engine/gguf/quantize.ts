// Quantising a GGUF file (Q4_K_M, Q5_K_M, Q6_K, Q8_0, F16, BF16, F32) with the llama.cpp library that
// node-llama-cpp already ships: its shared libllama exports llama_model_quantize, which its
// JavaScript addon does not expose, so it is called through koffi (an FFI with prebuilt
// binaries) instead of a second copy of llama.cpp or a compiler on the user's machine.
// llama.cpp reports each tensor it writes through its log callback ("[  3/ 120] name …"); those
// lines are the progress. The output is written beside the target and renamed into place when
// llama.cpp says it succeeded, so a failed or cancelled run never leaves a file that looks whole.

import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);

/** The quantisation types offered, by the name people use, with llama.cpp's llama_ftype number. */
export const QUANT_TYPES = { q4_k_m: 15, q5_k_m: 17, q6_k: 18, q8_0: 7, f16: 1, bf16: 32, f32: 0 } as const;
export type QuantType = keyof typeof QUANT_TYPES;

export function isQuantType(name: string): name is QuantType {
  return Object.prototype.hasOwnProperty.call(QUANT_TYPES, name.toLowerCase());
}

export interface QuantizeProgress {
  tensor: number;
  tensors: number;
  name: string;
}

export interface QuantizeResult {
  path: string;
  bytes: number;
  inputBytes: number;
  type: QuantType;
  seconds: number;
}

/** The prebuilt CPU package of node-llama-cpp for this platform (the one `npm install` always brings). */
function cpuPackage(): string {
  const os = process.platform === 'win32' ? 'win' : process.platform === 'darwin' ? 'mac' : process.platform;
  return `@node-llama-cpp/${os}-${process.arch}`;
}

/** Path of the shipped libllama (libllama.so / libllama.dylib / llama.dll), or an error saying what is missing. */
export function shippedLibllama(): string {
  let folder: string;
  try {
    // The package exports only its index (dist/index.js); its bins/ folder sits one level up.
    folder = dirname(dirname(require.resolve(cpuPackage())));
  } catch {
    throw new Error(`node-llama-cpp's prebuilt llama.cpp for ${process.platform}/${process.arch} (${cpuPackage()}) is not installed; run npm install.`);
  }
  const bins = join(folder, 'bins');
  for (const sub of existsSync(bins) ? readdirSync(bins) : []) {
    const lib = readdirSync(join(bins, sub)).find((name) => /^(lib)?llama(\.v[\d.]+)?\.(so|dylib|dll)$/.test(name));
    if (lib) return join(bins, sub, lib);
  }
  throw new Error(`No libllama was found in ${bins}; reinstall node-llama-cpp (npm install).`);
}

// llama_model_quantize_params as llama.h declares it in the llama.cpp node-llama-cpp ships
// (node_modules/node-llama-cpp/llama/llama.cpp.info.json names the release). Only nthread and
// ftype are set here; the rest keep llama_model_quantize_default_params()'s values.
let bound: ReturnType<typeof bind> | undefined;
const bindings = (): ReturnType<typeof bind> => (bound ??= bind());

function bind() {
  // koffi is loaded on first use: it is a native module that only this command needs.
  const koffi = require('koffi') as typeof import('koffi');
  const lib = koffi.load(shippedLibllama());
  const Params = koffi.struct('llama_model_quantize_params', {
    nthread: 'int32_t',
    ftype: 'int',
    output_tensor_type: 'int',
    token_embedding_type: 'int',
    allow_requantize: 'bool',
    quantize_output_tensor: 'bool',
    only_copy: 'bool',
    pure: 'bool',
    keep_split: 'bool',
    dry_run: 'bool',
    imatrix: 'void *',
    kv_overrides: 'void *',
    tt_overrides: 'void *',
    prune_layers: 'void *',
    max_buf_size: 'size_t',
  });
  const LogCallback = koffi.proto('void llama_quantize_log(int level, const char *text, void *user_data)');
  return {
    koffi,
    defaults: lib.func('llama_model_quantize_params llama_model_quantize_default_params()') as unknown as () => Record<string, unknown>,
    quantize: lib.func('uint32_t llama_model_quantize(const char *fname_inp, const char *fname_out, llama_model_quantize_params *params)'),
    logSet: lib.func('void llama_log_set(llama_quantize_log *cb, void *user_data)') as unknown as (cb: unknown, data: null) => void,
    LogCallback,
    Params,
  };
}

const TENSOR_LINE = /^\[\s*(\d+)\/\s*(\d+)\]\s+(\S+)/;
const GGML_LOG_LEVEL_ERROR = 4;

/**
 * Writes `input` quantised to `type` at `output`. Reports each tensor as llama.cpp writes it.
 * Runs on a koffi worker thread so the caller's event loop (progress, cancel) keeps going.
 */
export async function quantizeGguf(
  input: string,
  output: string,
  type: QuantType,
  options: { threads?: number; onProgress?: (progress: QuantizeProgress) => void; signal?: AbortSignal } = {},
): Promise<QuantizeResult> {
  const from = resolve(input);
  const to = resolve(output);
  if (!existsSync(from)) throw new Error(`No file at ${from}: give the path of a .gguf file.`);
  if (from === to) throw new Error('The output path is the input file; give another path so the original is kept.');
  const inputBytes = statSync(from).size;
  const part = `${to}.part`;
  const { koffi, defaults, quantize, logSet, LogCallback } = bindings();
  const params = { ...defaults(), ftype: QUANT_TYPES[type], nthread: options.threads ?? 0 };

  const errors: string[] = [];
  let pending = '';
  const log = koffi.register((level: number, text: string) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (level === GGML_LOG_LEVEL_ERROR || /error|failed/i.test(line)) errors.push(line.trim());
      const tensor = TENSOR_LINE.exec(line.trim());
      if (tensor) options.onProgress?.({ tensor: Number(tensor[1]), tensors: Number(tensor[2]), name: tensor[3] ?? '' });
    }
    // The "[ i/ n] name" line has no newline until the tensor is done; report it as it starts.
    const started = TENSOR_LINE.exec(pending.trim());
    if (started) options.onProgress?.({ tensor: Number(started[1]), tensors: Number(started[2]), name: started[3] ?? '' });
  }, koffi.pointer(LogCallback));
  logSet(log, null);
  const started = Date.now();
  try {
    const code = await new Promise<number>((done, fail) => {
      (quantize as unknown as { async: (...args: unknown[]) => void }).async(from, part, params, (error: Error | null, result: number) =>
        error ? fail(error) : done(result),
      );
    });
    if (options.signal?.aborted) throw new Error('Quantisation was cancelled; nothing was written.');
    if (code !== 0) {
      const why = errors.filter(Boolean).join('; ') || 'llama.cpp gave no reason';
      throw new Error(`llama.cpp could not quantise ${from} to ${type}: ${why}`);
    }
    renameSync(part, to);
  } finally {
    logSet(null, null);
    koffi.unregister(log);
    rmSync(part, { force: true });
  }
  return { path: to, bytes: statSync(to).size, inputBytes, type, seconds: (Date.now() - started) / 1000 };
}
