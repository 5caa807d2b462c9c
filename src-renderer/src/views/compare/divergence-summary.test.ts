import { describe, expect, it } from 'vitest';
import type { StepComparison } from '../../../../src-main/common/contract/reality';
import { divergenceSummary } from './divergence-summary';

const step = (depth: number, diverged: boolean | null): StepComparison => ({
  depth,
  action: `step ${depth}`,
  realNodeId: 'r',
  simulatedNodeId: diverged === null ? null : 's',
  real: 'out',
  simulated: diverged === null ? null : diverged ? 'other' : 'out',
  metrics: null,
  diverged,
});

describe('divergenceSummary', () => {
  it('says a trajectory was not replayed instead of "0 of N diverged"', () => {
    const text = divergenceSummary([step(1, null), step(2, null), step(3, null)]);
    expect(text).toMatch(/^3 steps, none compared yet: not replayed/);
    expect(text).not.toMatch(/diverged/);
  });

  it('counts divergences among the compared steps and says how many are not compared', () => {
    expect(divergenceSummary([step(1, true), step(2, false), step(3, null)])).toBe('1 of 2 compared steps diverged · 1 not compared yet');
    expect(divergenceSummary([step(1, false)])).toBe('0 of 1 compared step diverged');
    expect(divergenceSummary([])).toBe('no steps');
  });
});
