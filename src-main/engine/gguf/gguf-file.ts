// What a GGUF file says about itself, read before llama.cpp is asked to load it, so a file
// that cannot work is refused with a reason a user can act on: a projector or an encoder
// instead of a language model, no chat template, a missing or cut-off part of a split model.
// Only the header is read (metadata and tensor table); the weights stay on disk.

import { createHash } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { GgufFileInfo } from 'node-llama-cpp';
import { EngineError } from '../../common/engine';
import type { SamplingDefaults } from '../onnx/generation-config';
import { scanGgufHeader } from './gguf-header-scan';
import { checkHyperparameters } from './gguf-hparams';
import { checkArchitectureKnown } from './llama-architectures';

export interface GgufModelFile {
  /** The file llama.cpp opens: the first part of a split model. */
  path: string;
  /** Every part, in order (one for a single file). */
  parts: string[];
  bytes: number;
  architecture: string;
  /** general.name, else the file name without its extension and split suffix. */
  name: string;
  chatTemplate: string;
  trainContextLength: number;
  samplingDefaults: SamplingDefaults;
  /** Layers llama.cpp can offload, the output layer counted (block_count + 1). */
  offloadableLayers: number;
  /** The files' real paths, sizes and times, hashed: tells this model apart from another of the same name (sample reuse). */
  identity: string;
}

const SPLIT_PART = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i;

/**
 * Files whose architecture llama.cpp reads but that cannot continue a chat: vision and audio
 * projectors (LM Studio keeps `mmproj-*.gguf` beside the model) and encoder-only models.
 */
const NOT_A_CHAT_MODEL: Record<string, string> = {
  clip: 'a vision/audio projector (mmproj) that goes with a language model, not one itself',
  bert: 'an encoder (embedding) model',
  'modern-bert': 'an encoder (embedding) model',
  'nomic-bert': 'an encoder (embedding) model',
  'nomic-bert-moe': 'an encoder (embedding) model',
  'neo-bert': 'an encoder (embedding) model',
  'jina-bert-v2': 'an encoder (embedding) model',
  'jina-bert-v3': 'an encoder (embedding) model',
  eurobert: 'an encoder (embedding) model',
  t5encoder: 'an encoder-only model',
  wavtokenizer: 'an audio tokenizer',
};

/** The parts of a model given by any one of its files: `name-00002-of-00003.gguf` names all three. */
export function ggufParts(path: string): string[] {
  const match = SPLIT_PART.exec(basename(path));
  if (!match) return [path];
  const [, stem, , total] = match as unknown as [string, string, string, string];
  const count = Number(total);
  return Array.from({ length: count }, (_, i) =>
    join(dirname(path), `${stem}-${String(i + 1).padStart(5, '0')}-of-${total}.gguf`));
}

