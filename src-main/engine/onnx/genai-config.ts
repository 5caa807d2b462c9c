// Reads a model folder in the layout the onnxruntime-genai model builder writes, and turns
// `genai_config.json` (plus `generation_config.json` when present) into the few facts the
// engine needs. Everything model-specific (names, ids, context length, sampling defaults)
// comes from here or from the graph, never from code.

import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { EngineError } from '../../common/engine';
import { readGenerationConfig, type SamplingDefaults } from './generation-config';

const tokenIds = z.union([z.number().int(), z.array(z.number().int())]);
const names = z.record(z.string(), z.string()).default({});

const GenaiConfigSchema = z.object({
  model: z.object({
    type: z.string().optional(),
    bos_token_id: tokenIds.nullable().optional(),
    eos_token_id: tokenIds,
    pad_token_id: tokenIds.nullable().optional(),
    vocab_size: z.number().int().positive().optional(),
    context_length: z.number().int().positive(),
    decoder: z.object({
      filename: z.string().min(1),
      head_size: z.number().int().positive().optional(),
      hidden_size: z.number().int().positive().optional(),
      num_key_value_heads: z.number().int().positive().optional(),
      num_hidden_layers: z.number().int().positive().optional(),
      // Name templates such as "past_key_values.%d.key"; kept loose because builders add keys over time.
      inputs: names,
      outputs: names,
    }),
    // The builder's multimodal layout: token ids go through this model to become `inputs_embeds`.
    embedding: z.object({ filename: z.string().min(1), inputs: names, outputs: names }).optional(),
  }),
  search: z
    .object({
      do_sample: z.boolean().optional(),
      temperature: z.number().optional(),
      top_k: z.number().optional(),
      top_p: z.number().optional(),
      repetition_penalty: z.number().optional(),
      max_length: z.number().int().optional(),
      past_present_share_buffer: z.boolean().optional(),
    })
    .partial()
    .optional(),
});

export interface ModelFolder {
  folder: string;
  modelId: string;
  modelPath: string;
  /** The embedding model that turns token ids into the decoder's `inputs_embeds`, when the layout has one. */
  embedding: { modelPath: string; inputIds: string; output: string } | null;
  tokenizerPath: string;
  tokenizerConfigPath: string;
  /** Bytes of the graphs and their external data on disk: the weights' footprint. */
  weightsBytes: number;
  config: ModelConfig;
}

export interface ModelConfig {
  contextLength: number;
  eosTokenIds: number[];
  bosTokenId: number | null;
  padTokenId: number;
  inputNames: { inputIds: string; inputsEmbeds: string; attentionMask: string; positionIds: string };
  logitsName: string;
  /** Pairs of (input template, output template) for cache tensors named in the config. */
  cacheNameTemplates: { past: string; present: string }[];
  /** What the config says about the graph, checked against it when the model loads. */
  declared: { headSize?: number; hiddenSize?: number; kvHeads?: number; layers?: number; vocabSize?: number };
  /** The builder says its attention can update the key/value buffer in place (verified before use). */
  sharesKvBuffer: boolean;
  /** The model's own sampling: generation_config.json when present, else genai_config.json search. */
  samplingDefaults: SamplingDefaults;
}

const REQUIRED_FILES = ['genai_config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;

/** Checks the folder, reads and validates its configuration. Throws EngineError('model-missing' | 'model-corrupt'). */
export function readModelFolder(folder: string): ModelFolder {
  const absolute = resolve(folder);
  if (!existsSync(absolute) || !statSync(absolute).isDirectory()) {
    throw new EngineError(
      `Model folder not found: ${absolute}. Pick a folder that holds genai_config.json, tokenizer.json and model.onnx.`,
      'model-missing',
    );
  }
  const missing = REQUIRED_FILES.filter((name) => !existsSync(join(absolute, name)));
  if (missing.length > 0) {
    throw new EngineError(
      `Model folder ${absolute} is missing ${missing.join(', ')}. ` +
        'It should be the output folder of the onnxruntime-genai model builder.',
      'model-missing',
    );
  }
  const parsed = parseGenaiConfig(readFileSync(join(absolute, 'genai_config.json'), 'utf8'), absolute);
  const modelPath = fileInFolder(absolute, parsed.filename, 'model.decoder.filename');
  const embedding = parsed.embedding
    ? {
        modelPath: fileInFolder(absolute, parsed.embedding.filename, 'model.embedding.filename'),
        inputIds: parsed.embedding.inputs.input_ids ?? 'input_ids',
        // onnxruntime-genai's key for the embedding model's output is "inputs_embeds".
        output: parsed.embedding.outputs.inputs_embeds ?? 'inputs_embeds',
      }
    : null;
  const generation = readGenerationConfig(absolute);
  return {
    folder: absolute,
    modelId: parsed.modelType ?? absolute.split(/[\\/]/).pop() ?? absolute,
    modelPath,
    embedding,
    tokenizerPath: join(absolute, 'tokenizer.json'),
    tokenizerConfigPath: join(absolute, 'tokenizer_config.json'),
    weightsBytes: graphBytesOnDisk(modelPath) + (embedding ? graphBytesOnDisk(embedding.modelPath) : 0),
    config: { ...parsed.model, samplingDefaults: generation ?? parsed.model.samplingDefaults },
  };
}

/**
 * A file named by the config, which must stay inside the model folder: a downloaded folder
 * is untrusted, and a name like "../../secrets" or a symlink out of the folder would make
 * the engine read whatever it points at.
 */
export function fileInFolder(folder: string, name: string, field: string): string {
  const path = resolve(folder, name);
  const outside = (root: string, target: string): boolean => {
    const rel = relative(root, target);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel);
  };
  if (isAbsolute(name) || outside(folder, path)) {
    throw new EngineError(
      `genai_config.json ${field} is "${name}", which points outside the model folder ${folder}. ` +
        'Name a file inside the folder (as the model builder writes it).',
      'model-corrupt',
    );
  }
  if (!existsSync(path)) {
    throw new EngineError(`Model folder ${folder} has no ${name} (named by genai_config.json ${field}).`, 'model-missing');
  }
  if (outside(realpathSync(folder), realpathSync(path))) {
    throw new EngineError(
      `${name} in ${folder} is a link to ${realpathSync(path)}, outside the model folder. ` +
        'Copy the file into the folder instead of linking to it.',
      'model-corrupt',
    );
  }
  return path;
}

