// Reads one streamed chat completion into a GenerateResult: text (reasoning inlined as
// <think> tags), token counts, timings and why it finished.
import type { FinishReason, GenerateRequest, GenerateResult, TokenEvent } from '../../common/engine';
import { incompleteness } from '../../common/prompt/model-output';
import { finishReasonOf, ReasoningInliner, type ChatChunk } from './chat-request';
import { sseData } from './sse';

/**
 * A stream that failed before its first token: it ended without an answer, sent something
 * unreadable, or reported an error in an event (`status` is the code the event carried,
 * else 502 for a bad gateway-like answer, which is worth a retry).
 */
export class StreamFailure extends Error {
  constructor(
    message: string,
    readonly status = 502,
    /** False when trying again cannot help: the server answered, just not in a shape a chat completion has. */
    readonly retryable = true,
  ) {
    super(message);
  }
}

/** The parts of a whole (non-streamed) chat completion the engine reads. */
interface ChatCompletion {
  choices?: { message?: NonNullable<NonNullable<ChatChunk['choices']>[number]['delta']>; finish_reason?: string | null; stop_reason?: string | number | null; matched_stop?: string | number | null }[];
  usage?: ChatChunk['usage'];
  error?: ChatChunk['error'];
}

/** The text, counts and timings of one streamed answer, as it arrives. */
export class CompletionStream {
  #text = '';
  #chunksWithText = 0;
  #firstTokenAt: number | undefined;
  #usage: ChatChunk['usage'];
  readonly #reasoning: ReasoningInliner;

  constructor(
    private readonly request: GenerateRequest,
    private readonly onToken: (e: TokenEvent) => void,
    private readonly startedAt: number,
  ) {
    // A continuation cut inside its reasoning goes on reasoning: its new reasoning needs no second <think>.
    const continued = request.continuation ?? '';
    this.#reasoning = new ReasoningInliner(continued !== '' && incompleteness(continued, 'length') === 'reasoning');
  }

  get emitted(): boolean {
    return this.#text !== '';
  }

  /**
   * A whole chat completion, as a server (or a proxy in front of it) that does not stream
   * answers even when asked to: the same text, counts and finish reason as a stream gives.
   */
  readWhole(text: string): GenerateResult {
    let body: ChatCompletion;
    try {
      body = JSON.parse(text) as ChatCompletion;
    } catch {
      throw new StreamFailure(`answered without a stream, and its answer is not JSON either: ${text.slice(0, 200) || '(empty)'}`, 502, false);
    }
    if (body.error) {
      const message = typeof body.error === 'string' ? body.error : (body.error.message ?? JSON.stringify(body.error));
      const code = typeof body.error === 'object' ? Number(body.error.code) : NaN;
      throw new StreamFailure(message, code >= 400 && code < 600 ? code : 502);
    }
    const choice = body.choices?.[0];
    if (!choice?.message) throw new StreamFailure(`answered without a stream, and its JSON has no choices[0].message: ${text.slice(0, 200)}`, 502, false);
    this.#usage = body.usage;
    const piece = this.#reasoning.push(choice.message);
    const stoppedBy = 'stop_reason' in choice ? choice.stop_reason : 'matched_stop' in choice ? choice.matched_stop : undefined;
    const finish = finishReasonOf(choice.finish_reason, stoppedBy, this.request.sampling.stop.length > 0) ?? 'eos';
    const whole = piece + (finish === 'eos' || finish === 'stop' ? this.#reasoning.close() : '');
    if (whole !== '') {
      this.#firstTokenAt = performance.now();
      this.#text = whole;
      this.#chunksWithText = 1;
      this.onToken({ requestId: this.request.id, text: whole });
    }
    return this.result(finish);
  }

  async read(body: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<GenerateResult> {
    let finish: FinishReason | null = null;
    let events = 0;
    for await (const data of sseData(body)) {
      events++;
      if (data.trim() === '[DONE]') break;
      let chunk: ChatChunk;
      try {
        chunk = JSON.parse(data) as ChatChunk;
      } catch {
        throw new StreamFailure(`the server sent a stream event that is not JSON: ${data.slice(0, 200)}`);
      }
      if (chunk.error) {
        const message = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? JSON.stringify(chunk.error));
        if (this.emitted) return this.result('error', `The server stopped with an error: ${message}`);
        const code = typeof chunk.error === 'object' ? Number(chunk.error.code) : NaN;
        throw new StreamFailure(message, code >= 400 && code < 600 ? code : 502);
      }
      if (chunk.usage) this.#usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const piece = choice.delta ? this.#reasoning.push(choice.delta) : '';
      if (piece !== '') {
        this.#firstTokenAt ??= performance.now();
        this.#text += piece;
        this.#chunksWithText++;
        this.onToken({ requestId: this.request.id, text: piece });
      }
      // vLLM sends stop_reason: null for an end-of-sequence token, so "present but null" counts.
      const stoppedBy = 'stop_reason' in choice ? choice.stop_reason : 'matched_stop' in choice ? choice.matched_stop : undefined;
      finish = finishReasonOf(choice.finish_reason, stoppedBy, this.request.sampling.stop.length > 0) ?? finish;
    }
    if (signal.aborted) return this.result('cancelled');
    if (finish === 'eos' || finish === 'stop') {
      const closing = this.#reasoning.close();
      if (closing) {
        this.#text += closing;
        this.onToken({ requestId: this.request.id, text: closing });
      }
    }
    if (finish === null) {
      if (this.emitted) return this.result('error', 'The server closed the stream before the answer was finished.');
      // No event at all is a server that does not stream this way, not a busy one: saying "try again" would mislead.
      if (events === 0) throw new StreamFailure('answered 200 but sent no stream events: it does not stream chat completions as /v1/chat/completions with stream: true should', 502, false);
      throw new StreamFailure('the server closed the stream before any text or finish reason (it may have crashed or restarted mid-answer)');
    }
    return this.result(finish);
  }

  result(finishReason: FinishReason, error?: string): GenerateResult {
    const end = performance.now();
    const firstToken = this.#firstTokenAt ?? end;
    return {
      id: this.request.id,
      text: this.#text,
      finishReason,
      ...(error ? { error } : {}),
      promptTokens: this.#usage?.prompt_tokens ?? 0,
      // Servers that send no usage get one token per streamed chunk, which is how they stream.
      completionTokens: this.#usage?.completion_tokens ?? this.#chunksWithText,
      cachedPromptTokens: this.#usage?.prompt_tokens_details?.cached_tokens ?? 0,
      timings: { prefillMs: firstToken - this.startedAt, decodeMs: end - firstToken, totalMs: end - this.startedAt },
    };
  }
}
