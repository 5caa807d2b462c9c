// `--model DIR|FILE.gguf|URL` with `--device` and `--threads`: a model folder or GGUF file on disk, or an OpenAI-compatible endpoint.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ModelSpec } from '../common/contract/simulation';
import type { DeviceChoice } from '../common/device';
import type { WorldModelEngine } from '../common/engine';
import { UserError } from '../common/user-error';
import { defaultModelPath, ModelSession } from '../simulation/model-session';
import { RESOURCES_DIR } from './paths';

/** `--device` and `--threads`: where an in-process model runs and on how many CPU threads. */
export interface ModelPlacement {
  device?: DeviceChoice;
  threads?: number;
  /** `--concurrency`: a server's requests in flight, a .gguf model's parallel sequences. */
  concurrency?: number;
  /** `--adapter`: a GGUF LoRA adapter over a .gguf model. */
  adapter?: string;
}

/** The placement fields of an in-process ModelSpec, only those given. */
export function inProcess({ device, threads }: ModelPlacement): ModelPlacement {
  return { ...(device ? { device } : {}), ...(threads ? { threads } : {}) };
}

export function modelSpecFromArgument(value: string, { device, threads, concurrency, adapter }: ModelPlacement = {}): ModelSpec {
  const limit = concurrency ? { concurrency } : {};
  const gguf = /\.gguf$/i.test(value) || (!/^https?:\/\//i.test(value) && isGgufFile(value));
  if (adapter && !gguf) {
    throw new UserError(
      `--adapter applies a GGUF LoRA adapter over a .gguf model, and ${value} is ${/^https?:\/\//i.test(value) ? 'a server (load the adapter there)' : 'not a .gguf file'}. ` +
        'Pass the base model\'s .gguf file as --model, or leave --adapter out.',
    );
  }
  if (/^https?:\/\//i.test(value)) {
    if (device && device !== 'auto') {
      throw new UserError(
        `--device ${device} chooses where a model runs in this process; ${value} is a server, which runs on its own devices. Leave --device out.`,
      );
    }
    if (threads) throw new UserError(`--threads sets the CPU threads of a model run in this process; ${value} is a server. Leave --threads out.`);
    // "http://host:8000/v1#model-name" names the served model after '#'.
    const [baseUrl, model] = value.split('#', 2) as [string, string | undefined];
    return { kind: 'openai', baseUrl, ...(model ? { model } : {}), ...limit };
  }
  // A GGUF file runs on llama.cpp: by its extension, or by its magic for Ollama's blobs
  // (~/.ollama/models/blobs/sha256-…, named by digest); a folder is an ONNX model.
  if (gguf) return { kind: 'gguf', path: resolve(value), ...inProcess({ device, threads }), ...limit, ...(adapter ? { adapter: resolve(adapter) } : {}) };
  // An ONNX folder runs one step at a time (its samples batch together): no limit to set.
  return { kind: 'onnx', path: resolve(value), ...inProcess({ device, threads }) };
}

function isGgufFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    const fd = openSync(path, 'r');
    try {
      const magic = Buffer.alloc(4);
      readSync(fd, magic, 0, 4, 0);
      return magic.toString('latin1') === 'GGUF';
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** `--model` with its placement, else the embedded model placed so; null when there is neither. */
export function modelSpecFromOptions(model: string | undefined, placement: ModelPlacement = {}): ModelSpec | null {
  if (model) return modelSpecFromArgument(model, placement);
  if (placement.adapter) throw new UserError('--adapter applies a LoRA adapter over a .gguf model: pass that model as --model.');
  const path = defaultModelPath(RESOURCES_DIR);
  return path ? { kind: 'onnx', path, ...inProcess(placement) } : null;
}

/** Loads `--model` (or, without it, the embedded default model); says what to pass when there is neither. */
export async function openModelForCli(
  modelArgument: string | undefined,
  placement: ModelPlacement = {},
): Promise<{ models: ModelSession; engine: WorldModelEngine }> {
  const models = new ModelSession(RESOURCES_DIR);
  const spec = modelSpecFromOptions(modelArgument, placement);
  if (spec) await models.load(spec);
  if (!models.current) throw new Error('No model given and this installation has no embedded model: pass --model DIR|URL.');
  return { models, engine: models.current };
}
