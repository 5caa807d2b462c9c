// What the studio calls the loaded model: the name a person gave it (the embedded model's
// folder, worldloom-nano; a model folder's or GGUF file's name; a server's model name),
// not its architecture (qwen3_5_moe_text), which is shown beside it; a LoRA adapter opened over
// it is named after it ("base.gguf + adapter.gguf"): it is another model. Pure.
import type { ModelState } from '../../../../src-main/common/contract/simulation';

type Loaded = NonNullable<ModelState['loaded']>;

/** The last part of a path, either separator; a trailing one ignored. */
function baseName(path: string): string {
  return path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? path;
}

export function modelDisplayName(loaded: Pick<Loaded, 'kind' | 'modelId' | 'source' | 'adapter'>): string {
  if (loaded.kind === 'openai' || !loaded.source) return loaded.modelId;
  const adapter = loaded.adapter ? ` + ${baseName(loaded.adapter)}` : '';
  return `${baseName(loaded.source) || loaded.modelId}${adapter}`;
}

/** What the model panel says of reasoning: only a template that opens a think block makes room for it. */
export function reasoningSentence(reasoning: Loaded['reasoning']): string {
  if (!reasoning.reasons) return 'Answers without reasoning.';
  return reasoning.canDisable
    ? 'Its chat template opens a think block, so it can reason before it answers; thinking can be switched off in the simulate panel.'
    : 'Its chat template opens a think block, so it can reason before it answers; the template cannot switch thinking off.';
}

/**
 * Whether the loaded model is the embedded demo (its folder, or the GGUF file shipped in it):
 * the studio then says that its predictions are a demo's, not a real world model's.
 */
export function isEmbeddedModel(state: Pick<ModelState, 'loaded' | 'defaultModelPath'> | null | undefined): boolean {
  const source = state?.loaded?.source;
  const embedded = state?.defaultModelPath?.replace(/[\\/]+$/, '');
  if (!source || !embedded || state?.loaded?.kind === 'openai') return false;
  return source === embedded || source.startsWith(`${embedded}/`) || source.startsWith(`${embedded}\\`);
}
