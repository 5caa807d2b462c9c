// MCP perturbations. An MCP observation is a tool result as the client receives it:
// `{"content":[{"type":"text","text":…}], "isError"?: true, "structuredContent"?: …}`,
// or a JSON-RPC error when the call itself failed. Results stay valid JSON unless the kind
// is about broken JSON, and keep the observation's own layout (pretty or compact).
import { z } from 'zod';
import type { Rng } from '../rng';
import { defineKind } from '../kind';
import { toolNameOf } from './action-hints';

interface ContentItem {
  type: string;
  text?: string;
  [key: string]: unknown;
}
interface ToolResult {
  content: ContentItem[];
  isError?: boolean;
  structuredContent?: unknown;
  [key: string]: unknown;
}

/** The observation as a tool result; text that is not one is taken as a single text item. */
function parseResult(observation: string): ToolResult {
  try {
    const value = JSON.parse(observation) as ToolResult;
    if (value && typeof value === 'object' && Array.isArray(value.content)) return value;
  } catch {
    // Not JSON: a plain-text rendering of a result, treated as its one text item.
  }
  return { content: [{ type: 'text', text: observation }] };
}

/** JSON in the observation's own layout: indented if it was, compact if it was not. */
function render(value: unknown, like: string): string {
  const pretty = like.trimStart().startsWith('{') && like.trim().includes('\n');
  return (pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)) + (like.endsWith('\n') ? '\n' : '');
}

function errorResult(text: string, like: string): string {
  return render({ content: [{ type: 'text', text }], isError: true }, like);
}

/** A JSON-RPC error response, for failures of the call itself rather than of the tool. */
function rpcError(rng: Rng, code: number, message: string, data: Record<string, unknown>, like: string): string {
  return render({ jsonrpc: '2.0', id: 1 + rng.int(999), error: { code, message, data } }, like);
}

const toolError = defineKind({
  id: 'mcp.tool-error',
  domain: 'mcp',
  label: 'Tool returns an error',
  description: 'The tool runs but fails; the result carries isError: true and an error message instead of data.',
  params: z.object({
    reason: z.enum(['not-found', 'invalid-argument', 'internal', 'upstream-unavailable']).default('not-found'),
    message: z.string().default('').describe('Exact error text; empty = a typical message for the reason'),
  }),
  instruction: (p, ctx) =>
    `The tool \`${toolNameOf(ctx.action)}\` fails with a ${p.reason.replace(/-/g, ' ')} error. Return a tool result with ` +
    `"isError": true whose only content is one text item with the error message${p.message ? ` "${p.message}"` : ''}; no data.`,
  transform(observation, p, _rng, ctx) {
    const tool = toolNameOf(ctx.action);
    const reasons = {
      'not-found': '404 Not Found: the requested resource does not exist',
      'invalid-argument': 'invalid arguments: one or more parameters do not match the expected format',
      internal: 'internal error: an unexpected exception occurred in the tool',
      'upstream-unavailable': '503 Service Unavailable: the upstream service did not respond',
    };
    return errorResult(p.message || `Error executing tool ${tool}: ${reasons[p.reason]}`, observation);
  },
});

/** Breaks the type of one field: the shapes a sloppy server really sends. */
function wrongType(value: unknown): unknown {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : null;
  if (Array.isArray(value)) return value.length > 0 ? value[0] : {};
  return value === null ? '' : JSON.stringify(value);
}

/** The first JSON object inside a value (the item of a list result, the result itself). */
function firstObject(value: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(value)) return value.map(firstObject).find(Boolean);
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

const schemaViolation = defineKind({
  id: 'mcp.schema-violation',
  domain: 'mcp',
  label: 'Payload violates the schema',
  description: "The result's data does not match the tool's declared output: a field has the wrong type, is missing or unexpected, or the result envelope itself is malformed.",
  params: z.object({
    violation: z.enum(['wrong-type', 'missing-field', 'extra-field', 'envelope']).default('wrong-type'),
    field: z.string().default('').describe('Field to break; empty = one chosen by the seed'),
  }),
  instruction: (p) =>
    p.violation === 'envelope'
      ? 'The server returns a malformed result: "content" is a plain string instead of a list of content items.'
      : `The tool returns data that violates its output schema: ${
          { 'wrong-type': 'one field has the wrong JSON type (a number as a string, a list where one item is expected)', 'missing-field': 'a required field is missing', 'extra-field': 'an undeclared field appears' }[p.violation]
        }${p.field ? ` (field "${p.field}")` : ''}. Everything else looks normal and there is no error flag.`,
  transform(observation, p, rng) {
    const result = parseResult(observation);
    const item = result.content.find((c) => c.type === 'text' && typeof c.text === 'string');
    let data: unknown;
    try {
      data = item ? JSON.parse(item.text!) : undefined;
    } catch {
      data = undefined;
    }
    const target = firstObject(data) ?? firstObject(result.structuredContent);
    const keys = target ? Object.keys(target) : [];
    // Without JSON data there is no field to break; the envelope is broken instead.
    if (p.violation === 'envelope' || !target || (keys.length === 0 && p.violation !== 'extra-field')) {
      return render({ content: result.content.map((c) => c.text ?? '').join('\n') }, observation);
    }
    const key = p.field && keys.includes(p.field) ? p.field : rng.pick(keys.length > 0 ? keys : ['id']);
    if (p.violation === 'wrong-type') target[key] = wrongType(target[key]);
    else if (p.violation === 'missing-field') delete target[key];
    else target[p.field || `${key}_internal`] = { debug: true, trace: `req-${rng.int(1e6)}` };
    if (item && data !== undefined) item.text = item.text!.includes('\n') ? JSON.stringify(data, null, 2) : JSON.stringify(data);
    return render(result, observation);
  },
});

