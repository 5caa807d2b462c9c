import { describe, expect, it } from 'vitest';
import { fixture, perturb } from '../../../testing/perturbation-fixtures';

const issues = fixture('mcp-list-issues.json');
const json = (text: string) => JSON.parse(text) as { content: { type: string; text: string }[]; isError?: boolean; [k: string]: unknown };
const data = (text: string) => JSON.parse(json(text).content[0]!.text) as Record<string, unknown>[];

describe('mcp perturbations', () => {
  it('tool error: a valid result with isError and the tool named, in the observation\'s layout', () => {
    const out = perturb('mcp.tool-error');
    expect(json(out)).toEqual({
      content: [{ type: 'text', text: 'Error executing tool github.list_issues: 404 Not Found: the requested resource does not exist' }],
      isError: true,
    });
    expect(out).toMatch(/^\{\n {2}"content"/);
    const compact = perturb('mcp.tool-error', { observation: JSON.stringify(json(issues)), params: { message: 'boom' } });
    expect(compact).toBe('{"content":[{"type":"text","text":"boom"}],"isError":true}');
  });

  it('schema violation: breaks one field chosen by the seed, or the field asked for', () => {
    const wrong = data(perturb('mcp.schema-violation', { params: { field: 'number' } }));
    expect(wrong[0]!['number']).toBe('412');
    expect(wrong[1]!['number']).toBe(398);
    const missing = data(perturb('mcp.schema-violation', { params: { violation: 'missing-field', field: 'title' } }));
    expect(missing[0]).not.toHaveProperty('title');
    const extra = data(perturb('mcp.schema-violation', { params: { violation: 'extra-field', field: 'debug_info' } }));
    expect(extra[0]!['debug_info']).toMatchObject({ debug: true });
    const envelope = JSON.parse(perturb('mcp.schema-violation', { params: { violation: 'envelope' } }));
    expect(typeof envelope.content).toBe('string');
    const fields = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => perturb('mcp.schema-violation', { seed, params: { violation: 'missing-field' } })));
    expect(fields.size).toBeGreaterThan(1);
  });

  it('truncated result: valid JSON with a clipped text and a note, or a stream cut mid-JSON', () => {
    const clipped = json(perturb('mcp.truncated-result', { params: { keepFraction: 0.25 } })).content[0]!.text;
    const original = json(issues).content[0]!.text;
    expect(clipped.startsWith(original.slice(0, 50))).toBe(true);
    expect(clipped).toMatch(new RegExp(`\\[Response truncated: showing ${Math.floor(original.length * 0.25)} of ${original.length} characters\\]$`));
    const cut = perturb('mcp.truncated-result', { params: { style: 'cut-stream', keepFraction: 0.5 } });
    expect(cut).toBe(issues.slice(0, Math.floor(issues.length * 0.5)));
    expect(() => JSON.parse(cut)).toThrow();
  });

  it('rate limited: 429 with retry-after as a tool error, or as a JSON-RPC error', () => {
    const result = json(perturb('mcp.rate-limited', { params: { retryAfterSeconds: 12, limit: 5000, window: 'hour' } }));
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe(
      'Error executing tool github.list_issues: 429 Too Many Requests: rate limit of 5000 requests per hour exceeded. Retry after 12 seconds.',
    );
    const rpc = JSON.parse(perturb('mcp.rate-limited', { params: { style: 'jsonrpc-error' } }));
    expect(rpc).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, data: { status: 429, retryAfter: 30 } } });
  });

  it('expired auth: 401 naming the service from the tool name, with the bearer challenge', () => {
    const text = json(perturb('mcp.auth-expired')).content[0]!.text;
    expect(text).toContain('401 Unauthorized: the access token for github has expired');
    expect(text).toContain('WWW-Authenticate: Bearer error="invalid_token"');
    expect(json(perturb('mcp.auth-expired', { params: { credential: 'api-key', service: 'Jira' } })).content[0]!.text).toContain('the API key for Jira has expired');
  });

  it('timeout: JSON-RPC -32001 from the client, or a tool-reported timeout', () => {
    const rpc = JSON.parse(perturb('mcp.timeout', { params: { timeoutMs: 5000 } }));
    expect(rpc.error).toEqual({ code: -32001, message: 'Request timed out', data: { timeout: 5000 } });
    expect(Number.isInteger(rpc.id)).toBe(true);
    expect(json(perturb('mcp.timeout', { params: { style: 'tool-result' } })).content[0]!.text).toBe(
      'Error executing tool github.list_issues: operation timed out after 60000 ms',
    );
  });

  it('takes a plain-text observation as one text item', () => {
    const out = json(perturb('mcp.truncated-result', { observation: 'line one\nline two', params: { keepFraction: 0.5 } }));
    expect(out.content[0]!.text).toMatch(/^line/);
  });
});
