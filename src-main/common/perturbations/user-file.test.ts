import { describe, expect, it } from 'vitest';
import { applyTransform, instructionFor, planPerturbation } from './apply';
import { DOMAIN_FIXTURES, fixture } from '../../testing/perturbation-fixtures';
import { perturbationCatalog } from './registry';
import { loadUserPerturbations } from './user-file';

describe('user-defined perturbation files', () => {
  it('loads a valid file into kinds that plan, instruct and transform like catalog kinds', () => {
    const loaded = loadUserPerturbations(fixture('user-perturbations.valid.json'), 'perturbations.json');
    if (!loaded.ok) throw new Error(loaded.message);
    expect(loaded.kinds.map((k) => [k.id, k.domain, k.source, k.version])).toEqual([
      ['terminal.quota-exceeded', 'terminal', 'perturbations.json', 1],
      ['web.maintenance-banner', 'web', 'perturbations.json', 1],
    ]);
    const registry = perturbationCatalog.withKinds(loaded.kinds);
    const ctx = { domain: 'terminal' as const, action: 'make build' };

    const instruction = planPerturbation({ kindId: 'terminal.quota-exceeded', mode: 'instruction', seed: 1 }, registry);
    expect(instruction.params).toEqual({ path: '/home/agent/build.log', keep: 0.5 });
    expect(instructionFor(instruction, ctx, registry)).toContain(
      '**Simulation control (Disk quota exceeded):** The user\'s disk quota is exhausted: make fails writing /home/agent/build.log with "Disk quota exceeded" after part of its output.',
    );

    const transform = planPerturbation({ kindId: 'terminal.quota-exceeded', mode: 'transform', params: { keep: 0.25 }, seed: 1 }, registry);
    expect(applyTransform(transform, DOMAIN_FIXTURES.terminal.observation, ctx, registry)).toBe(
      'total 32\ndrwxr-xr-x  5 deploy deploy 4096 Mar  3 10:12 .\nmake: /home/agent/build.log: Disk quota exceeded',
    );
    expect(() => planPerturbation({ kindId: 'terminal.quota-exceeded', mode: 'transform', params: { keep: 2 }, seed: 1 }, registry)).toThrow('keep: Too big');
  });

  it('replaces with regex groups, inserts param values literally and picks with the seed', () => {
    const loaded = loadUserPerturbations(fixture('user-perturbations.valid.json'), 'p.json');
    if (!loaded.ok) throw new Error(loaded.message);
    const registry = perturbationCatalog.withKinds(loaded.kinds);
    const { observation, action } = DOMAIN_FIXTURES.web;
    const run = (seed: number) =>
      applyTransform(planPerturbation({ kindId: 'web.maintenance-banner', mode: 'transform', params: { minutes: 5, price: '$1' }, seed }, registry), observation, { domain: 'web', action }, registry);
    expect(run(1)).toMatch(/^- alert: Scheduled maintenance in 5 minutes\. (Save your work\.|Expect brief outages\.)\n- banner/);
    expect(run(1)).toContain('- button "Place order ($1 now)" [disabled] [ref=e11]');
    expect(run(1)).toBe(run(1));
    expect(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(run)).size).toBe(2);
  });

  it('refuses a malformed file, listing every problem with its JSON path and what to do', () => {
    const loaded = loadUserPerturbations(fixture('user-perturbations.malformed.json'), 'perturbations.json');
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.problems).toEqual([
      { path: 'perturbations[0].id', message: 'ids are lowercase words joined by dots, like "terminal.quota-exceeded".' },
      { path: 'perturbations[0].domain', message: 'unknown domain "shell": use one of mcp, search, terminal, swe, android, web, os.' },
      { path: 'perturbations[0].label', message: 'Too small: expected string to have >=1 characters.' },
      { path: 'perturbations[0].params.keep.type', message: 'unknown type "float": use one of string, number, integer, boolean, enum.' },
      { path: 'perturbations[0].transform[0].op', message: 'unknown op "trim": use one of replace, prepend, append, truncate, replace-whole, delete-lines.' },
      { path: 'perturbations[1]', message: 'unknown field "colour": remove it or fix the spelling.' },
      { path: 'perturbations[2].id', message: 'must start with its domain, "web." (for example "web.no-results").' },
      { path: 'perturbations[2].id', message: '"search.no-results" is a catalog kind already: choose another id.' },
      { path: 'perturbations[2].params.mode.default', message: '"c" is not one of values (a, b): use one of them.' },
      { path: 'perturbations[2].instruction', message: '{{pick:…}} is random and only allowed in transform ops; write the instruction without it.' },
      { path: 'perturbations[2].transform[0].keep', message: '"mode" must be a declared number param (a fraction from 0 to 1).' },
    ]);
    expect(loaded.message.split('\n')[0]).toBe('perturbations.json has 11 problems and was not loaded:');
    expect(loaded.message).toContain('- perturbations[0].domain: unknown domain "shell"');
  });

  it('reports unknown placeholders and bad regexes once the entry is otherwise well-formed', () => {
    const text = JSON.stringify({
      version: 1,
      perturbations: [
        {
          id: 'web.banner',
          domain: 'web',
          label: 'Banner',
          params: { tone: { type: 'enum', values: ['calm', 'urgent'], default: 'calm' } },
          instruction: 'A banner about {{topic}} appears.',
          transform: [{ op: 'replace', pattern: '([', with: 'x' }, { op: 'append', text: '{{observation}}{{tone}}{{pick:one}}' }],
        },
      ],
    });
    const loaded = loadUserPerturbations(text, 'banner.json');
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.problems.map((p) => p.path)).toEqual(['perturbations[0].instruction', 'perturbations[0].transform[0].pattern', 'perturbations[0].transform[1].text']);
    expect(loaded.problems[0]!.message).toBe('unknown placeholder {{topic}}: declare it under params or use {{tone}}, {{action}}, {{domain}}, {{command}}.');
    expect(loaded.problems[1]!.message).toMatch(/^not a valid regular expression \(.+\): fix it;/);
    expect(loaded.problems[2]!.message).toBe('{{pick:…}} needs two or more choices separated by |, like {{pick:a|b}}.');
  });

  it('refuses broken JSON with the line and column, and a wrong envelope', () => {
    const broken = loadUserPerturbations('{\n  "version": 1,\n  "perturbations": [,]\n}', 'p.json');
    expect(!broken.ok && broken.problems[0]!.message).toMatch(/^not valid JSON at line 3, column 21 /);
    const envelope = loadUserPerturbations('{"version": 2, "kinds": []}', 'p.json');
    expect(!envelope.ok && envelope.problems).toEqual([
      { path: 'version', message: 'must be 1, found 2.' },
      { path: 'perturbations', message: '"perturbations" is missing: add it (array).' },
      { path: '(file)', message: 'unknown field "kinds": remove it or fix the spelling.' },
    ]);
    const duplicate = loadUserPerturbations(
      JSON.stringify({ version: 1, perturbations: [0, 1].map(() => ({ id: 'os.x', domain: 'os', label: 'X', instruction: 'x', transform: [{ op: 'append', text: '!' }] })) }),
      'p.json',
    );
    expect(!duplicate.ok && duplicate.problems).toEqual([{ path: 'perturbations[1].id', message: '"os.x" is already used by perturbations[0]: give each kind its own id.' }]);
  });
});
