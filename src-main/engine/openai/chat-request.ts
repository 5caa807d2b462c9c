// The /v1/chat/completions request body for one GenerateRequest, and the reading of the
// streamed chunks that answer it.
import type { FinishReason, GenerateRequest } from '../../common/engine';

/**
 * Which server's names the request uses where they differ. llama.cpp's server says who it is in
 * its model list (`owned_by: "llamacpp"`); every other server gets the vLLM/SGLang names.
 */
export type ServerDialect = 'openai' | 'llama.cpp';

export function chatCompletionBody(
  request: GenerateRequest,
  model: string,
  extraBody: Readonly<Record<string, unknown>>,
  server: ServerDialect = 'openai',
): Record<string, unknown> {
  const s = request.sampling;
  const messages: { role: string; content: string }[] = request.messages.map((m) => ({ role: m.role, content: m.content }));
  const continuing = request.continuation !== undefined && request.continuation !== '';
  // The server's own template variables first, the request's on top (enable_thinking: false).
  const templateKwargs = { ...(extraBody.chat_template_kwargs as Record<string, unknown> | undefined), ...request.templateKwargs };
  if (continuing) messages.push({ role: 'assistant', content: request.continuation! });
  return {
    // Server-specific extras first, so they can never replace the fields below.
    ...extraBody,
    model,
    messages,
    stream: true,
    // Asks for a last chunk with token counts (vLLM, SGLang, OpenAI); others ignore it.
    stream_options: { include_usage: true },
    max_tokens: s.maxTokens,
    temperature: s.temperature,
    top_p: s.topP,
    // Not in the OpenAI schema; vLLM, SGLang and llama.cpp read it as an extra field.
    ...(s.topK > 0 ? { top_k: s.topK } : {}),
    seed: s.seed,
    ...(s.stop.length > 0 ? { stop: s.stop } : {}),
    // Left out when off, so a server applies its own default (vLLM: the model's generation_config.json).
    ...(s.presencePenalty ? { presence_penalty: s.presencePenalty } : {}),
    // vLLM and SGLang read `repetition_penalty`; llama.cpp's server reads only `repeat_penalty`.
    ...(s.repetitionPenalty !== undefined && s.repetitionPenalty !== 1
      ? { [server === 'llama.cpp' ? 'repeat_penalty' : 'repetition_penalty']: s.repetitionPenalty }
      : {}),
    ...(Object.keys(templateKwargs).length > 0 ? { chat_template_kwargs: templateKwargs } : {}),
    // Resume the last assistant message instead of starting a new one: vLLM and SGLang read
    // continue_final_message (vLLM also wants add_generation_prompt off); llama.cpp's server
    // continues a trailing assistant message by itself. The server's chat template renders the
    // message first (Qwen3-family templates put an empty think block before an open one), so
    // this resumes close to, not exactly at, where the in-process engine would.
    ...(continuing ? { continue_final_message: true, add_generation_prompt: false } : {}),
  };
}

/** The parts of a streamed chunk the engine reads. */
export interface ChatChunk {
  choices?: {
    delta?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null };
    finish_reason?: string | null;
    /** vLLM: the stop string or token id that ended the text; null for EOS. */
    stop_reason?: string | number | null;
    /** SGLang's name for the same. */
    matched_stop?: string | number | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
  } | null;
  /** Some servers report a failure inside the stream instead of with a status code. */
  error?: { message?: string; code?: number | string } | string;
}

/**
 * Reasoning can arrive in its own field (`reasoning` in current vLLM, `reasoning_content` in
 * SGLang and older vLLM) or inline as <think> tags in the content (a server without a
 * reasoning parser). Engines hand out one text stream, so field reasoning is wrapped in
 * <think>…</think> here and every shape reaches the output parser
 * (src-main/common/prompt/model-output.ts) alike.
 */
export class ReasoningInliner {
  #inReasoning: boolean;

  /** `insideReasoning`: the stream continues a text whose think block is still open. */
  constructor(insideReasoning = false) {
    this.#inReasoning = insideReasoning;
  }

  /** The text this delta adds to the stream. */
  push(delta: NonNullable<NonNullable<ChatChunk['choices']>[number]['delta']>): string {
    let text = '';
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) {
      if (!this.#inReasoning) text += '<think>';
      this.#inReasoning = true;
      text += reasoning;
    }
    if (delta.content) {
      if (this.#inReasoning) text += '</think>';
      this.#inReasoning = false;
      text += delta.content;
    }
    return text;
  }

  /**
   * What closes the text when the answer ended on its own: a server's reasoning parser ends
   * the reasoning field when the model closes its think block, so an answer that finished
   * there wrote nothing after it. (A length cut leaves the block open: it ended inside.)
   */
  close(): string {
    if (!this.#inReasoning) return '';
    this.#inReasoning = false;
    return '</think>';
  }
}

/**
 * OpenAI says only "stop" for both a natural end and a stop string; vLLM and SGLang say
 * which. Without that hint, a request with stop strings is reported as stopped by one.
 */
export function finishReasonOf(
  reason: string | null | undefined,
  stoppedBy: string | number | null | undefined,
  hadStopStrings: boolean,
): FinishReason | null {
  switch (reason) {
    case null:
    case undefined:
      return null;
    case 'length':
      return 'length';
    case 'abort':
      return 'cancelled';
    case 'stop':
      if (typeof stoppedBy === 'string') return 'stop';
      if (stoppedBy === null || typeof stoppedBy === 'number') return 'eos';
      return hadStopStrings ? 'stop' : 'eos';
    default:
      // tool_calls, content_filter…: the model stopped for its own reason.
      return 'stop';
  }
}
