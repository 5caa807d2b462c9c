// Turns what went wrong talking to an OpenAI-compatible server into either "try again"
// or an EngineError that tells the user what happened and what to do about it.
import { EngineError } from '../../common/engine';

export const API_KEY_ENV = 'WORLDLOOM_API_KEY';

export interface ServerContext {
  /** The base URL as the user gave it, for messages. */
  baseUrl: string;
  model: string;
  hasApiKey: boolean;
  maxTokens?: number;
  contextLength?: number;
}

export type Failure =
  | { retryable: true; reason: string; retryAfter?: string | null }
  | { retryable: false; error: EngineError }
  /** The server does not know the model; the caller lists the models it does know. */
  | { retryable: false; unknownModel: true; serverMessage: string };

/** The `message` of the error bodies vLLM, SGLang, llama.cpp and OpenAI send, else the raw text. */
export function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown; detail?: unknown };
    const candidates = [
      parsed.message,
      typeof parsed.error === 'object' && parsed.error !== null ? (parsed.error as { message?: unknown }).message : parsed.error,
      parsed.detail,
    ];
    const found = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '');
    if (found) return found.trim();
  } catch {
    // Not JSON: some proxies answer with plain text or HTML.
  }
  const text = body.replace(/\s+/g, ' ').trim();
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

const CONTEXT_OVERFLOW = /context length|maximum context|context window|context size|max_model_len|exceed_context|prompt is too long|too many tokens/i;
const UNKNOWN_MODEL = /model\b.*\b(does not exist|not found|is not (served|available|loaded))|unknown model|no such model|model_not_found/i;

export function failureFromStatus(status: number, body: string, ctx: ServerContext, retryAfter?: string | null): Failure {
  const message = serverMessage(body);
  const said = message ? `: the server said "${message}"` : '';
  if (status === 401 || status === 403) {
    const key = ctx.hasApiKey
      ? 'the API key was not accepted (wrong key, or it lacks access)'
      : 'no API key was sent and the server requires one';
    return {
      retryable: false,
      error: new EngineError(
        `The model server at ${ctx.baseUrl} refused the request (${status}): ${key}. ` +
          `Enter the right key in the model panel or set the ${API_KEY_ENV} environment variable.`,
        'unauthorized',
      ),
    };
  }
  if (status >= 400 && status < 500 && CONTEXT_OVERFLOW.test(message)) {
    const window = ctx.contextLength ? ` of ${ctx.contextLength} tokens` : '';
    const maxTokens = ctx.maxTokens !== undefined ? ` (now ${ctx.maxTokens})` : '';
    return {
      retryable: false,
      error: new EngineError(
        `The prompt does not fit the model's context window${window}${said}. ` +
          `Shorten the history (start from a later node), or lower max tokens${maxTokens}.`,
        'context-overflow',
      ),
    };
  }
  if (status === 404 || UNKNOWN_MODEL.test(message)) return { retryable: false, unknownModel: true, serverMessage: message };
  if (status === 408 || status === 429 || status >= 500) {
    return { retryable: true, reason: `${status}${message ? ` ${message}` : ''}`, retryAfter };
  }
  return {
    retryable: false,
    error: new EngineError(`The model server at ${ctx.baseUrl} rejected the request (${status})${said}.`, 'bad-response'),
  };
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'timed out while connecting',
  UND_ERR_SOCKET: 'connection closed by the server',
};

// The server accepted the connection and then dropped it: it is there, but failing.
const DROPPED_BY_SERVER = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** fetch() hides the socket error in `cause` (sometimes an AggregateError, one per address tried). */
function networkCode(err: unknown): string | undefined {
  const seen: unknown[] = [];
  const walk = (e: unknown): string | undefined => {
    if (e === null || typeof e !== 'object' || seen.includes(e)) return undefined;
    seen.push(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_REASONS[code]) return code;
    for (const inner of (e as { errors?: unknown[] }).errors ?? []) {
      const found = walk(inner);
      if (found) return found;
    }
    return walk((e as { cause?: unknown }).cause);
  };
  return walk(err);
}

export function networkReason(err: unknown): string {
  const code = networkCode(err);
  return code ? NETWORK_REASONS[code]! : (err as Error)?.message || String(err);
}

export function droppedByServer(err: unknown): boolean {
  const code = networkCode(err);
  return code !== undefined && DROPPED_BY_SERVER.has(code);
}

export function unreachableError(ctx: ServerContext, reason: string, attempts: number): EngineError {
  const tries = attempts > 1 ? ` after ${attempts} tries` : '';
  return new EngineError(
    `Cannot reach the model server at ${ctx.baseUrl} (${reason}${tries}). ` +
      'Check that the server is running and that the URL and port are right.',
    'unreachable',
  );
}

export function keptFailingError(ctx: ServerContext, reason: string, attempts: number): EngineError {
  return new EngineError(
    `The model server at ${ctx.baseUrl} kept failing after ${attempts} tries (last answer: ${reason}). ` +
      'It may be overloaded or still loading the model; try again in a moment.',
    'bad-response',
  );
}

export function unknownModelError(ctx: ServerContext, serverSaid: string, served: string[] | string): EngineError {
  const said = serverSaid ? ` (the server said "${serverSaid}")` : '';
  const known =
    typeof served === 'string'
      ? ` It did not list its models either (${served}); check that the URL ends at the API root, usually …/v1.`
      : served.length > 0
        ? ` It serves: ${served.join(', ')}. Pick one of those.`
        : ' It lists no models at all.';
  return new EngineError(`The model server at ${ctx.baseUrl} has no model named "${ctx.model}"${said}.${known}`, 'unknown-model');
}
