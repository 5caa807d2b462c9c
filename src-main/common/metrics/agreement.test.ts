import { describe, expect, it } from 'vitest';
import { agreementBand, sampleAgreement } from './agreement';
import { editSimilarity } from './edit-distance';

describe('agreement among samples of one action', () => {
  it('is 1 for identical samples, with one distinct observation', () => {
    const a = sampleAgreement(['a.txt b.txt', 'a.txt b.txt', 'a.txt b.txt']);
    expect(a.agreement).toBe(1);
    expect(a.spread).toBe(0);
    expect(a.distinct).toBe(1);
    expect(a.pairwise).toEqual([
      [1, 1, 1],
      [1, 1, 1],
      [1, 1, 1],
    ]);
  });

  it('is the mean pairwise edit similarity, symmetric, and picks the sample closest to the others as consensus', () => {
    const samples = ['total 8\na.txt\nb.txt', 'total 8\na.txt\nb.txt\nc.txt', 'permission denied'];
    const a = sampleAgreement(samples);
    const s01 = editSimilarity(samples[0]!, samples[1]!);
    const s02 = editSimilarity(samples[0]!, samples[2]!);
    const s12 = editSimilarity(samples[1]!, samples[2]!);
    expect(a.agreement).toBeCloseTo((s01 + s02 + s12) / 3, 12);
    expect(a.pairwise[0]![1]).toBe(a.pairwise[1]![0]);
    expect(a.centrality[0]).toBeCloseTo((s01 + s02) / 2, 12);
    // The odd one out is never the consensus.
    expect(a.consensus).not.toBe(2);
    expect(a.distinct).toBe(3);
    expect(agreementBand(a.agreement!)).not.toBe('agree');
  });

  it('scores each sample against the real observation when there is one', () => {
    const a = sampleAgreement(['hello', 'help', 'hello'], 'hello');
    expect(a.toReal).toEqual([1, editSimilarity('help', 'hello'), 1]);
    expect(a.consensus).toBe(0);
    expect(sampleAgreement(['x', 'y']).toReal).toBeNull();
  });

  it('has nothing to agree on with fewer than two samples', () => {
    expect(sampleAgreement(['only'])).toMatchObject({ agreement: null, spread: null, consensus: 0, centrality: [1], distinct: 1 });
    expect(sampleAgreement([])).toMatchObject({ agreement: null, distinct: 0 });
  });

  it('stays bounded on long observations that differ', () => {
    const long = (seed: number) => Array.from({ length: 3000 }, (_, i) => `line ${(i * seed) % 997} of a long listing`).join('\n');
    const a = sampleAgreement([long(1), long(3), long(7), long(1)]);
    expect(a.agreement).toBeGreaterThan(0);
    expect(a.agreement).toBeLessThan(1);
    expect(a.pairwise[0]![3]).toBe(1);
  });

  it('bands agreement so a curator sees where the model is unsure', () => {
    expect(agreementBand(1)).toBe('agree');
    expect(agreementBand(0.75)).toBe('differ');
    expect(agreementBand(0.2)).toBe('disagree');
  });
});
