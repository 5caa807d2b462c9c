// The generation settings a user can set, in their words, with the bounds the contract takes:
// one table read by the simulate panel's fields and by the summaries in it and the model panel.
import type { SamplingOverrides } from '../../../../src-main/common/contract/simulation';

export type NumericSetting = 'maxTokens' | 'temperature' | 'topP' | 'topK' | 'presencePenalty' | 'repetitionPenalty';

export interface NumericField {
  key: NumericSetting;
  label: string;
  /** Short name for summaries ("budget 32,768"). */
  short: string;
  min: number;
  /** null: the limit comes from the loaded model (the budget). */
  max: number | null;
  step: number;
  integer: boolean;
  /** The lower bound is excluded (top-p, repetition penalty must be above 0). */
  aboveMin?: boolean;
  hint: string;
}

export const NUMERIC_FIELDS: NumericField[] = [
  { key: 'maxTokens', label: 'Max tokens', short: 'budget', min: 1, max: null, step: 1, integer: true, hint: 'New tokens per sample, reasoning included. Reasoning models need thousands.' },
  { key: 'temperature', label: 'Temperature', short: 'temperature', min: 0, max: 5, step: 0.05, integer: false, hint: '0 is greedy, which makes reasoning models loop.' },
  { key: 'topP', label: 'Top-p', short: 'top-p', min: 0, max: 1, step: 0.05, integer: false, aboveMin: true, hint: 'Sample from the smallest set of tokens holding this much probability.' },
  { key: 'topK', label: 'Top-k', short: 'top-k', min: 0, max: 10_000, step: 1, integer: true, hint: 'Sample from the k likeliest tokens; 0 is no cut.' },
  { key: 'presencePenalty', label: 'Presence penalty', short: 'presence penalty', min: -2, max: 2, step: 0.1, integer: false, hint: 'Subtracted once from every token already written; 0 is off.' },
  { key: 'repetitionPenalty', label: 'Repetition penalty', short: 'repetition penalty', min: 0, max: 2, step: 0.05, integer: false, aboveMin: true, hint: 'Divides the odds of tokens already written; 1 is off.' },
];

/** The value typed into a field, or why it cannot be used. */
export function parseSetting(field: NumericField, text: string, limit: number): { value: number } | { problem: string } {
  if (text.trim() === '') return { problem: `Type a ${field.short}.` };
  const value = Number(text);
  const max = field.max ?? limit;
  if (!Number.isFinite(value)) return { problem: `${field.label} must be a number.` };
  if (field.integer && !Number.isInteger(value)) return { problem: `${field.label} must be a whole number.` };
  if (field.aboveMin ? value <= field.min : value < field.min) return { problem: `${field.label} must be ${field.aboveMin ? 'above' : 'at least'} ${field.min}.` };
  if (value > max) return { problem: `${field.label} can be at most ${max.toLocaleString('en-US')}${field.max === null ? ' with this model' : ''}.` };
  return { value };
}

function formatValue(key: NumericSetting, value: number): string {
  return key === 'maxTokens' ? value.toLocaleString('en-US') : String(value);
}

/** "budget 32,768 · temperature 0.6 · top-p 0.95 · top-k 20 · thinking on", for what is set. */
export function summarizeSettings(settings: SamplingOverrides): string {
  const parts: string[] = [];
  for (const field of NUMERIC_FIELDS) {
    const value = settings[field.key];
    if (value !== undefined) parts.push(`${field.short} ${formatValue(field.key, value)}`);
  }
  if (settings.thinking !== undefined) parts.push(`thinking ${settings.thinking ? 'on' : 'off'}`);
  return parts.join(' · ');
}
