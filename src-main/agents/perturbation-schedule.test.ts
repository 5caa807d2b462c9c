import { describe, expect, it } from 'vitest';
import { perturbationCatalog } from '../common/perturbations/registry';
import { parsePerturbationSchedule, perturbationAt } from './perturbation-schedule';

const at = { domain: 'terminal' as const, action: 'cat notes.txt' };

describe('perturbation schedule', () => {
  it('reads KIND:RATE lists, percentages included, and refuses what it cannot use with what to write', () => {
    expect(parsePerturbationSchedule('terminal.disk-full:0.2, terminal.command-not-found:25%', 'terminal', perturbationCatalog)).toEqual([
      { kindId: 'terminal.disk-full', rate: 0.2 },
      { kindId: 'terminal.command-not-found', rate: 0.25 },
    ]);
    expect(() => parsePerturbationSchedule('terminal.disk-full', 'terminal', perturbationCatalog)).toThrow(/KIND:RATE/);
    expect(() => parsePerturbationSchedule('terminal.disk-full:1.5', 'terminal', perturbationCatalog)).toThrow(/from 0 to 1/);
    expect(() => parsePerturbationSchedule('terminal.disk-ful:0.1', 'terminal', perturbationCatalog)).toThrow(/terminal\.disk-full/);
    expect(() => parsePerturbationSchedule('mcp.tool-error:0.1', 'terminal', perturbationCatalog)).toThrow(/mcp perturbation/);
    expect(() => parsePerturbationSchedule('terminal.disk-full:0.1,terminal.disk-full:0.2', 'terminal', perturbationCatalog)).toThrow(/twice/);
  });

  it('injects at the given rate, the same steps for the same seed, other steps for another', () => {
    const schedule = (seed: number) => ({ kinds: [{ kindId: 'terminal.disk-full', rate: 0.3 }], seed, mode: 'transform' as const });
    const steps = (seed: number) => Array.from({ length: 400 }, (_, i) => perturbationAt(schedule(seed), i, perturbationCatalog, at));
    const a = steps(11);
    expect(steps(11)).toEqual(a);
    const hits = a.filter(Boolean).length;
    expect(hits).toBeGreaterThan(80);
    expect(hits).toBeLessThan(160);
    expect(steps(12).map(Boolean)).not.toEqual(a.map(Boolean));
    // Each injection is a full, re-runnable record: kind, mode, params with defaults, its own seed.
    const first = a.find(Boolean)!;
    expect(first).toMatchObject({ kind: 'terminal.disk-full', mode: 'transform', version: 1 });
    expect(Object.keys(first.params).length).toBeGreaterThan(0);
    expect(perturbationAt({ ...schedule(11), kinds: [{ kindId: 'terminal.disk-full', rate: 0 }] }, 0, perturbationCatalog, at)).toBeNull();
    expect(perturbationAt({ ...schedule(11), kinds: [{ kindId: 'terminal.disk-full', rate: 1 }] }, 7, perturbationCatalog, at)).not.toBeNull();
  });

  it('never makes a shell builtin "not found", and still injects the next kind listed there', () => {
    const always = (kinds: { kindId: string; rate: number }[]) => ({ kinds, seed: 5, mode: 'transform' as const });
    const notFound = { kindId: 'terminal.command-not-found', rate: 1 };
    for (const action of ['echo "buy milk" > notes/todo.txt', 'cd /srv/app', 'export PATH=/opt/bin:$PATH', 'sudo pwd', 'source .venv/bin/activate']) {
      expect(perturbationAt(always([notFound]), 0, perturbationCatalog, { domain: 'terminal', action })).toBeNull();
    }
    expect(perturbationAt(always([notFound, { kindId: 'terminal.disk-full', rate: 1 }]), 0, perturbationCatalog, { domain: 'terminal', action: 'echo hi > out.txt' })).toMatchObject({
      kind: 'terminal.disk-full',
    });
    // A program on PATH can be missing.
    expect(perturbationAt(always([notFound]), 0, perturbationCatalog, { domain: 'terminal', action: 'rg TODO src/' })).toMatchObject({ kind: 'terminal.command-not-found' });
  });
});
