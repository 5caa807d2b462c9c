// The shipped default world model (resources/models/worldloom-nano, a tiny Qwen3.5-MoE built
// by `npm run model:build`) loads in the ONNX engine and, given the prompt the app builds for a
// trajectory recorded in its terminal sandbox, predicts steps of sessions it never saw (the
// cases below are not in its training data): the screen text and the prompt line after it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModelOutput } from '../../common/prompt/model-output';
import { buildWorldModelMessages, type WorldModelTurn } from '../../common/prompt/world-model-messages';
import type { SamplingParams } from '../../common/engine';
import { OnnxEngine } from './onnx-engine';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MODEL = join(ROOT, 'resources', 'models', 'worldloom-nano');
const GREEDY: SamplingParams = { temperature: 0, topK: 0, topP: 1, maxTokens: 64, seed: 0, stop: [] };
// What the app's terminal recorder writes as a recorded trajectory's system prompt.
const RECORDED_TERMINAL =
  'Terminal environment recorded by Worldloom: bash as user agent on host sandbox in a 120×40 xterm-256color terminal, home /home/agent ' +
  '(empty at the start), no network. Each action is a command line typed at the prompt; each observation is the screen text it printed, ' +
  'ending with the next prompt. Commands running longer than 15s are stopped.';

const UNSEEN: { history: WorldModelTurn[]; action: string; real: string }[] = [
  { history: [], action: 'cat notes.txt', real: 'cat: notes.txt: No such file or directory\nagent@sandbox:~$' },
  { history: [], action: 'whoami', real: 'agent\nagent@sandbox:~$' },
];

describe('worldloom-nano, the shipped default model', () => {
  let engine: OnnxEngine;

  beforeAll(async () => {
    engine = await OnnxEngine.load(MODEL, { providers: ['cpu'], intraOpThreads: 1 });
  });
  afterAll(async () => {
    await engine?.dispose();
  });

  it('loads as a Qwen3.5-MoE with its attention cache and linear-attention state discovered, reasoning in think blocks', () => {
    const description = engine.describe();
    expect(description.kind).toBe('onnx');
    expect(description.modelId).toBe('qwen3_5_moe_text');
    expect(description.contextLength).toBe(16384);
    expect(description.notes[0]).toMatch(/^8 key\/value cache tensors and 12 conv\/recurrent state tensors/);
    expect(description.reasoning).toEqual({ reasons: true, canDisable: true });
  });

  it('closes its empty reasoning and predicts unseen terminal steps with the prompt line after them', async () => {
    const results = await engine.generate(
      UNSEEN.map((c, i) => ({
        id: String(i),
        messages: buildWorldModelMessages({ systemPrompt: RECORDED_TERMINAL, history: c.history, action: c.action, initialState: 'agent@sandbox:~$', domain: 'terminal' }),
        sampling: GREEDY,
      })),
      () => {},
    );
    for (const [i, result] of results.entries()) {
      expect(result.finishReason).toBe('eos');
      const output = parseModelOutput(result.text);
      expect(output.observation).toBe(UNSEEN[i]!.real);
      expect(output.reasoning ?? '').toBe('');
    }
  });
});
