// The prompt of a step for a GGUF model: the file's own chat template (tokenizer.chat_template)
// rendered by the app's template sandbox, exactly as the ONNX engine renders a folder's
// template, then tokenized by llama.cpp with special tokens recognised. The same messages
// therefore give the same prompt text on every engine; only the tokenizer differs, and
// llama.cpp's reads the same vocabulary and merges.

import type { ChatMessage } from '../../common/engine';
import { divergencePoints, promptText, templateReasoning, type ChatOptions, type ChatPrompt, type TemplateKwargs } from '../chat-template-prompt';
import { TemplateSandbox, type TemplateLimits } from '../onnx/template-sandbox';

export interface GgufTokenizer {
  /** Text to ids, special tokens written in the text recognised, none added. */
  encode(text: string): number[];
}

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
  promptText(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<{ text: string; streamPrefix: string }> {
    return promptText(this.renderBound, messages, options);
  }

  /** Tokens of the prompt and the points where a sibling's or a child's prompt will diverge from it. */
  async prepare(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatPrompt> {
    const { text, streamPrefix } = await this.promptText(messages, options);
    const tokens = this.tokenizer.encode(text);
    return { tokens, snapshots: await this.snapshotPoints(messages, tokens, options), streamPrefix };
  }

  /** Whether the model reasons in think blocks, and whether the template lets it stop. */
  reasoning(): Promise<{ reasons: boolean; canDisable: boolean }> {
    return templateReasoning(this.renderBound, this.source);
  }

  // As in the ONNX engine: a checkpoint kept where a sibling's or a child's prompt diverges lets
  // the next path start from it.
  private snapshotPoints(messages: readonly ChatMessage[], tokens: readonly number[], options: ChatOptions): Promise<number[]> {
    return divergencePoints(this.renderBound, (text) => this.tokenizer.encode(text), messages, tokens, options);
  }

  private readonly renderBound = (messages: readonly ChatMessage[], addGenerationPrompt: boolean, templateKwargs?: TemplateKwargs): Promise<string> =>
    this.render(messages, addGenerationPrompt, templateKwargs);
}
