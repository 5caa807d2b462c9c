// The OpenAI-compatible engine with a reasoning model behind it: every field servers put
// reasoning in, budgets that end inside the reasoning, the thinking switch and penalties,
// resuming a cut-off answer, and a first chunk that is slow to come.
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, SamplingParams } from '../../common/engine';
import { incompleteness, parseModelOutput } from '../../common/prompt/model-output';
import { startFakeVllm, type FakeServer, type FakeServerOptions } from '../../testing/fake-vllm-server';
import { OpenAiCompatibleEngine } from './openai-engine';

const servers: FakeServer[] = [];
async function server(options: FakeServerOptions): Promise<FakeServer> {
  const s = await startFakeVllm({ models: [{ id: 'agentworld', max_model_len: 262_144 }], ...options });
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Reasoning of `n` words (one token each on the test server), then an answer. */
function longReply(n: number) {
  return {
    reasoning: Array.from({ length: n }, (_, i) => `r${i}`).join(' '),
    content: '<predicted_observation>\nbuild  dist  src\n</predicted_observation>',
  };
}

const SAMPLING: SamplingParams = { temperature: 0.6, topK: 20, topP: 0.95, maxTokens: 32_768, seed: 5, stop: [] };
function request(sampling: Partial<SamplingParams> = {}, extra: Partial<GenerateRequest> = {}): GenerateRequest {
  return { id: 'a', messages: [{ role: 'system', content: 'A shell.' }, { role: 'user', content: '### Turn 1\n**Action:**\nls' }], sampling: { ...SAMPLING, ...sampling }, ...extra };
}
const engine = (url: string) => new OpenAiCompatibleEngine({ baseUrl: url, model: 'agentworld', retry: { attempts: 1 } });

describe('OpenAiCompatibleEngine with a reasoning model', () => {
  for (const reasoningIn of ['reasoning', 'reasoning_content', 'content'] as const) {
    it(`reads 3,000 tokens of reasoning sent in ${reasoningIn === 'content' ? 'the content (inline <think>)' : `"${reasoningIn}"`} as the same text`, async () => {
      const s = await server({ reasoningIn, reply: () => longReply(3000) });
      let streamed = '';
      const [result] = await engine(s.url).generate([request()], (e) => (streamed += e.text));
      expect(result!.text).toBe(streamed);
      expect(result!.finishReason).toBe('eos');
      expect(result!.completionTokens).toBe(3000 + 5);
      const parsed = parseModelOutput(result!.text);
      expect(parsed.observation).toBe('build  dist  src');
      expect(parsed.reasoning!.split(' ')).toHaveLength(3000);
    });
  }

  it('ends by length inside the reasoning when the budget is smaller than the thinking', async () => {
    const s = await server({ reasoningIn: 'reasoning', reply: () => longReply(3000) });
    const [result] = await engine(s.url).generate([request({ maxTokens: 1000 })], () => {});
    expect(s.stats.bodies[0]).toMatchObject({ max_tokens: 1000 });
    expect(result).toMatchObject({ finishReason: 'length', completionTokens: 1000 });
    expect(incompleteness(result!.text, result!.finishReason)).toBe('reasoning');
    expect(parseModelOutput(result!.text).observation).toBe('');
  });

  it('sends the thinking switch, penalties, and leaves penalties out when they are off', async () => {
    const s = await server({ reply: () => longReply(3) });
    await engine(s.url).generate([request({ presencePenalty: 1.5, repetitionPenalty: 1.05 }, { templateKwargs: { enable_thinking: false } })], () => {});
    await engine(s.url).generate([request({ presencePenalty: 0, repetitionPenalty: 1 })], () => {});
    expect(s.stats.bodies[0]).toMatchObject({ presence_penalty: 1.5, repetition_penalty: 1.05, chat_template_kwargs: { enable_thinking: false } });
    expect(Object.keys(s.stats.bodies[1]!)).not.toEqual(expect.arrayContaining(['presence_penalty']));
    expect(s.stats.bodies[1]).not.toHaveProperty('repetition_penalty');
    expect(s.stats.bodies[1]).not.toHaveProperty('chat_template_kwargs');
  });

  it('with thinking off, the server answers without reasoning', async () => {
    const s = await server({ reasoningIn: 'reasoning', reply: () => longReply(3000) });
    const [result] = await engine(s.url).generate([request({ maxTokens: 100 }, { templateKwargs: { enable_thinking: false } })], () => {});
    expect(result!.finishReason).toBe('eos');
    expect(parseModelOutput(result!.text)).toEqual({ observation: 'build  dist  src', reasoning: null });
  });

  it('continues an answer cut inside its reasoning: continue_final_message, and the new reasoning joins the old', async () => {
    const s = await server({ reasoningIn: 'reasoning', reply: () => longReply(3000) });
    const e = engine(s.url);
    const [first] = await e.generate([request({ maxTokens: 2000 })], () => {});
    const [rest] = await e.generate([request({ maxTokens: 2000 }, { continuation: first!.text })], () => {});
    const last = (s.stats.bodies[1]!.messages as { role: string; content: string }[]).at(-1);
    expect(last).toEqual({ role: 'assistant', content: first!.text });
    expect(s.stats.bodies[1]).toMatchObject({ continue_final_message: true, add_generation_prompt: false });
    expect(rest!.finishReason).toBe('eos');
    expect(rest!.text.startsWith('<think>')).toBe(false);
    const whole = parseModelOutput(first!.text + rest!.text);
    expect(whole.observation).toBe('build  dist  src');
    expect(whole.reasoning!.split(/\s+/)).toHaveLength(3000);
  });

  it('waits for a first chunk that is slow to come, and cancel still ends the wait', async () => {
    const slow = await server({ firstChunkDelayMs: 400, reply: () => longReply(5) });
    const [late] = await engine(slow.url).generate([request()], () => {});
    expect(parseModelOutput(late!.text).observation).toBe('build  dist  src');

    const stuck = await server({ firstChunkDelayMs: 600_000, reply: () => longReply(5) });
    const controller = new AbortController();
    const pending = engine(stuck.url).generate([request()], () => {}, controller.signal);
    await expect.poll(() => stuck.stats.chatRequests).toBe(1);
    controller.abort();
    const [cancelled] = await pending;
    expect(cancelled!.finishReason).toBe('cancelled');
  });

  it('fits the default budget into a smaller context by what the server says is left', async () => {
    const s = await startFakeVllm({ models: [{ id: 'agentworld', max_model_len: 4096 }], reasoningIn: 'reasoning', reply: () => longReply(3000) });
    servers.push(s);
    const [result] = await engine(s.url).generate([request({ maxTokens: 32_768 })], () => {});
    const prompt = 'A shell.'.length + '### Turn 1\n**Action:**\nls'.length;
    expect(s.stats.bodies.map((b) => b.max_tokens)).toEqual([32_768, 4096 - prompt]);
    expect(result!.finishReason).toBe('eos');
  });
});
