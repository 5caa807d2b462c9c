import { describe, expect, it } from 'vitest';
import { agreementBadge, siblingLabelText } from './labels';

describe('telling sibling samples apart', () => {
  it('labels each sample with its number, perturbation and seed', () => {
    expect(siblingLabelText({ nodeId: 'a', sample: 2, of: 4, seed: 101, perturbation: null })).toBe('#2/4 · seed 101');
    expect(siblingLabelText({ nodeId: 'b', sample: 3, of: 4, seed: null, perturbation: 'permission-denied' })).toBe('#3/4 · permission-denied');
    expect(siblingLabelText({ nodeId: 'c', sample: 1, of: 1, seed: null, perturbation: 'disk-full' })).toBe('disk-full');
    // The same kind in the two modes never reads the same.
    expect(siblingLabelText({ nodeId: 'd', sample: 1, of: 1, seed: 5, perturbation: 'disk-full', perturbationMode: 'instruction' })).toBe('disk-full (instructed) · seed 5');
    expect(siblingLabelText({ nodeId: 'e', sample: 1, of: 1, seed: null, perturbation: 'disk-full', perturbationMode: 'transform' })).toBe('disk-full');
    const rows = [1, 2, 3, 4].map((sample) => siblingLabelText({ nodeId: String(sample), sample, of: 4, seed: 7 + sample, perturbation: null }));
    expect(new Set(rows).size).toBe(4);
  });

  it('says how much the samples agree, in a band a curator can scan', () => {
    expect(agreementBadge({ agreement: 1, samples: 3, distinct: 1, label: 'ls' })).toMatchObject({ text: '≈100%', band: 'agree' });
    const unsure = agreementBadge({ agreement: 0.42, samples: 4, distinct: 4, label: 'ls -la' });
    expect(unsure).toMatchObject({ text: '≈42%', band: 'disagree' });
    expect(unsure.title).toContain('4 samples of "ls -la" agree 42% (4 different observations)');
  });
});
