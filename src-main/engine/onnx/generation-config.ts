// The model's own sampling recommendation. Hugging Face checkpoints carry it in
// `generation_config.json` (Qwen3.5: temperature 0.6, top-k 20, top-p 0.95…); the model
// builder copies part of it into genai_config.json's `search`. The richer file wins when the
// folder has it; both become the engine description's `recommendedSampling`.

import { join } from 'node:path';
import { z } from 'zod';
import { EngineError, type SamplingParams } from '../../common/engine';
import { modelFileText, parseModelJson } from './model-files';

export interface SamplingDefaults {
  doSample: boolean;
  temperature?: number;
  topK?: number;
  topP?: number;
  repetitionPenalty?: number;
  presencePenalty?: number;
  maxNewTokens?: number;
}

const GenerationConfigSchema = z
  .object({
    do_sample: z.boolean(),
    temperature: z.number().nonnegative(),
    top_k: z.number().int().nonnegative(),
    top_p: z.number().positive().max(1),
    repetition_penalty: z.number().positive(),
    presence_penalty: z.number(),
    max_new_tokens: z.number().int().positive(),
  })
  .partial();

/** generation_config.json in `folder`, or null when there is none. Throws EngineError when it is malformed. */
export function readGenerationConfig(folder: string): SamplingDefaults | null {
  const path = join(folder, 'generation_config.json');
  const text = modelFileText(path);
  if (text === null) return null;
  const json = parseModelJson(text, path, 'fix or delete it');
  // Unknown keys (eos ids, cache settings…) are the runtime's business, not sampling's.
  // transformers writes null for a value it leaves unset.
  const set = json !== null && typeof json === 'object'
    ? Object.fromEntries(Object.entries(json).filter(([, value]) => value !== null))
    : json;
  const parsed = GenerationConfigSchema.safeParse(set);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new EngineError(`${path} has sampling values out of range (${where}); fix or delete it.`, 'model-corrupt');
  }
  const config = parsed.data;
  return {
    // transformers samples only when do_sample is set; a file that sets a temperature without it still means greedy.
    doSample: config.do_sample ?? false,
    temperature: config.temperature,
    topK: config.top_k,
    topP: config.top_p,
    repetitionPenalty: config.repetition_penalty,
    presencePenalty: config.presence_penalty,
    maxNewTokens: config.max_new_tokens,
  };
}

/** What `describe().recommendedSampling` reports: only what the model actually says. */
export function recommendedSampling(defaults: SamplingDefaults): Partial<SamplingParams> {
  const out: Partial<SamplingParams> = {};
  if (defaults.maxNewTokens !== undefined) out.maxTokens = defaults.maxNewTokens;
  if (defaults.repetitionPenalty !== undefined && defaults.repetitionPenalty !== 1) out.repetitionPenalty = defaults.repetitionPenalty;
  if (defaults.presencePenalty !== undefined && defaults.presencePenalty !== 0) out.presencePenalty = defaults.presencePenalty;
  if (!defaults.doSample) return { ...out, temperature: 0 };
  if (defaults.temperature !== undefined) out.temperature = defaults.temperature;
  if (defaults.topK !== undefined) out.topK = defaults.topK;
  if (defaults.topP !== undefined) out.topP = defaults.topP;
  return out;
}
