import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { GenerationSettings, SamplingOverrides } from '../../../src-main/common/contract/simulation';

// The core, as far as these tests need it: each setWorkspace waits until the test answers it.
const sent: SamplingOverrides[] = [];
const answer: ((s: GenerationSettings) => void)[] = [];
vi.mock('../api/door', () => ({ lastMessageArrivedAt: () => 0, door: {} }));
vi.mock('../api/client', () => ({
  call: vi.fn((method: string, input: { overrides: SamplingOverrides }) => {
    if (method !== 'sampling.setWorkspace') throw new Error(`not in this test: ${method}`);
    sent.push(input.overrides);
    return new Promise((resolve) => answer.push(resolve));
  }),
}));

const { forgetOverride, overrideSetting, useGenerationSettings, withoutOverride } = await import('./generation-settings');

const base: GenerationSettings = {
  model: { temperature: 0.6, maxTokens: 32_768, thinking: true },
  workspace: {},
  effective: { temperature: 0.6, topK: 20, topP: 0.95, maxTokens: 32_768, seed: 0, stop: [], presencePenalty: 0, repetitionPenalty: 1, thinking: true },
  sources: { temperature: 'model', maxTokens: 'model', thinking: 'model' },
  maxTokensLimit: 262_144,
  reasoning: { reasons: true, canDisable: true },
};
const withWorkspace = (workspace: SamplingOverrides): GenerationSettings => ({ ...base, workspace, effective: { ...base.effective, ...workspace } });

beforeEach(() => {
  sent.length = 0;
  answer.length = 0;
  useGenerationSettings.setState({ settings: base });
});

describe('workspace overrides of the generation settings', () => {
  it('show a changed setting at once and save every override with it', async () => {
    void overrideSetting('maxTokens', 4096);
    const shown = useGenerationSettings.getState().settings!;
    expect(shown.effective.maxTokens).toBe(4096);
    expect(shown.sources.maxTokens).toBe('workspace');
    void overrideSetting('thinking', false);
    expect(sent).toEqual([{ maxTokens: 4096 }, { maxTokens: 4096, thinking: false }]);
  });

  it('keep the answer to the latest change when answers come back out of order', async () => {
    const first = overrideSetting('maxTokens', 4096);
    const second = overrideSetting('temperature', 1);
    answer[1]!(withWorkspace({ maxTokens: 4096, temperature: 1 }));
    await second;
    answer[0]!(withWorkspace({ maxTokens: 4096 }));
    await first;
    expect(useGenerationSettings.getState().settings!.workspace).toEqual({ maxTokens: 4096, temperature: 1 });
  });

  it('forget one override and keep the others', async () => {
    useGenerationSettings.setState({ settings: withWorkspace({ maxTokens: 4096, temperature: 1 }) });
    void forgetOverride('temperature');
    expect(sent).toEqual([{ maxTokens: 4096 }]);
    expect(withoutOverride({ topK: 5 }, 'topK')).toEqual({});
  });
});
