// The engine against @huggingface/transformers on one folder both load (the frozen tiny Llama,
// fixtures/tiny-llama/README.md): same prompt tokens, same greedy tokens.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../common/engine';
import { ChatTokenizer } from './chat-tokenizer';
import { OnnxEngine } from './onnx-engine';
import { TransformersPeer } from '../../testing/transformers-reference';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'tiny-llama');
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are a simulated Linux terminal. Predict the output of each command.' },
  { role: 'user', content: '## Turn 1\n**Action:** ls -la /home/user' },
  { role: 'assistant', content: '**Environment Observation:**\ntotal 24\ndrwxr-xr-x 3 user user 4096 project' },
  { role: 'user', content: '## Turn 2\n**Action:** cat project/README.md' },
];

describe('OnnxEngine against transformers.js on the tiny Llama', () => {
  let engine: OnnxEngine;
  let peer: TransformersPeer;

  beforeAll(async () => {
    engine = await OnnxEngine.load(FIXTURE, { providers: ['cpu'], intraOpThreads: 1 });
    peer = await TransformersPeer.load(FIXTURE, { sessionOptions: { intraOpNumThreads: 1 } });
  });
  afterAll(async () => {
    await engine?.dispose();
    await peer?.dispose();
  });

  it('builds the same prompt tokens from the chat template', () => {
    const tokenizer = ChatTokenizer.load(join(FIXTURE, 'tokenizer.json'), join(FIXTURE, 'tokenizer_config.json'));
    const ours = tokenizer.encodeChat(MESSAGES).tokens;
    expect(ours.length).toBeGreaterThan(40);
    expect(peer.chatTokens(MESSAGES)).toEqual(ours);
  });

  it('generates the same greedy tokens, token for token', async () => {
    const ours: number[] = [];
    const [result] = await engine.generate(
      [{ id: 'greedy', messages: MESSAGES, sampling: { temperature: 0, topK: 0, topP: 1, maxTokens: 16, seed: 0, stop: [] } }],
      (event) => {
        if (event.tokenId !== undefined) ours.push(event.tokenId);
      },
    );
    expect(result!.finishReason).toBe('length');
    const theirs = await peer.greedy(peer.chatTokens(MESSAGES), 16);
    expect(ours).toHaveLength(16);
    expect(theirs.tokens).toEqual(ours);
  });
});
