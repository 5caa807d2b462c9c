// Checks every catalog kind the same way; each domain's own test file checks what its
// kinds actually produce.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DOMAINS } from '../trajectory/model';
import { DOMAIN_FIXTURES, perturb } from '../../testing/perturbation-fixtures';
import { perturbationCatalog } from './registry';

// Kinds whose default transform draws on the seed (which item, which field, where to cut).
const SEEDED_BY_DEFAULT = [
  'mcp.schema-violation',
  'mcp.timeout',
  'search.contradicting-results',
  'search.spam-results',
  'search.paywalled-snippets',
  'terminal.timeout-partial-output',
  'swe.flaky-test',
  'swe.lint-failure',
  'swe.test-timeout',
  'android.toast',
  'web.element-moved',
  'os.focus-stolen',
];

describe('perturbation catalog', () => {
  it('has at least six kinds in every domain, each id unique and prefixed by its domain', () => {
    for (const domain of DOMAINS) {
      const kinds = perturbationCatalog.byDomain(domain);
      expect(kinds.length, domain).toBeGreaterThanOrEqual(6);
      for (const k of kinds) expect(k.id.startsWith(`${domain}.`), k.id).toBe(true);
    }
    const ids = perturbationCatalog.list().map((k) => k.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(perturbationCatalog.list().map((k) => [k.id, k] as const))('%s: defaults, JSON schema, instruction and transform', (id, kind) => {
    expect(kind.label.length).toBeGreaterThan(0);
    expect(kind.description.length).toBeGreaterThan(20);
    expect(kind.source).toBe('catalog');
    const params = kind.params.parse({});
    // The UI builds its form from the JSON schema; every field must carry a default.
    const schema = z.toJSONSchema(kind.params, { io: 'input' }) as { properties?: Record<string, { default?: unknown }> };
    for (const [name, prop] of Object.entries(schema.properties ?? {})) expect(prop.default, `${id}.${name}`).toEqual(params[name]);

    const { observation, action } = DOMAIN_FIXTURES[kind.domain];
    const text = kind.instruction(params, { domain: kind.domain, action });
    expect(text.length).toBeGreaterThan(40);
    expect(text).not.toMatch(/undefined|\[object |NaN/);

    const once = perturb(id, { seed: 42 });
    expect(once).not.toBe(observation);
    expect(once).not.toMatch(/undefined|\[object |NaN/);
    expect(perturb(id, { seed: 42 })).toBe(once);

    const outputs = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => perturb(id, { seed })));
    expect(outputs.size > 1, `${id} varies with the seed`).toBe(SEEDED_BY_DEFAULT.includes(id));
  });

  it('every MCP kind leaves valid JSON except a stream cut on purpose', () => {
    for (const kind of perturbationCatalog.byDomain('mcp')) expect(() => JSON.parse(perturb(kind.id)), kind.id).not.toThrow();
    expect(() => JSON.parse(perturb('mcp.truncated-result', { params: { style: 'cut-stream' } }))).toThrow();
  });

  it('the registry finds kinds by id and refuses a second kind with a taken id', () => {
    expect(perturbationCatalog.byId('web.captcha')?.domain).toBe('web');
    expect(perturbationCatalog.byId('web.nope')).toBeUndefined();
    const clash = { ...perturbationCatalog.byId('web.captcha')!, source: 'mine.json' };
    expect(() => perturbationCatalog.withKinds([clash])).toThrow('Two perturbation kinds share the id "web.captcha" (from catalog and mine.json)');
  });

  it('README lists every catalog kind', () => {
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    for (const kind of perturbationCatalog.list()) expect(readme, kind.id).toContain(`\`${kind.id}\``);
  });
});
