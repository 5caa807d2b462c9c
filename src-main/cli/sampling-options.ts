// The generation options every simulating verb takes (simulate, replay, perturb, eval). Each is
// left undefined unless given, so what the user did not type comes from the one place that
// owns defaults: the loaded model's recommendation, then the workspace's remembered settings
// (simulation/generation-parameters.ts).
import { InvalidArgumentError, type Command } from 'commander';
import { MAX_NEW_TOKENS, type IncompleteSample, type SamplingOverrides } from '../common/contract/simulation';
import { numberBetween, oneOf, temperature, wholeNumber } from './option-parsers';

export interface SamplingFlags {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxTokens?: number;
  presencePenalty?: number;
  repetitionPenalty?: number;
  thinking?: 'on' | 'off';
  seed?: number;
}

function topP(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1) throw new InvalidArgumentError('expected a number above 0, at most 1');
  return n;
}

function repetitionPenalty(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 2) throw new InvalidArgumentError('expected a number above 0, at most 2 (1 = off)');
  return n;
}

/** Adds the generation options; `seed` only where the verb does not define its own. */
export function addSamplingOptions(command: Command, options: { seed?: boolean } = {}): Command {
  command
    .option('--max-tokens <n>', "new tokens per sample, reasoning included (default: the model's recommendation, else 32768)", wholeNumber(1, MAX_NEW_TOKENS))
    .option('-t, --temperature <t>', "sampling temperature; 0 is greedy (default: the model's recommendation)", temperature)
    .option('--top-p <p>', 'nucleus sampling mass', topP)
    .option('--top-k <k>', '0 = no top-k cut', wholeNumber(0, 10_000))
    .option('--presence-penalty <p>', 'OpenAI-style presence penalty, -2 to 2', numberBetween(-2, 2))
    .option('--repetition-penalty <r>', 'multiplicative repetition penalty (1 = off)', repetitionPenalty)
    .option('--thinking <on|off>', 'let a reasoning model think first (default: on for models that reason)', oneOf(['on', 'off'] as const));
  if (options.seed !== false) command.option('-s, --seed <n>', 'seed of the first sample (sample i uses seed + i)', wholeNumber(0, 2 ** 31 - 1));
  return command;
}

/** The options the user gave, as overrides of the settings in force. */
export function samplingOverrides(flags: SamplingFlags): SamplingOverrides {
  const o: SamplingOverrides = {};
  if (flags.temperature !== undefined) o.temperature = flags.temperature;
  if (flags.topP !== undefined) o.topP = flags.topP;
  if (flags.topK !== undefined) o.topK = flags.topK;
  if (flags.maxTokens !== undefined) o.maxTokens = flags.maxTokens;
  if (flags.presencePenalty !== undefined) o.presencePenalty = flags.presencePenalty;
  if (flags.repetitionPenalty !== undefined) o.repetitionPenalty = flags.repetitionPenalty;
  if (flags.thinking !== undefined) o.thinking = flags.thinking === 'on';
  if (flags.seed !== undefined) o.seed = flags.seed;
  return o;
}

/**
 * What the CLI prints for samples that ran out of tokens: the same message as the panel, and
 * the budget to ask for next (twice what was used, within the model's limit).
 */
export function incompleteReport(incomplete: readonly IncompleteSample[], limit: number): string {
  return incomplete
    .map((s) => {
      const next = Math.min(limit, Math.max(s.maxTokens * 2, s.completionTokens * 2));
      const hint = s.maxTokens >= limit ? 'the budget is already the most the model allows; turn thinking off (--thinking off)' : `run again with --max-tokens ${next}`;
      return `sample ${s.sample} (seed ${s.seed}): ${s.message}; not stored. To finish it, ${hint}.`;
    })
    .join('\n');
}