const truncatedResult = defineKind({
  id: 'mcp.truncated-result',
  domain: 'mcp',
  label: 'Truncated result',
  description: 'The result is cut short: either the stream stops mid-JSON, or the server clips the text and says so.',
  params: z.object({
    keepFraction: z.number().min(0).max(1).default(0.5),
    style: z.enum(['cut-stream', 'server-truncated']).default('server-truncated'),
  }),
  instruction: (p) =>
    p.style === 'cut-stream'
      ? `The connection drops while the result is being sent: only the first ${Math.round(p.keepFraction * 100)}% of the JSON arrives, ending mid-value.`
      : `The server clips long results: the text content stops after about ${Math.round(p.keepFraction * 100)}% of its length and ends with a note saying how many characters were kept. The JSON stays valid.`,
  transform(observation, p) {
    if (p.style === 'cut-stream') return observation.slice(0, Math.floor(observation.length * p.keepFraction));
    const result = parseResult(observation);
    for (const item of result.content) {
      if (item.type !== 'text' || typeof item.text !== 'string') continue;
      const total = item.text.length;
      const kept = Math.floor(total * p.keepFraction);
      item.text = `${item.text.slice(0, kept)}\n\n[Response truncated: showing ${kept} of ${total} characters]`;
    }
    delete result.structuredContent;
    return render(result, observation);
  },
});

const rateLimited = defineKind({
  id: 'mcp.rate-limited',
  domain: 'mcp',
  label: 'Rate limited (429)',
  description: 'The upstream API refuses the call with 429 Too Many Requests and a retry delay.',
  params: z.object({
    retryAfterSeconds: z.number().int().min(0).default(30),
    limit: z.number().int().positive().default(60),
    window: z.enum(['minute', 'hour', 'day']).default('minute'),
    style: z.enum(['tool-result', 'jsonrpc-error']).default('tool-result'),
  }),
  instruction: (p, ctx) =>
    `The API behind \`${toolNameOf(ctx.action)}\` is rate limited at ${p.limit} requests per ${p.window} and the limit is used up. ` +
    `The call fails with HTTP 429 Too Many Requests and says to retry after ${p.retryAfterSeconds} seconds` +
    (p.style === 'tool-result' ? ', as a tool result with "isError": true.' : ', as a JSON-RPC error response.'),
  transform(observation, p, rng, ctx) {
    const text = `429 Too Many Requests: rate limit of ${p.limit} requests per ${p.window} exceeded. Retry after ${p.retryAfterSeconds} seconds.`;
    if (p.style === 'jsonrpc-error') {
      return rpcError(rng, -32000, 'Rate limit exceeded', { status: 429, retryAfter: p.retryAfterSeconds }, observation);
    }
    return errorResult(`Error executing tool ${toolNameOf(ctx.action)}: ${text}`, observation);
  },
});

const authExpired = defineKind({
  id: 'mcp.auth-expired',
  domain: 'mcp',
  label: 'Expired auth',
  description: "The server's credentials for its upstream service have expired; the call is refused with 401.",
  params: z.object({
    service: z.string().default('').describe('Service whose credentials expired; empty = from the tool name'),
    credential: z.enum(['oauth-token', 'api-key']).default('oauth-token'),
  }),
  instruction: (p, ctx) =>
    `The ${p.credential === 'oauth-token' ? 'OAuth access token' : 'API key'} used for ${p.service || serviceOf(toolNameOf(ctx.action))} has expired. ` +
    'The call fails with 401 Unauthorized as a tool result with "isError": true, asking to sign in again; no data is returned.',
  transform(observation, p, _rng, ctx) {
    const tool = toolNameOf(ctx.action);
    const service = p.service || serviceOf(tool);
    const text =
      p.credential === 'oauth-token'
        ? `Error executing tool ${tool}: 401 Unauthorized: the access token for ${service} has expired. Sign in again to continue.\n` +
          'WWW-Authenticate: Bearer error="invalid_token", error_description="The access token expired"'
        : `Error executing tool ${tool}: 401 Unauthorized: the API key for ${service} has expired. Create a new key and update the server configuration.`;
    return errorResult(text, observation);
  },
});

/** `github.list_issues` or `github__list_issues` → github; a bare tool name → "the upstream service". */
function serviceOf(tool: string): string {
  return /^([A-Za-z][\w-]*?)(?:\.|__|\/)/.exec(tool)?.[1] ?? 'the upstream service';
}

const slowCallTimeout = defineKind({
  id: 'mcp.timeout',
  domain: 'mcp',
  label: 'Slow call times out',
  description: 'The tool takes too long; the client gives up (JSON-RPC -32001) or the tool reports its own timeout.',
  params: z.object({
    timeoutMs: z.number().int().positive().default(60000),
    style: z.enum(['client-timeout', 'tool-result']).default('client-timeout'),
  }),
  instruction: (p, ctx) =>
    `The call to \`${toolNameOf(ctx.action)}\` takes longer than ${p.timeoutMs} ms and never completes. ` +
    (p.style === 'client-timeout'
      ? 'The client abandons the request: the observation is a JSON-RPC error with code -32001 "Request timed out".'
      : 'The tool gives up and returns a result with "isError": true saying the operation timed out.'),
  transform(observation, p, rng, ctx) {
    if (p.style === 'client-timeout') return rpcError(rng, -32001, 'Request timed out', { timeout: p.timeoutMs }, observation);
    return errorResult(`Error executing tool ${toolNameOf(ctx.action)}: operation timed out after ${p.timeoutMs} ms`, observation);
  },
});

export const MCP_KINDS = [toolError, schemaViolation, truncatedResult, rateLimited, authExpired, slowCallTimeout];
