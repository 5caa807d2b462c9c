import { describe, expect, it } from 'vitest';
import { jsonStructureMatch, structureScore } from './json-structure';

describe('JSON structure match', () => {
  it('scores same keys and types as 1 whatever the values', () => {
    expect(jsonStructureMatch('{"a":1,"b":["x"]}', '{"b":["y"],"a":2}')).toEqual({ score: 1 });
    expect(structureScore(null, null)).toBe(1);
    expect(structureScore({}, {})).toBe(1);
    expect(structureScore([], [])).toBe(1);
  });

  it('averages over the union of keys and over array positions', () => {
    // Keys a, b, c: a agrees, b has the wrong type, c is missing on one side → 1/3.
    expect(structureScore({ a: 1, b: 'x' }, { a: 2, b: 3, c: true })).toBeCloseTo(1 / 3, 10);
    // Nested: {r: {x, y}} with y missing → r scores 1/2, so 1/2 overall.
    expect(structureScore({ r: { x: 1 } }, { r: { x: 1, y: 2 } })).toBeCloseTo(0.5, 10);
    // One element where the real result has two → 1/2.
    expect(structureScore([{ t: 'a' }], [{ t: 'a' }, { t: 'b' }])).toBeCloseTo(0.5, 10);
    expect(structureScore([1], { 0: 1 })).toBe(0);
  });

  it('compares JSON held in strings as JSON, as MCP text content often is', () => {
    const real = JSON.stringify({ content: [{ type: 'text', text: '{"temp":4,"unit":"C"}' }] });
    const sim = JSON.stringify({ content: [{ type: 'text', text: '{"temp":19}' }] });
    // content[0]: type ✓, text → {temp ✓, unit ✗} = 1/2 → (1 + 1/2) / 2 = 3/4.
    expect(jsonStructureMatch(sim, real).score).toBeCloseTo(0.75, 10);
    expect(structureScore('plain', 'other words')).toBe(1);
  });

  it('gives 0 with a reason when a side is not JSON', () => {
    const sim = jsonStructureMatch('Error: not found', '{"isError":true}');
    expect(sim.score).toBe(0);
    expect(sim.reason).toMatch(/^the simulated observation is not JSON/);
    expect(jsonStructureMatch('{}', '').reason).toMatch(/^the real observation is not JSON/);
  });
});
