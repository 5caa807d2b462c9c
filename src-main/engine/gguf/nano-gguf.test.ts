// worldloom-nano as GGUF (resources/models/worldloom-nano/worldloom-nano.gguf, written by the
// project's converter from the shipped ONNX weights: recover.py, then --to gguf --type f16, 19 MB,
// half the f32 file and the same tokens here) against the shipped ONNX folder: the same rendered
// prompt, the same token ids, and the same greedy tokens from both engines on the app's prompts
// (a first step, a history, a 1,500-token session). Nano's layer layout (L L L F F L L L F F)
// has no full-attention interval; the file lists its recurrent layers, and these tokens show
// llama.cpp places them as the ONNX graph does.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorldModelMessages } from '../../common/prompt/world-model-messages';
import type { ChatMessage, SamplingParams } from '../../common/engine';
import { longHistory, withAction } from '../../testing/engine-bench';
import { OnnxEngine } from '../onnx/onnx-engine';
import { GgufEngine } from './gguf-engine';

const NANO = join(import.meta.dirname, '..', '..', '..', 'resources', 'models', 'worldloom-nano');
const FILE = join(NANO, 'worldloom-nano.gguf');
const GREEDY: SamplingParams = { temperature: 0, topK: 0, topP: 1, maxTokens: 48, seed: 0, stop: [] };
const SYSTEM =
  'Terminal environment recorded by Worldloom: bash as user agent on host sandbox in a 120×40 xterm-256color terminal, home /home/agent ' +
  '(empty at the start), no network. Each action is a command line typed at the prompt; each observation is the screen text it printed, ' +
  'ending with the next prompt. Commands running longer than 15s are stopped.';

const step = (action: string, history: { action: string; observation: string }[] = []): ChatMessage[] =>
  buildWorldModelMessages({ systemPrompt: SYSTEM, history, action, initialState: 'agent@sandbox:~$', domain: 'terminal' });

describe.skipIf(!existsSync(FILE))('worldloom-nano as GGUF, beside its ONNX folder', () => {
  let gguf: GgufEngine;
  let onnx: OnnxEngine;

  beforeAll(async () => {
    // One thread each: the result does not depend on it, and tests share the CPU.
    gguf = await GgufEngine.load(FILE, { device: 'cpu', sequences: 1, threads: 1, contextLength: 4096 });
    onnx = await OnnxEngine.load(NANO, { providers: ['cpu'], intraOpThreads: 1 });
  }, 120_000);
  afterAll(async () => {
    await gguf?.dispose();
    await onnx?.dispose();
  });

  it('describes the same model: the sampling nano recommends, reasoning in think blocks', () => {
    const described = gguf.describe();
    expect(described.kind).toBe('gguf');
    // GGUF has no key for generation_config's max_new_tokens; the sampling itself is carried over.
    const { temperature, topK, topP } = onnx.describe().recommendedSampling!;
    expect(described.recommendedSampling).toEqual({ temperature, topK, topP });
    expect(described.reasoning).toEqual(onnx.describe().reasoning);
    expect(described.notes.join('\n')).toMatch(/all 11 layers on the CPU/);
  });

  it('renders and tokenizes every prompt as the ONNX engine does, and decodes the same greedy tokens', async () => {
    const prompts: ChatMessage[][] = [
      step('whoami'),
      step('cat notes.txt'),
      step('wc -l fruits.txt', [
        { action: 'echo kiwi apple > fruits.txt', observation: 'agent@sandbox:~$' },
        { action: 'echo pear >> fruits.txt', observation: 'agent@sandbox:~$' },
      ]),
      withAction(await longHistory(onnx, 1500), 'uptime'),
    ];
    for (const messages of prompts) {
      const text = await onnx.renderPrompt(messages);
      expect(Buffer.from(await gguf.renderPrompt(messages))).toEqual(Buffer.from(text));
      const ids = await onnx.tokenize(text);
      expect(await gguf.tokenize(text)).toEqual(ids);
      const tokens = async (engine: Pick<GgufEngine, 'generateFromIds'>) => {
        const produced: number[] = [];
        const [result] = await engine.generateFromIds([{ id: 'p', promptIds: ids, sampling: GREEDY }], (event) => {
          if (event.tokenId !== undefined) produced.push(event.tokenId);
        });
        expect(result!.finishReason).not.toBe('error');
        return produced;
      };
      const theirs = await tokens(onnx);
      expect(theirs.length).toBeGreaterThan(3);
      expect(await tokens(gguf), `prompt of ${ids.length} tokens`).toEqual(theirs);
    }
  }, 300_000);

  it('simulates a step to the same observation text through the chat template', async () => {
    const messages = step('ls -la');
    const [ours] = await gguf.generate([{ id: 'a', messages, sampling: GREEDY }], () => {});
    const [theirs] = await onnx.generate([{ id: 'a', messages, sampling: GREEDY }], () => {});
    expect(ours!.finishReason).toBe(theirs!.finishReason);
    expect(ours!.text).toBe(theirs!.text);
  }, 120_000);
});
