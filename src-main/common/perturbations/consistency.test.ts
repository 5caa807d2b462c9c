import { describe, expect, it } from 'vitest';
import { checkConsistency } from './consistency';

const world = (...facts: [string, string][]) => ({ text: 'A fictional company network.', facts: facts.map(([subject, value]) => ({ subject, value })) });

describe('fictional world consistency check', () => {
  it('flags a key-value statement with a different value, with line and excerpt', () => {
    const flags = checkConsistency(world(['hostname', 'atlas']), 'Static hostname: zeus\nIcon name: computer-vm');
    expect(flags).toEqual([
      {
        subject: 'hostname',
        expected: 'atlas',
        found: 'zeus',
        rule: 'key-value',
        line: 1,
        excerpt: 'hostname: zeus',
        message: 'Line 1 says hostname is "zeus", but the world specification says "atlas".',
      },
    ]);
  });

  it('accepts the same value, any case, quoted, or followed by a separator', () => {
    const spec = world(['hostname', 'atlas']);
    expect(checkConsistency(spec, 'hostname: Atlas')).toEqual([]);
    expect(checkConsistency(spec, '{"hostname": "atlas"}')).toEqual([]);
    expect(checkConsistency(spec, 'HOSTNAME=atlas.corp.example')).toEqual([]);
    expect(checkConsistency(spec, 'hostname = atlas (primary)')).toEqual([]);
    expect(checkConsistency(spec, 'hostname: atlas-2')).toHaveLength(1);
  });

  it('reads JSON keys, env assignments and subjects written with _ or -', () => {
    const spec = world(['api version', '2.3']);
    expect(checkConsistency(spec, '{"api_version": "3.0", "status": "ok"}')[0]).toMatchObject({ found: '3.0', rule: 'key-value' });
    expect(checkConsistency(spec, 'API-VERSION=2.30')).toEqual([]);
    expect(checkConsistency(spec, 'api_version: 2.3')).toEqual([]);
    expect(checkConsistency(spec, 'if (a == b) api_version == 9')).toEqual([]);
  });

  it('flags prose that names a different value, skips negations and descriptions', () => {
    const spec = world(['The CEO of Acme', 'Jane Doe']);
    expect(checkConsistency(spec, 'Press release. The CEO of Acme is Mark Stone, who joined in 2019.')[0]).toMatchObject({ found: 'Mark Stone', rule: 'prose' });
    expect(checkConsistency(spec, 'The CEO of Acme is Jane Doe, who joined in 2019.')).toEqual([]);
    expect(checkConsistency(spec, 'The CEO of Acme is not Mark Stone.')).toEqual([]);
    expect(checkConsistency(spec, 'The CEO of Acme is a busy person.')).toEqual([]);
    expect(checkConsistency(world(['capital', 'Vos']), 'The capital is the city of Vos.')).toEqual([]);
    expect(checkConsistency(world(['capital', 'Vos']), 'The capital was Telmar.')).toHaveLength(1);
  });

  it('checks the host and user of shell prompts', () => {
    const out = 'agent@zeus:~/app$ whoami\nagent\nagent@zeus:~/app$';
    const host = checkConsistency(world(['hostname', 'atlas']), out);
    expect(host.map((f) => [f.rule, f.found, f.line])).toEqual([
      ['shell-prompt', 'zeus', 1],
      ['shell-prompt', 'zeus', 3],
    ]);
    expect(checkConsistency(world(['user', 'dana']), out)[0]).toMatchObject({ found: 'agent', rule: 'shell-prompt' });
    expect(checkConsistency(world(['hostname', 'zeus'], ['username', 'agent']), out)).toEqual([]);
    expect(checkConsistency(world(['hostname', 'atlas']), 'mail dana@zeus.example.com')).toEqual([]);
  });

  it('compares numbers as numbers and ignores facts that are not mentioned', () => {
    const spec = world(['replicas', '3'], ['region', 'north-7']);
    expect(checkConsistency(spec, 'replicas: 3.0\nstatus: Running')).toEqual([]);
    expect(checkConsistency(spec, 'replicas: 5')[0]).toMatchObject({ expected: '3', found: '5' });
  });

  it('returns nothing without a spec or with empty facts', () => {
    expect(checkConsistency(null, 'hostname: zeus')).toEqual([]);
    expect(checkConsistency(world(['', 'x'], ['hostname', '']), 'hostname: zeus')).toEqual([]);
  });

  it('treats regex characters in subjects and values literally', () => {
    expect(checkConsistency(world(['price (USD)', '$4.99']), 'price (USD): $4.99')).toEqual([]);
    expect(checkConsistency(world(['price (USD)', '$4.99']), 'price (USD): $5.49')).toHaveLength(1);
  });
});
