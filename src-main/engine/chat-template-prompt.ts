// What every in-process engine derives from a model's own chat template, whatever tokenizer
// reads the result (tokenizers.js for ONNX folders, llama.cpp for GGUF files): the prompt text
// with an unfinished answer continued, where later prompts will diverge from it, and whether the
// template makes room for reasoning. One copy, so the exact prompt of a step is the same text on
// every engine.

import type { ChatMessage } from '../common/engine';

export type TemplateKwargs = Record<string, string | number | boolean>;

export interface ChatPrompt {
  tokens: number[];
  /**
   * Token counts, ascending and short of the whole prompt, where later prompts are likely to
   * diverge from this one, so the cache there is worth keeping: where the last message's
   * content starts (a sibling: same history, another action) and where the answer to it
   * starts (a child: this turn answered, then the next action).
   */
  snapshots: number[];
  /**
   * Text the output starts with that the prompt already wrote: the open think block
   * (`<think>\n`) when the generation prompt ends inside one, so the stream marks reasoning
   * from its first token; '' otherwise, and for a continuation (which already holds it).
   */
  streamPrefix: string;
}

export interface ChatOptions {
  templateKwargs?: TemplateKwargs;
  /** What the assistant already wrote; the prompt ends after it. */
  continuation?: string;
}

/** The model's template rendered in the sandbox (bounded in time and size). */
export type RenderTemplate = (messages: readonly ChatMessage[], addGenerationPrompt: boolean, templateKwargs?: TemplateKwargs) => Promise<string>;

/** Stands in for the last message's content to find where that content starts. */
const PROBE_CONTENT = '\u2063worldloom probe\u2063';

/** The think block a rendered prompt ends inside ('<think>' and the whitespace after it), or ''. */
export function openThinkBlock(text: string): string {
  const at = text.lastIndexOf('<think>');
  if (at < 0) return '';
  const tail = text.slice(at);
  return /^<think>\s*$/.test(tail) ? tail : '';
}

/** The exact text the model reads for its next turn: the generation prompt and any continuation. */
export async function promptText(render: RenderTemplate, messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<{ text: string; streamPrefix: string }> {
  const rendered = await render(messages, true, options.templateKwargs);
  const open = openThinkBlock(rendered);
  const continuation = options.continuation ?? '';
  if (!continuation) return { text: rendered, streamPrefix: open };
  // The output carries the think block the prompt opened; do not write it twice.
  let rest = continuation;
  if (open && rest.startsWith(open)) rest = rest.slice(open.length);
  else if (open && rest.startsWith('<think>')) rest = rest.slice('<think>'.length).replace(/^\n/, '');
  return { text: rendered + rest, streamPrefix: '' };
}

/** Where a sibling's or a child's prompt will diverge from `tokens`, the prompt for `messages`. */
export async function divergencePoints(
  render: RenderTemplate,
  encode: (text: string) => readonly number[],
  messages: readonly ChatMessage[],
  tokens: readonly number[],
  options: ChatOptions = {},
): Promise<number[]> {
  const shared = (other: string): number => {
    const ids = encode(other);
    let n = 0;
    while (n < tokens.length && n < ids.length && tokens[n] === ids[n]) n++;
    return n;
  };
  // Templates re-render earlier turns depending on what follows (Qwen3.5 adds empty think
  // blocks after the last user turn and trims content), so no rendered history is a text
  // prefix of the prompt. Rendering the conversations a sibling and a child would send, with
  // stand-in content, shows in tokens where each diverges.
  const points: number[] = [];
  const last = messages.at(-1);
  if (messages.length > 1 && last) {
    const sibling = [...messages.slice(0, -1), { ...last, content: PROBE_CONTENT }];
    points.push(shared(await render(sibling, true, options.templateKwargs)));
  }
  if (last?.role === 'user' && !options.continuation) {
    const child = [...messages, { role: 'assistant' as const, content: PROBE_CONTENT }, { role: 'user' as const, content: PROBE_CONTENT }];
    points.push(shared(await render(child, true, options.templateKwargs)));
  }
  return [...new Set(points)].filter((n) => n > 0 && n < tokens.length).sort((a, b) => a - b);
}

/** Whether the model reasons in think blocks, and whether its template lets it stop. */
export async function templateReasoning(render: RenderTemplate, source: string): Promise<{ reasons: boolean; canDisable: boolean }> {
  const probe = await render([{ role: 'user', content: PROBE_CONTENT }], true).catch(() => '');
  return {
    reasons: openThinkBlock(probe) !== '' || source.includes('<think>'),
    canDisable: /\benable_thinking\b/.test(source),
  };
}
