// The prompt of a step for a GGUF model: the file's own chat template (tokenizer.chat_template)
// rendered by the app's template sandbox, exactly as the ONNX engine renders a folder's
// template, then tokenized by llama.cpp with special tokens recognised. The same messages
// therefore give the same prompt text on every engine; only the tokenizer differs, and
// llama.cpp's reads the same vocabulary and merges.

import type { ChatMessage } from '../../common/engine';
import { openThinkBlock, type ChatOptions, type ChatPrompt, type TemplateKwargs } from '../onnx/chat-tokenizer';
import { TemplateSandbox, type TemplateLimits } from '../onnx/template-sandbox';

export interface GgufTokenizer {
  /** Text to ids, special tokens written in the text recognised, none added. */
  encode(text: string): number[];
}

/** Stands in for the last message's content to find where that content starts. */
const PROBE_CONTENT = '\u2063worldloom probe\u2063';

export class GgufChatPrompt {
  private readonly sandbox: TemplateSandbox;

  constructor(
    private readonly source: string,
    private readonly tokenizer: GgufTokenizer,
    /** bos_token / eos_token as the template expects them (text). */
    private readonly specialTokens: Record<string, string>,
    where: string,
    limits?: TemplateLimits,
  ) {
    this.sandbox = new TemplateSandbox(source, where, limits);
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }

  render(messages: readonly ChatMessage[], addGenerationPrompt: boolean, templateKwargs: TemplateKwargs = {}): Promise<string> {
    return this.sandbox.render({
      ...this.specialTokens,
      ...templateKwargs,
      messages: messages.map((message) => ({ role: message.role, content: message.content })),
      add_generation_prompt: addGenerationPrompt,
    });
  }

  /** The exact text the model reads for its next turn: the generation prompt and any continuation. */
  async promptText(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<{ text: string; streamPrefix: string }> {
    const rendered = await this.render(messages, true, options.templateKwargs);
    const open = openThinkBlock(rendered);
    const continuation = options.continuation ?? '';
    if (!continuation) return { text: rendered, streamPrefix: open };
    // The continuation carries the think block the prompt opened; it is not written twice.
    let rest = continuation;
    if (open && rest.startsWith(open)) rest = rest.slice(open.length);
    else if (open && rest.startsWith('<think>')) rest = rest.slice('<think>'.length).replace(/^\n/, '');
    return { text: rendered + rest, streamPrefix: '' };
  }

  /** Tokens of the prompt and the points where a sibling's or a child's prompt will diverge from it. */
  async prepare(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatPrompt> {
    const { text, streamPrefix } = await this.promptText(messages, options);
    const tokens = this.tokenizer.encode(text);
    return { tokens, snapshots: await this.snapshotPoints(messages, tokens, options), streamPrefix };
  }

  /** Whether the model reasons in think blocks, and whether the template lets it stop. */
  async reasoning(): Promise<{ reasons: boolean; canDisable: boolean }> {
    const probe = await this.render([{ role: 'user', content: PROBE_CONTENT }], true).catch(() => '');
    return {
      reasons: openThinkBlock(probe) !== '' || this.source.includes('<think>'),
      canDisable: /\benable_thinking\b/.test(this.source),
    };
  }

  private async snapshotPoints(messages: readonly ChatMessage[], tokens: readonly number[], options: ChatOptions): Promise<number[]> {
    const shared = (other: string): number => {
      const ids = this.tokenizer.encode(other);
      let n = 0;
      while (n < tokens.length && n < ids.length && tokens[n] === ids[n]) n++;
      return n;
    };
    // As in the ONNX engine: templates re-render earlier turns depending on what follows, so the
    // conversations a sibling and a child would send, with stand-in content, show in tokens
    // where each diverges; a checkpoint kept there lets the next branch start from it.
    const points: number[] = [];
    const last = messages.at(-1);
    if (messages.length > 1 && last) {
      points.push(shared(await this.render([...messages.slice(0, -1), { ...last, content: PROBE_CONTENT }], true, options.templateKwargs)));
    }
    if (last?.role === 'user' && !options.continuation) {
      const child = [...messages, { role: 'assistant' as const, content: PROBE_CONTENT }, { role: 'user' as const, content: PROBE_CONTENT }];
      points.push(shared(await this.render(child, true, options.templateKwargs)));
    }
    return [...new Set(points)].filter((n) => n > 0 && n < tokens.length).sort((a, b) => a - b);
  }
}
