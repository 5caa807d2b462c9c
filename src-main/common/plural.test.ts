import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('agrees the noun with its count, irregular plurals included', () => {
    expect(plural(1, 'step')).toBe('1 step');
    expect(plural(0, 'step')).toBe('0 steps');
    expect(plural(4, 'sample')).toBe('4 samples');
    expect(plural(1, 'trajectory', 'trajectories')).toBe('1 trajectory');
    expect(plural(2, 'trajectory', 'trajectories')).toBe('2 trajectories');
    expect(plural(12500, 'node')).toBe('12,500 nodes');
  });
});
