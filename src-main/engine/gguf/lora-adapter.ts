// A GGUF LoRA adapter opened over a base GGUF model (llama.cpp applies it while it runs the
// base weights; nothing is merged or rewritten). Its header is read first, so a file that is not
// an adapter, or one made for another architecture, is refused with what it is; a mismatch
// llama.cpp finds only when it loads the tensors (an adapter of another model of the same
// architecture) is named from llama.cpp's own message (adapterRefusal).

import { createHash } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Llama } from 'node-llama-cpp';
import { EngineError } from '../../common/engine';

export interface LoraAdapterFile {
  path: string;
  /** general.name, else the file name without .gguf. */
  name: string;
  architecture: string;
  /** adapter.lora.alpha (0 when absent: llama.cpp then scales by 1). */
  alpha: number;
  /** Adapted weights (pairs of lora_a and lora_b). */
  weights: number;
  /** The file's real path, size and time, hashed: predictions with and without it are told apart. */
  identity: string;
}

/** Reads and checks a LoRA adapter's header against the base model's architecture. Throws EngineError with what to do. */
export async function readLoraAdapter(path: string, base: { name: string; architecture: string }): Promise<LoraAdapterFile> {
  if (!existsSync(path)) throw new EngineError(`LoRA adapter file missing: ${path}.`, 'model-missing');
  let metadata: Record<string, Record<string, unknown> | undefined>;
  let tensorNames: string[];
  try {
    const { readGgufFileInfo } = await import('node-llama-cpp');
    const info = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false });
    metadata = info.metadata as unknown as Record<string, Record<string, unknown> | undefined>;
    tensorNames = (info.tensorInfo ?? []).map((tensor) => tensor.name);
  } catch (error) {
    throw new EngineError(`${path} is not a readable GGUF file (${(error as Error).message}); pick the adapter's .gguf file.`, 'model-corrupt');
  }
  const file = basename(path);
  const general = metadata.general ?? {};
  const adapter = metadata.adapter ?? {};
  if (general.type !== 'adapter' || adapter.type !== 'lora') {
    const what = general.type === 'adapter' ? `an adapter of type '${String(adapter.type)}'` : `a ${String(general.type ?? 'model')} file, not an adapter`;
    throw new EngineError(
      `${file} is ${what}; --adapter takes a GGUF LoRA adapter (general.type 'adapter', adapter.type 'lora'), such as ` +
        '`python -m qwen35.lora_convert` or llama.cpp\'s convert_lora_to_gguf.py writes from a PEFT adapter.',
      'model-corrupt',
    );
  }
  const architecture = String(general.architecture ?? '');
  if (architecture !== base.architecture) {
    throw new EngineError(
      `${file} adapts a '${architecture || 'unnamed'}' model, but ${base.name} is '${base.architecture}'; open it over the base model it was trained on.`,
      'model-corrupt',
    );
  }
  const weights = tensorNames.filter((name) => name.endsWith('.lora_a')).length;
  if (weights === 0 || tensorNames.filter((name) => name.endsWith('.lora_b')).length !== weights) {
    throw new EngineError(`${file} holds ${weights} lora_a and ${tensorNames.filter((n) => n.endsWith('.lora_b')).length} lora_b tensors; a LoRA adapter holds them in pairs. Convert the adapter again.`, 'model-corrupt');
  }
  const alpha = typeof adapter.lora === 'object' && adapter.lora !== null ? Number((adapter.lora as { alpha?: unknown }).alpha ?? 0) : 0;
  const name = typeof general.name === 'string' && general.name.trim() ? general.name.trim() : file.replace(/\.gguf$/i, '');
  const { size, mtimeMs } = statSync(path);
  const identity = `lora:${createHash('sha256').update(`${realpathSync(path)}\0${size}\0${mtimeMs}`).digest('hex').slice(0, 32)}`;
  return { path, name, architecture, alpha, weights, identity };
}

/** Runs `load` with llama.cpp's log lines kept in `lines` (its errors say what node-llama-cpp's do not). */
export async function listeningToLlama<T>(llama: Llama, lines: string[], load: () => Promise<T>): Promise<T> {
  const previous = llama.logger;
  llama.logger = (level, message) => {
    lines.push(message);
    if (lines.length > 40) lines.shift();
    previous(level, message);
  };
  try {
    return await load();
  } catch (error) {
    // llama.cpp's log reaches JavaScript a moment after the failure does.
    await new Promise((resolve) => setTimeout(resolve, 50));
    throw error;
  } finally {
    llama.logger = previous;
  }
}

/** The error a failed adapter load becomes, from what llama.cpp said. */
export function adapterRefusal(adapter: LoraAdapterFile, baseName: string, error: string, log: readonly string[] = []): EngineError {
  const message = log.map((line) => /failed to apply lora adapter: (.*)/i.exec(line)?.[1]?.trim()).filter(Boolean).at(-1) ?? error;
  if (/incorrect shape|wrong base model|not found in base model|tensor .* not found/i.test(message)) {
    return new EngineError(
      `${basename(adapter.path)} does not fit ${baseName}: llama.cpp says ${message}. The adapter was trained on another model of the ` +
        `'${adapter.architecture}' architecture (other sizes or layers); open it over the base model it was trained on.`,
      'model-corrupt',
    );
  }
  return new EngineError(`llama.cpp could not apply the LoRA adapter ${basename(adapter.path)} to ${baseName}: ${message}. Convert the adapter again.`, 'model-corrupt');
}
