import { describe, expect, it } from 'vitest';
import { bandwidthLimit, bytesPerStep, expectedDistinctExperts, projectSeconds, splitPerLayer, type WeightBytes } from './figures';

const weights: WeightBytes = { dense: 100, experts: 2560, head: 40, headRows: 10, expertCount: 256, expertsUsed: 8, layers: 8 };

describe('GPU bench figures', () => {
  it('counts the distinct experts a step reads: used ones at one token, nearly all at many', () => {
    expect(expectedDistinctExperts(256, 8, 1)).toBeCloseTo(8, 10);
    expect(expectedDistinctExperts(256, 8, 32)).toBeCloseTo(256 * (1 - (248 / 256) ** 32), 10);
    expect(expectedDistinctExperts(256, 8, 10_000)).toBeCloseTo(256, 6);
  });

  it('reads every dense byte and the routed share of the experts each step', () => {
    expect(bytesPerStep(weights, 1)).toBeCloseTo(100 + 40 + 2560 * (8 / 256), 10);
    // One step of 32 tokens reads more than one of 1, but far less than 32 steps of 1.
    expect(bytesPerStep(weights, 32)).toBeGreaterThan(bytesPerStep(weights, 1));
    expect(bytesPerStep(weights, 32)).toBeLessThan(32 * bytesPerStep(weights, 1));
    expect(bandwidthLimit(weights, 1, 220)).toBeCloseTo(1, 10);
  });

  it('splits a step into a fixed and a per-layer part and projects more layers from them', () => {
    const pair = { shallow: { layers: 4, seconds: 0.006 }, deep: { layers: 8, seconds: 0.01 } };
    const { fixedSeconds, perLayerSeconds } = splitPerLayer(pair);
    expect(perLayerSeconds).toBeCloseTo(0.001, 12);
    expect(fixedSeconds).toBeCloseTo(0.002, 12);
    expect(projectSeconds(pair, 40)).toBeCloseTo(0.042, 12);
    // A bigger head, read at the layers' own bandwidth (100 bytes a layer per ms): 50 more bytes → 0.5 ms.
    expect(projectSeconds(pair, 40, 50, 100)).toBeCloseTo(0.0425, 12);
  });

  it('projects nothing when the deeper model was not the slower one', () => {
    expect(projectSeconds({ shallow: { layers: 4, seconds: 0.01 }, deep: { layers: 8, seconds: 0.009 } }, 40)).toBeNull();
    expect(() => splitPerLayer({ shallow: { layers: 8, seconds: 1 }, deep: { layers: 8, seconds: 2 } })).toThrow(/more layers/);
  });
});
