// The one object that owns generation parameters (STYLE.md, after onnxruntime-genai's
// generator params): what the loaded model recommends, overridden by what the workspace
// remembers, overridden by what one call asks for. Simulate, resample, perturb (instruction
// mode), replay, evaluation and every CLI verb take their settings from here, so no default
// is written twice.
import {
  MAX_NEW_TOKENS,
  type GenerationSettings,
  type Sampling,
  type SamplingOverrides,
} from '../common/contract/simulation';
import type { EngineDescription, GenerateRequest, SamplingParams, WorldModelEngine } from '../common/engine';
import { UserError } from '../common/user-error';
import { readSamplingOverrides } from '../store/workspace-settings';
import type { WorkspaceStore } from '../store/workspace-store';

/**
 * Used only for what neither the model nor the user set. A reasoning model thinks for
 * thousands of tokens (median ~4,300 for Qwen-AgentWorld, up to ~11,000), so the budget is
 * the public AgentWorldBench evaluation's 32,768; the sampling is Qwen3's thinking-mode
 * recommendation (greedy decoding makes thinking models loop).
 */
export const FALLBACK_SAMPLING: Sampling = {
  temperature: 0.6,
  topK: 20,
  topP: 0.95,
  maxTokens: 32_768,
  seed: 0,
  stop: [],
  presencePenalty: 0,
  repetitionPenalty: 1,
  thinking: true,
};

type ModelView = Pick<EngineDescription, 'recommendedSampling' | 'reasoning' | 'contextLength'>;

const SAMPLING_KEYS = Object.keys(FALLBACK_SAMPLING) as (keyof Sampling)[];

export class GenerationParameters {
  constructor(
    /** The loaded model's description; null when none is loaded. */
    readonly model: ModelView | null,
    /** The workspace's remembered overrides. */
    readonly workspace: SamplingOverrides = {},
  ) {}

  /** The model's recommendation in the contract's terms (thinking on exactly when it reasons). */
  get recommended(): SamplingOverrides {
    if (!this.model) return {};
    const r = definedOnly(this.model.recommendedSampling as SamplingOverrides);
    return { ...r, ...(this.model.reasoning.reasons ? { thinking: true } : {}) };
  }

  /** The most new tokens a call may ask for: the model's context (when known), at most 256K. */
  get maxTokensLimit(): number {
    const context = this.model?.contextLength ?? 0;
    return context > 0 ? Math.min(context, MAX_NEW_TOKENS) : MAX_NEW_TOKENS;
  }

  /**
   * The settings for one call. A budget the call asks for beyond the model's context is refused;
   * a recommended or remembered one is brought down to it, since the user did not type it now.
   */
  resolve(call: SamplingOverrides = {}): Sampling {
    const limit = this.maxTokensLimit;
    const asked = definedOnly(call);
    if (asked.maxTokens !== undefined && asked.maxTokens > limit) {
      throw new UserError(
        `A budget of ${asked.maxTokens} new tokens is more than the loaded model's context of ${limit} tokens. Ask for at most ${limit}.`,
        'invalid',
      );
    }
    const thinkingDefault = this.model ? this.model.reasoning.reasons : FALLBACK_SAMPLING.thinking;
    const merged: Sampling = { ...FALLBACK_SAMPLING, thinking: thinkingDefault, ...this.recommended, ...definedOnly(this.workspace), ...asked };
    return { ...merged, maxTokens: Math.min(merged.maxTokens, limit) };
  }

  /** Which layer each setting in force comes from. */
  sources(): Record<string, 'model' | 'workspace' | 'fallback'> {
    const recommended = this.recommended;
    const workspace = definedOnly(this.workspace);
    return Object.fromEntries(
      SAMPLING_KEYS.map((k) => [k, k in workspace ? 'workspace' : k in recommended ? 'model' : 'fallback'] as const),
    );
  }

  describe(): GenerationSettings {
    return {
      model: this.recommended,
      workspace: definedOnly(this.workspace),
      effective: this.resolve(),
      sources: this.sources(),
      maxTokensLimit: this.maxTokensLimit,
      reasoning: this.model?.reasoning ?? { reasons: false, canDisable: false },
    };
  }
}

/**
 * The parameters for the loaded engine and the open workspace: what every simulating
 * caller (simulate, resample, perturb, replay, the CLI) resolves its call against.
 */
export function generationParameters(engine: WorldModelEngine | null, store: WorkspaceStore | null): GenerationParameters {
  return new GenerationParameters(engine?.describe() ?? null, store ? readSamplingOverrides(store) : {});
}

/** The engine's view of settings: sampling parameters plus the template variables thinking needs. */
export function engineRequestParts(sampling: Sampling): Pick<GenerateRequest, 'sampling' | 'templateKwargs'> {
  const { thinking, ...rest } = sampling;
  const params: SamplingParams = { ...rest, stop: [...rest.stop] };
  // Thinking on is every reasoning template's default, so only "off" is sent; a template
  // without the variable ignores it.
  return thinking ? { sampling: params } : { sampling: params, templateKwargs: { enable_thinking: false } };
}

/** The contract's settings as recorded in a node's provenance: the engine's parameters plus thinking. */
export function samplingRecord(sampling: Sampling): Record<string, unknown> {
  return { ...sampling, stop: [...sampling.stop] };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
