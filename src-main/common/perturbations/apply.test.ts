import { describe, expect, it } from 'vitest';
import { Provenance } from '../trajectory/model';
import { applyTransform, instructionFor, PerturbationError, PerturbationRecord, planPerturbation, planSweep } from './apply';
import { DOMAIN_FIXTURES } from '../../testing/perturbation-fixtures';
import { perturbationCatalog } from './registry';

const terminal = { domain: 'terminal' as const, action: 'rg --files src' };

describe('planning a perturbation', () => {
  it('records kind, mode, params with defaults filled, seed and version', () => {
    const record = planPerturbation({ kindId: 'terminal.disk-full', mode: 'transform', params: { keepFraction: 0.2 }, seed: 9 });
    expect(record).toEqual({ kind: 'terminal.disk-full', mode: 'transform', params: { path: '', keepFraction: 0.2 }, seed: 9, version: 1 });
    // It is exactly what a node's provenance stores.
    expect(Provenance.parse({ perturbations: [record] }).perturbations).toEqual([record]);
    expect(PerturbationRecord.parse(JSON.parse(JSON.stringify(record)))).toEqual(record);
  });

  it('refuses unknown kinds, listing the domain\'s kinds', () => {
    expect(() => planPerturbation({ kindId: 'web.popup', mode: 'transform', seed: 1 })).toThrow(
      /Unknown perturbation kind "web.popup"\. Known kinds for web: web\.consent-popup, web\.modal-dialog, .*web\.endless-spinner\./,
    );
  });

  it('refuses bad params with every problem named, including misspelt ones', () => {
    try {
      planPerturbation({ kindId: 'terminal.disk-full', mode: 'transform', params: { keepFraction: 3, pth: '/tmp' }, seed: 1 });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(PerturbationError);
      const e = err as PerturbationError;
      expect(e.problems).toEqual(['pth: not a parameter of terminal.disk-full', 'keepFraction: Too big: expected number to be <=1']);
      expect(e.message).toContain('Parameters of terminal.disk-full: path, keepFraction.');
    }
    expect(() => planPerturbation({ kindId: 'web.error-page', mode: 'transform', params: { status: 418 }, seed: 1 })).toThrow(/status:/);
  });

  it('refuses unknown modes and non-integer seeds; folds negative seeds into range', () => {
    expect(() => planPerturbation({ kindId: 'web.captcha', mode: 'both' as never, seed: 1 })).toThrow('Unknown mode "both". Use "instruction" or "transform".');
    expect(() => planPerturbation({ kindId: 'web.captcha', mode: 'transform', seed: 1.5 })).toThrow('The seed must be an integer, got 1.5.');
    const seed = planPerturbation({ kindId: 'web.captcha', mode: 'transform', seed: -1 }).seed;
    expect(seed >= 0 && seed < 2 ** 31).toBe(true);
  });
});

describe('applying a plan', () => {
  it('reproduces a transform from its record alone', () => {
    const record = planPerturbation({ kindId: 'swe.flaky-test', mode: 'transform', seed: 1234 });
    const { observation, action } = DOMAIN_FIXTURES.swe;
    const ctx = { domain: 'swe' as const, action };
    const stored = JSON.parse(JSON.stringify(record)) as PerturbationRecord;
    expect(applyTransform(stored, observation, ctx)).toBe(applyTransform(record, observation, ctx));
  });

  it('refuses the wrong mode, the wrong domain, and a recorded version that no longer matches', () => {
    const instruction = planPerturbation({ kindId: 'terminal.command-not-found', mode: 'instruction', seed: 1 });
    expect(() => applyTransform(instruction, 'x', terminal)).toThrow('was planned in instruction mode; it cannot be applied in transform mode');
    const transform = planPerturbation({ kindId: 'terminal.command-not-found', mode: 'transform', seed: 1 });
    expect(() => applyTransform(transform, 'x', { domain: 'web', action: '' })).toThrow('is for terminal steps, but this step is in the web domain');
    expect(() => applyTransform({ ...transform, version: 2 }, 'x', terminal)).toThrow('recorded with version 2 of the kind, but version 1 is installed');
  });

  it('gives the exact model input for a terminal kind', () => {
    const record = planPerturbation({ kindId: 'terminal.command-not-found', mode: 'instruction', seed: 1 });
    expect(instructionFor(record, terminal)).toBe(
      '**Simulation control (Command not found):** The program `rg` is not installed on this machine and is not on PATH. ' +
        'The bash shell reports that the command was not found, prints nothing else, and the exit status is 127.\n' +
        'Show this condition in the next observation exactly as the environment itself would, and keep everything else consistent with the trajectory so far.',
    );
  });

  it('gives the exact model input for an MCP kind with params', () => {
    const record = planPerturbation({ kindId: 'mcp.rate-limited', mode: 'instruction', params: { retryAfterSeconds: 45, limit: 100, window: 'hour' }, seed: 1 });
    expect(instructionFor(record, { domain: 'mcp', action: '{"name":"slack.post_message","arguments":{}}' })).toBe(
      '**Simulation control (Rate limited (429)):** The API behind `slack.post_message` is rate limited at 100 requests per hour and the limit is used up. ' +
        'The call fails with HTTP 429 Too Many Requests and says to retry after 45 seconds, as a tool result with "isError": true.\n' +
        'Show this condition in the next observation exactly as the environment itself would, and keep everything else consistent with the trajectory so far.',
    );
  });
});

describe('planning a sweep', () => {
  it('plans one sibling per kind of a domain, each with its own seed and full provenance', () => {
    const plans = planSweep({ domain: 'android' }, 'transform', 77);
    expect(plans.map((p) => p.kind)).toEqual(perturbationCatalog.byDomain('android').map((k) => k.id));
    expect(new Set(plans.map((p) => p.seed)).size).toBe(plans.length);
    for (const p of plans) {
      expect(p.mode).toBe('transform');
      expect(p.version).toBe(1);
      expect(p.params).toEqual(perturbationCatalog.byId(p.kind)!.params.parse({}));
    }
    expect(planSweep({ domain: 'android' }, 'transform', 77)).toEqual(plans);
    expect(planSweep({ domain: 'android' }, 'transform', 78).map((p) => p.seed)).not.toEqual(plans.map((p) => p.seed));
  });

  it('keeps the seed of a kind independent of which other kinds are in the sweep', () => {
    const alone = planSweep(['web.captcha'], 'instruction', 5);
    const together = planSweep(['web.error-page', 'web.captcha'], 'instruction', 5);
    expect(together[1]).toEqual(alone[0]);
  });

  it('takes params per kind and reports every problem at once', () => {
    const [plan] = planSweep(['os.low-battery'], 'transform', 1, { params: { 'os.low-battery': { percent: 2 } } });
    expect(plan!.params).toMatchObject({ percent: 2, platform: 'linux' });
    expect(() => planSweep(['web.captcha', 'web.captcha'], 'transform', 1)).toThrow('names web.captcha twice');
    expect(() => planSweep([], 'transform', 1)).toThrow('at least one');
    try {
      planSweep(['web.nope', 'os.low-battery'], 'transform', 1, { params: { 'os.low-battery': { percent: 200 } } });
      expect.unreachable();
    } catch (err) {
      const problems = (err as PerturbationError).problems;
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^Unknown perturbation kind "web.nope"/);
      expect(problems[1]).toMatch(/^os\.low-battery: percent: Too big/);
    }
  });
});
