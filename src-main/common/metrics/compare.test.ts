import { describe, expect, it } from 'vitest';
import { aggregate, compareObservations, METRICS } from './compare';

describe('compareObservations', () => {
  it('gives every text metric for any domain', () => {
    expect(compareObservations('search', 'a b\nc', 'a b\nc')).toEqual({
      exactMatch: 1,
      editSimilarity: 1,
      tokenF1: 1,
      linesAdded: 0,
      linesRemoved: 0,
      lineSimilarity: 1,
    });
    const m = compareObservations('web', 'kitten', 'sitting');
    expect(m.exactMatch).toBe(0);
    expect(m.editSimilarity).toBeCloseTo(4 / 7, 10);
    expect([m.linesAdded, m.linesRemoved]).toEqual([1, 1]);
  });

  it('adds the JSON structure score for MCP, only when the real result is JSON', () => {
    const real = '{"content":[{"type":"text","text":"5"}]}';
    expect(compareObservations('mcp', '{"content":[{"type":"text","text":"6"}]}', real)[METRICS.jsonStructure]).toBe(1);
    expect(compareObservations('mcp', 'five', real)[METRICS.jsonStructure]).toBe(0);
    expect(compareObservations('mcp', 'five', 'not json')).not.toHaveProperty(METRICS.jsonStructure);
  });

  it('adds prompt and directory consistency for terminals', () => {
    const m = compareObservations('terminal', 'u@h:/tmp$', 'ok\nu@h:/var$');
    expect(m[METRICS.promptConsistency]).toBe(0.75);
    expect(m[METRICS.cwdConsistency]).toBe(0);
    expect(compareObservations('terminal', '/a', '/a', { action: 'pwd' })[METRICS.cwdConsistency]).toBe(1);
    expect(compareObservations('swe', 'u@h:/tmp$', 'u@h:/var$')).not.toHaveProperty(METRICS.cwdConsistency);
  });

  it('handles empty and unicode observations', () => {
    expect(compareObservations('terminal', '', '')).toMatchObject({ exactMatch: 1, editSimilarity: 1, tokenF1: 1 });
    const m = compareObservations('os', 'Größe: 5 MB ✓', 'Größe: 6 MB ✓');
    expect(m.editSimilarity).toBeCloseTo(1 - 1 / 13, 10);
    expect(m.tokenF1).toBeCloseTo(4 / 5, 10);
  });
});

describe('aggregate', () => {
  it('averages each metric over the records that have it', () => {
    expect(aggregate([{ a: 1, b: 0 }, { a: 0 }, null, { a: 0.5, b: NaN }])).toEqual({ a: 0.5, b: 0 });
    expect(aggregate([])).toEqual({});
  });
});
