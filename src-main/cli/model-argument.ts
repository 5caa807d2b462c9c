// `--model DIR|URL`: a model folder on disk, or an OpenAI-compatible endpoint.
import { resolve } from 'node:path';
import type { ModelSpec } from '../common/contract/simulation';
import type { WorldModelEngine } from '../common/engine';
import { ModelSession } from '../simulation/model-session';
import { RESOURCES_DIR } from './paths';

export function modelSpecFromArgument(value: string): ModelSpec {
  if (/^https?:\/\//i.test(value)) {
    // "http://host:8000/v1#model-name" names the served model after '#'.
    const [baseUrl, model] = value.split('#', 2) as [string, string | undefined];
    return { kind: 'openai', baseUrl, ...(model ? { model } : {}) };
  }
  return { kind: 'onnx', path: resolve(value) };
}

/** Loads `--model` (or, without it, the embedded default model); says what to pass when there is neither. */
export async function openModelForCli(modelArgument: string | undefined): Promise<{ models: ModelSession; engine: WorldModelEngine }> {
  const models = new ModelSession(RESOURCES_DIR);
  if (modelArgument) await models.load(modelSpecFromArgument(modelArgument));
  else await models.loadDefault();
  if (!models.current) throw new Error('No model given and this installation has no embedded model: pass --model DIR|URL.');
  return { models, engine: models.current };
}
