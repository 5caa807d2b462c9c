import { describe, expect, it } from 'vitest';
import { NUMERIC_FIELDS, parseSetting, summarizeSettings } from './sampling-fields';

const field = (key: string) => NUMERIC_FIELDS.find((f) => f.key === key)!;

describe('generation setting fields', () => {
  it('take a budget up to what the loaded model allows, not a fixed cap', () => {
    expect(parseSetting(field('maxTokens'), '32768', 262_144)).toEqual({ value: 32_768 });
    expect(parseSetting(field('maxTokens'), '200000', 131_072)).toEqual({ problem: 'Max tokens can be at most 131,072 with this model.' });
    expect(parseSetting(field('maxTokens'), '1.5', 4096)).toEqual({ problem: 'Max tokens must be a whole number.' });
    expect(parseSetting(field('maxTokens'), '', 4096)).toEqual({ problem: 'Type a budget.' });
  });

  it('keep each setting within what the contract takes', () => {
    expect(parseSetting(field('topP'), '0', 4096)).toEqual({ problem: 'Top-p must be above 0.' });
    expect(parseSetting(field('topP'), '0.95', 4096)).toEqual({ value: 0.95 });
    expect(parseSetting(field('temperature'), '0', 4096)).toEqual({ value: 0 });
    expect(parseSetting(field('presencePenalty'), '-2.5', 4096)).toEqual({ problem: 'Presence penalty must be at least -2.' });
    expect(parseSetting(field('repetitionPenalty'), '2.1', 4096)).toEqual({ problem: 'Repetition penalty can be at most 2.' });
    expect(parseSetting(field('topK'), 'abc', 4096)).toEqual({ problem: 'Top-k must be a number.' });
  });

  it('summarize what the model recommends in the users’ words', () => {
    expect(summarizeSettings({ temperature: 0.6, topP: 0.95, topK: 20, maxTokens: 32_768, presencePenalty: 1.5, thinking: true })).toBe(
      'budget 32,768 · temperature 0.6 · top-p 0.95 · top-k 20 · presence penalty 1.5 · thinking on',
    );
    expect(summarizeSettings({})).toBe('');
  });
});