function parseGenaiConfig(text: string, folder: string) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EngineError(
      `genai_config.json in ${folder} is not valid JSON (${(error as Error).message}).`,
      'model-corrupt',
    );
  }
  const parsed = GenaiConfigSchema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new EngineError(`genai_config.json in ${folder} is not a decoder configuration: ${where}.`, 'model-corrupt');
  }
  const { model, search } = parsed.data;
  const { inputs, outputs } = model.decoder;
  const asList = (ids: number | number[] | null | undefined): number[] =>
    ids === null || ids === undefined ? [] : Array.isArray(ids) ? ids : [ids];
  const eosTokenIds = asList(model.eos_token_id);
  if (eosTokenIds.length === 0) {
    throw new EngineError(`genai_config.json in ${folder} lists no eos_token_id.`, 'model-corrupt');
  }
  const config: Omit<ModelConfig, 'samplingDefaults'> & { samplingDefaults: SamplingDefaults } = {
    contextLength: model.context_length,
    eosTokenIds,
    bosTokenId: asList(model.bos_token_id)[0] ?? null,
    padTokenId: asList(model.pad_token_id)[0] ?? eosTokenIds[0]!,
    inputNames: {
      inputIds: inputs.input_ids ?? 'input_ids',
      inputsEmbeds: inputs.inputs_embeds ?? 'inputs_embeds',
      attentionMask: inputs.attention_mask ?? 'attention_mask',
      positionIds: inputs.position_ids ?? 'position_ids',
    },
    logitsName: outputs.logits ?? 'logits',
    cacheNameTemplates: pairCacheTemplates(inputs, outputs),
    declared: {
      headSize: model.decoder.head_size,
      hiddenSize: model.decoder.hidden_size,
      kvHeads: model.decoder.num_key_value_heads,
      layers: model.decoder.num_hidden_layers,
      vocabSize: model.vocab_size,
    },
    sharesKvBuffer: search?.past_present_share_buffer ?? false,
    samplingDefaults: {
      doSample: search?.do_sample ?? false,
      temperature: search?.temperature,
      topK: search?.top_k,
      topP: search?.top_p,
      repetitionPenalty: search?.repetition_penalty,
    },
  };
  return { filename: model.decoder.filename, embedding: model.embedding, modelType: model.type, model: config };
}

/**
 * The builder names cache templates `past_<what>_names` / `present_<what>_names`
 * (past_key_names ↔ present_key_names, and likewise for conv or recurrent state).
 * Pairing by the shared `<what>` keeps new state kinds working without code changes.
 */
function pairCacheTemplates(
  inputs: Record<string, string>,
  outputs: Record<string, string>,
): { past: string; present: string }[] {
  const pairs: { past: string; present: string }[] = [];
  for (const [key, past] of Object.entries(inputs)) {
    const match = /^past_(.+)_names$/.exec(key);
    const present = match ? outputs[`present_${match[1]}_names`] : undefined;
    if (present) pairs.push({ past, present });
  }
  return pairs;
}

function graphBytesOnDisk(modelPath: string): number {
  let bytes = statSync(modelPath).size;
  // The two external-data names the builder and onnx.save_model write.
  for (const candidate of [`${modelPath}.data`, `${modelPath}_data`]) {
    if (existsSync(candidate)) bytes += statSync(candidate).size;
  }
  return bytes;
}
