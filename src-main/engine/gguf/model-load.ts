// llama.cpp's model load, with the reason of a refusal taken from what llama.cpp printed:
// node-llama-cpp only says "Failed to load model", and the cause (a tensor of the wrong shape,
// a missing key, a failed allocation of N bytes) is in llama.cpp's log. "Damaged or too large"
// is said only when a short read or a failed allocation was seen.

import type { Llama, LlamaModel } from 'node-llama-cpp';
import { EngineError } from '../../common/engine';

/** Lines of llama.cpp's log kept while a model loads. */
const KEPT_LINES = 40;

export interface ModelToLoad {
  path: string;
  name: string;
  architecture: string;
  bytes: number;
}

/** The error a failed load becomes: what llama.cpp found, and what to do about it. */
export function loadRefusal(model: ModelToLoad, message: string, log: readonly string[]): EngineError {
  // The most specific line: llama.cpp ends with "failed to load model from FILE" after the cause.
  const generic = /failed to load model(?! architecture)/i;
  const said = log.map((line) => /error loading model: (.*)/.exec(line)?.[1]).filter((line) => line && !generic.test(line)).at(-1)
    ?? log.filter((line) => /failed|error|unable/i.test(line) && !generic.test(line)).at(-1)?.trim()
    ?? message;
  const all = [...log, message].join('\n');
  const prefix = `llama.cpp could not load ${model.name} (${model.architecture}, ${model.bytes} bytes): ${said.replace(/\s+/g, ' ').trim()}.`;
  const advice = (text: string) => new EngineError(`${prefix} ${text}`, 'model-corrupt');
  if (/unknown.*architecture|unsupported model architecture/i.test(all)) {
    return advice(`This llama.cpp build does not run the '${model.architecture}' architecture; use a model of another architecture or update Worldloom.`);
  }
  if (/unable to allocate|failed to allocate|out of memory|cannot allocate|mmap failed/i.test(all)) {
    const size = log.map((line) => /failed to allocate buffer of size (\d+)/.exec(line)?.[1]).filter(Boolean).at(-1);
    return advice(
      `The model does not fit in this machine's memory${size ? ` (an allocation of ${size} bytes failed` : ' ('}` +
        `${size ? ', ' : ''}it is ${model.bytes} bytes on disk): use a smaller quantisation (Q4_K_M) or free memory.`,
    );
  }
  if (/failed to read|unexpected end|end of file|truncated|short read|invalid data/i.test(all)) {
    return advice('The file is damaged or cut short (an interrupted download): download it again.');
  }
  if (/wrong shape|wrong array length|key not found|expected|missing tensor|wrong number of tensors|tensor .* not found/i.test(said)) {
    return advice('Its metadata and its tensors disagree, as they do in a file written by a converter this llama.cpp does not match: convert it again with llama.cpp\'s converter or `worldloom model:convert --to gguf`, or download another copy.');
  }
  return advice('Convert it again or download another copy; if other GGUF files load, this one is the cause.');
}

/** Loads `model` on `llama`, recording llama.cpp's log so a refusal can name its cause. */
export async function loadModelNamingCause(llama: Llama, model: ModelToLoad, gpuLayers: 'auto' | number): Promise<LlamaModel> {
  const log: string[] = [];
  const previous = llama.logger;
  llama.logger = (level, message) => {
    log.push(message);
    if (log.length > KEPT_LINES) log.shift();
    previous(level, message);
  };
  try {
    return await llama.loadModel({ modelPath: model.path, gpuLayers });
  } catch (error) {
    // llama.cpp's log reaches JavaScript a moment after the failure does.
    await new Promise((resolve) => setTimeout(resolve, 50));
    throw loadRefusal(model, (error as Error).message, log);
  } finally {
    llama.logger = previous;
  }
}
