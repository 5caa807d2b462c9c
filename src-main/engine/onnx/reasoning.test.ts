// In-process reasoning on the tiny Qwen3.5-MoE models given a Qwen3.5-layout chat template
// (the generation prompt opens `<think>\n`; enable_thinking=false pre-fills an empty block):
// output marked as reasoning from its first event, template kwargs, continuation.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, GenerateRequest, SamplingParams, TokenEvent } from '../../common/engine';
import { OnnxEngine } from './onnx-engine';

// The plain model: its template has no think block.
const FIXTURE = join(import.meta.dirname, 'fixtures', 'qwen35', 'tiny-chat');
// The thinking copy is of the parity fixture, whose stop rows are weakened so greedy runs reach their
// budget (tiny-chat's replies end, here after one token).
const LONG_RUNS = join(import.meta.dirname, 'fixtures', 'qwen35', 'tokens-fp32');
const THINKING_TEMPLATE =
  "{%- for message in messages -%}{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' -}}{%- endfor -%}" +
  "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}" +
  "{%- if enable_thinking is defined and enable_thinking is false -%}{{- '<think>\\n\\n</think>\\n\\n' -}}{%- else -%}{{- '<think>\\n' -}}{%- endif -%}{%- endif -%}";
const GREEDY: SamplingParams = { temperature: 0, topK: 0, topP: 1, maxTokens: 12, seed: 0, stop: [] };
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are a simulated Linux terminal.' },
  { role: 'user', content: '### Turn 1\n**Action:**\nls -la' },
];

async function generate(engine: OnnxEngine, request: Omit<GenerateRequest, 'id'>): Promise<{ text: string; events: TokenEvent[]; tokens: number[] }> {
  const events: TokenEvent[] = [];
  const [result] = await engine.generate([{ id: 'r', ...request }], (event) => events.push(event));
  expect(result!.finishReason).not.toBe('error');
  return { text: result!.text, events, tokens: events.flatMap((event) => (event.tokenId === undefined ? [] : [event.tokenId])) };
}

describe('reasoning in-process', () => {
  let folder: string;
  let thinking: OnnxEngine;
  let plain: OnnxEngine;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'worldloom-think-'));
    cpSync(LONG_RUNS, folder, { recursive: true });
    const configPath = join(folder, 'tokenizer_config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8'));
    config.chat_template = THINKING_TEMPLATE;
    writeFileSync(configPath, JSON.stringify(config));
    thinking = await OnnxEngine.load(folder, { providers: ['cpu'], intraOpThreads: 1 });
    plain = await OnnxEngine.load(FIXTURE, { providers: ['cpu'], intraOpThreads: 1 });
  });
  afterAll(async () => {
    await thinking.dispose();
    await plain.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  it('describes whether the model reasons and whether thinking can be switched off', () => {
    expect(thinking.describe().reasoning).toEqual({ reasons: true, canDisable: true });
    expect(plain.describe().reasoning).toEqual({ reasons: false, canDisable: false });
  });

  it('output whose prompt opened the think block starts with <think>, in the text and the first event', async () => {
    const run = await generate(thinking, { messages: MESSAGES, sampling: GREEDY });
    expect(run.text.startsWith('<think>\n')).toBe(true);
    expect(run.events[0]).toEqual({ requestId: 'r', text: '<think>\n' });
    expect(run.events.map((event) => event.text).join('')).toBe(run.text);
    expect(run.tokens).toHaveLength(GREEDY.maxTokens);
    const untouched = await generate(plain, { messages: MESSAGES, sampling: GREEDY });
    expect(untouched.text.startsWith('<think>')).toBe(false);
  });

  it('template kwargs reach the template: enable_thinking=false pre-fills an empty block', async () => {
    const on = await thinking.renderPrompt(MESSAGES);
    const off = await thinking.renderPrompt(MESSAGES, { enable_thinking: false });
    expect(on.endsWith('<|im_start|>assistant\n<think>\n')).toBe(true);
    expect(off.endsWith('<|im_start|>assistant\n<think>\n\n</think>\n\n')).toBe(true);
    const run = await generate(thinking, { messages: MESSAGES, sampling: GREEDY, templateKwargs: { enable_thinking: false } });
    expect(run.text.startsWith('<think>')).toBe(false);
    const withThinking = await generate(thinking, { messages: MESSAGES, sampling: GREEDY });
    expect(run.tokens).not.toEqual(withThinking.tokens);
  });

  it('a continuation resumes where a truncated run stopped, without writing <think> twice', async () => {
    const whole = await generate(thinking, { messages: MESSAGES, sampling: { ...GREEDY, maxTokens: 12 } });
    const first = await generate(thinking, { messages: MESSAGES, sampling: { ...GREEDY, maxTokens: 6 } });
    expect(whole.text.startsWith(first.text)).toBe(true);
    const rest = await generate(thinking, { messages: MESSAGES, sampling: { ...GREEDY, maxTokens: 6 }, continuation: first.text });
    // Only the new part comes back, and no second <think>.
    expect(rest.events[0]!.tokenId).toBeDefined();
    expect(rest.tokens).toEqual(whole.tokens.slice(6));
    expect(first.text + rest.text).toBe(whole.text);
  });
});
