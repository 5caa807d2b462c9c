// The model's own tokenizer and chat template, through @huggingface/tokenizers and
// @huggingface/jinja (the libraries transformers.js uses), so prompts are byte-for-byte
// what the model was trained on. The engine renders through a sandboxed worker (a
// template is code that came with a download); trusted build scripts render directly.

import { dirname, join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import { EngineError, type ChatMessage } from '../../common/engine';
import { TemplateSandbox, type TemplateLimits } from './template-sandbox';
import { unsafeTokenizerPattern } from './tokenizer-patterns';
import { modelFileText, parseModelJson } from './model-files';
import { divergencePoints, promptText, templateReasoning, type ChatOptions, type ChatPrompt, type TemplateKwargs } from '../chat-template-prompt';

type TokenizerConfig = Record<string, unknown> & { chat_template?: unknown };

export class ChatTokenizer {
  /** Parsed in this thread only for trusted scripts that render here (a 20 MB template takes seconds). */
  private parsedTemplate: Template | null = null;

  private constructor(
    private readonly tokenizer: Tokenizer,
    private readonly specialTokens: Record<string, string>,
    private readonly source: string,
    private readonly sandbox: TemplateSandbox,
    /** Highest id the tokenizer can produce (its vocabulary and added tokens). */
    readonly maxTokenId: number,
  ) {}

  static load(tokenizerPath: string, tokenizerConfigPath: string, limits?: TemplateLimits): ChatTokenizer {
    const tokenizerJson = readJson(tokenizerPath) as object;
    const config = readJson(tokenizerConfigPath) as TokenizerConfig;
    let tokenizer: Tokenizer;
    try {
      tokenizer = new Tokenizer(tokenizerJson, config);
    } catch (error) {
      throw new EngineError(`${tokenizerPath} could not be loaded as a tokenizer: ${(error as Error).message}`, 'model-corrupt');
    }
    // Its patterns run on every prompt in this thread, where nothing can stop a runaway match.
    const unsafe = unsafeTokenizerPattern(tokenizer);
    if (unsafe) throw new EngineError(`${tokenizerPath} cannot be used: ${unsafe}. Use the model's original tokenizer.json.`, 'model-corrupt');
    const source = chatTemplateSource(config, dirname(tokenizerConfigPath));
    const specialTokens: Record<string, string> = {};
    for (const key of ['bos_token', 'eos_token', 'pad_token', 'unk_token']) {
      const value = config[key];
      const content = typeof value === 'string' ? value : (value as { content?: unknown } | null)?.content;
      if (typeof content === 'string') specialTokens[key] = content;
    }
    const sandbox = new TemplateSandbox(source, tokenizerConfigPath, limits);
    return new ChatTokenizer(tokenizer, specialTokens, source, sandbox, maxTokenId(tokenizerJson));
  }

  /** Ends the template's rendering thread. */
  close(): Promise<void> {
    return this.sandbox.close();
  }

  /** Plain text to ids; special tokens written in the text are recognised, none are added. */
  encode(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  /** Ids to text, dropping control tokens (reasoning tags are not special and stay). */
  decode(ids: readonly number[]): string {
    return this.tokenizer.decode([...ids], { skip_special_tokens: true });
  }

  /** Renders in this thread, without limits: for trusted build and evaluation scripts only. */
  renderChat(messages: readonly ChatMessage[], addGenerationPrompt: boolean, templateKwargs: TemplateKwargs = {}): string {
    return this.template().render(this.context(messages, addGenerationPrompt, templateKwargs));
  }

  private template(): Template {
    if (!this.parsedTemplate) {
      try {
        this.parsedTemplate = new Template(this.source);
      } catch (error) {
        throw new EngineError(`The chat template of this model does not parse: ${(error as Error).message}`, 'model-corrupt');
      }
    }
    return this.parsedTemplate;
  }

  /** The prompt for the model's next assistant turn, rendered in this thread (trusted scripts). */
  encodeChat(messages: readonly ChatMessage[]): { tokens: number[] } {
    return { tokens: this.encode(this.renderChat(messages, true)) };
  }

  /** Renders in the sandbox: bounded in time and size. */
  renderSafely(messages: readonly ChatMessage[], addGenerationPrompt: boolean, templateKwargs: TemplateKwargs = {}): Promise<string> {
    return this.sandbox.render(this.context(messages, addGenerationPrompt, templateKwargs));
  }

  /** The exact text the model reads for its next turn: the generation prompt and any continuation. */
  promptText(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<{ text: string; streamPrefix: string }> {
    return promptText(this.render, messages, options);
  }

  /** Tokens of the prompt; `snapshots` are found only when asked (they cost two more renders). */
  async prepare(messages: readonly ChatMessage[], options: ChatOptions & { findSnapshots?: boolean } = {}): Promise<ChatPrompt> {
    const { text, streamPrefix } = await this.promptText(messages, options);
    const tokens = this.encode(text);
    const snapshots = options.findSnapshots ? await this.snapshotPoints(messages, tokens, options) : [];
    return { tokens, snapshots, streamPrefix };
  }

  /** Where a sibling's or a child's prompt will diverge from `tokens`, the prompt for `messages`. */
  snapshotPoints(messages: readonly ChatMessage[], tokens: readonly number[], options: ChatOptions = {}): Promise<number[]> {
    return divergencePoints(this.render, (text) => this.encode(text), messages, tokens, options);
  }

  /** Whether the model reasons in think blocks, and whether the template lets it stop. */
  reasoning(): Promise<{ reasons: boolean; canDisable: boolean }> {
    return templateReasoning(this.render, this.source);
  }

  private readonly render = (messages: readonly ChatMessage[], addGenerationPrompt: boolean, templateKwargs?: TemplateKwargs): Promise<string> =>
    this.renderSafely(messages, addGenerationPrompt, templateKwargs);

  private context(messages: readonly ChatMessage[], addGenerationPrompt: boolean, templateKwargs: TemplateKwargs): Record<string, unknown> {
    return {
      ...this.specialTokens,
      ...templateKwargs,
      messages: messages.map((message) => ({ role: message.role, content: message.content })),
      add_generation_prompt: addGenerationPrompt,
    };
  }
}

/** tokenizer_config.json's chat_template (a string, or a list of named ones), else chat_template.jinja beside it. */
function chatTemplateSource(config: TokenizerConfig, folder: string): string {
  const value = config.chat_template;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const named = value as { name?: string; template?: string }[];
    const chosen = named.find((entry) => entry.name === 'default') ?? named[0];
    if (typeof chosen?.template === 'string') return chosen.template;
  }
  const jinja = modelFileText(join(folder, 'chat_template.jinja'));
  if (jinja !== null) return jinja;
  throw new EngineError(
    `The model in ${folder} has no chat template (tokenizer_config.json chat_template or chat_template.jinja).`,
    'model-corrupt',
  );
}

function maxTokenId(tokenizerJson: object): number {
  const json = tokenizerJson as { model?: { vocab?: unknown }; added_tokens?: { id?: unknown }[] };
  let max = -1;
  const vocab = json.model?.vocab;
  if (Array.isArray(vocab)) max = vocab.length - 1;
  else if (vocab && typeof vocab === 'object') for (const id of Object.values(vocab)) if (typeof id === 'number' && id > max) max = id;
  for (const token of json.added_tokens ?? []) if (typeof token.id === 'number' && token.id > max) max = token.id;
  return max;
}

function readJson(path: string): unknown {
  const text = modelFileText(path);
  if (text === null) throw new EngineError(`Model file missing: ${path}.`, 'model-missing');
  return parseModelJson(text, path);
}