/** Reads and checks a GGUF model's header. Throws EngineError with what to do. */
export async function readGgufModel(path: string): Promise<GgufModelFile> {
  if (!existsSync(path)) throw new EngineError(`Model file missing: ${path}.`, 'model-missing');
  const parts = ggufParts(path);
  const missing = parts.filter((part) => !existsSync(part));
  if (missing.length > 0) {
    throw new EngineError(
      `${basename(path)} is part of a model split into ${parts.length} files, but ${missing.map((p) => basename(p)).join(', ')} ` +
        `${missing.length === 1 ? 'is' : 'are'} missing from ${dirname(path)}; download every part into the same folder.`,
      'model-missing',
    );
  }
  // Every length, count and type id checked against the file before a parser trusts it (gguf-header-scan.ts).
  const headers = parts.map((part) => scanGgufHeader(part));
  let info: GgufFileInfo;
  try {
    // node-llama-cpp is loaded on first use (llama-backend.ts says why).
    const { readGgufFileInfo } = await import('node-llama-cpp');
    info = await readGgufFileInfo(parts[0]!, { readTensorInfo: true, spliceSplitFiles: true, logWarnings: false });
  } catch (error) {
    throw new EngineError(
      `${parts[0]} is not a readable GGUF file (${(error as Error).message}); download it again or pick another file.`,
      'model-corrupt',
    );
  }
  checkWhole(info, parts);
  const metadata = info.metadata as unknown as Record<string, Record<string, unknown> | undefined>;
  const general = metadata.general ?? {};
  const architecture = String(general.architecture ?? '');
  if (!architecture) throw new EngineError(`${parts[0]} names no architecture (general.architecture); it is not a model file.`, 'model-corrupt');
  // An adapter has the base model's architecture but no vocabulary or template of its own: say
  // what it is before the template check would call it a model without one.
  if (general.type === 'adapter') {
    const kind = String((metadata.adapter ?? {}).type ?? 'unknown');
    throw new EngineError(
      `${basename(parts[0]!)} is a ${kind === 'lora' ? 'LoRA ' : ''}adapter (general.type = adapter, adapter.type = ${kind}) for the ` +
        `'${architecture}' architecture, not a model: pass it with --adapter (or the model panel's LoRA adapter field) over the ` +
        'base model it was trained on, which goes in --model.',
      'model-corrupt',
    );
  }
  const why = NOT_A_CHAT_MODEL[architecture];
  if (why) {
    throw new EngineError(
      `${basename(parts[0]!)} is ${why} (architecture '${architecture}'); open the language model's .gguf file instead.`,
      'model-corrupt',
    );
  }
  const tokenizer = metadata.tokenizer ?? {};
  const chatTemplate = tokenizer.chat_template;
  if (typeof chatTemplate !== 'string' || chatTemplate.trim() === '') {
    throw new EngineError(
      `${basename(parts[0]!)} has no chat template (tokenizer.chat_template), so Worldloom cannot write prompts in the layout ` +
        'the model was trained on; use a GGUF converted with its chat template (llama.cpp\'s converter and `npm run model:convert -- --to gguf` keep it).',
      'model-corrupt',
    );
  }
  checkArchitectureKnown(parts[0]!, architecture);
  // What llama.cpp would abort on (the whole process, not the load) is refused here.
  checkHyperparameters(parts[0]!, headers[0]!, headers.flatMap((header) => header.tensors));
  const arch = metadata[architecture] ?? {};
  const trainContextLength = Number(arch.context_length ?? 0);
  const blockCount = Number(arch.block_count ?? 0);
  const sampling = (general.sampling ?? {}) as Record<string, unknown>;
  const number = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
  const temperature = number(sampling.temp);
  const samplingDefaults: SamplingDefaults = {
    // A file that recommends a temperature above 0 recommends sampling (GGUF has no do_sample).
    doSample: temperature !== undefined && temperature > 0,
    temperature: temperature === undefined ? undefined : round(temperature),
    topK: number(sampling.top_k),
    topP: number(sampling.top_p) === undefined ? undefined : round(number(sampling.top_p)!),
    repetitionPenalty: number(sampling.penalty_repeat) === undefined ? undefined : round(number(sampling.penalty_repeat)!),
    presencePenalty: number(sampling.penalty_present) === undefined ? undefined : round(number(sampling.penalty_present)!),
  };
  const name = typeof general.name === 'string' && general.name.trim()
    ? general.name.trim()
    : basename(parts[0]!).replace(SPLIT_PART, '$1').replace(/\.gguf$/i, '');
  return {
    path: parts[0]!,
    parts,
    bytes: parts.reduce((sum, part) => sum + statSync(part).size, 0),
    architecture,
    name,
    chatTemplate,
    trainContextLength,
    samplingDefaults,
    offloadableLayers: blockCount + 1,
    identity: identityOf(parts),
  };
}

function identityOf(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    const { size, mtimeMs } = statSync(part);
    hash.update(`\0${realpathSync(part)}\0${size}\0${mtimeMs}`);
  }
  return `gguf:${hash.digest('hex').slice(0, 32)}`;
}

/** Metadata stores float32: 0.949999988 is the 0.95 the model's authors wrote. */
function round(value: number): number {
  return Number(value.toPrecision(6));
}

/** Refuses a file cut short (an interrupted download): a tensor that starts past the end of its part. */
function checkWhole(info: GgufFileInfo, parts: readonly string[]): void {
  const lengths = parts.map((part) => statSync(part).size);
  for (const tensor of info.fullTensorInfo ?? info.tensorInfo ?? []) {
    const length = lengths[(tensor.filePart ?? 1) - 1] ?? 0;
    if (Number(tensor.fileOffset) >= length) {
      const part = parts[(tensor.filePart ?? 1) - 1]!;
      throw new EngineError(
        `${basename(part)} is truncated: it is ${length} bytes but its tensor '${tensor.name}' starts at byte ${tensor.fileOffset}. ` +
          'The download was probably interrupted; download the file again.',
        'model-corrupt',
      );
    }
  }
}
