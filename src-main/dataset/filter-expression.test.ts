import { describe, expect, it } from 'vitest';
import { FilterError, parseFilter } from './filter-expression';
import { fixtureBundles } from '../testing/dataset-fixtures';

const bundles = fixtureBundles();
const steps = bundles.flatMap((b) => b.nodes.filter((n) => n.parentId !== null).map((node) => ({ trajectory: b.trajectory, node })));
const matching = (expr: string) => steps.filter(parseFilter(expr)).map((f) => `${f.trajectory.id}:${f.node.action}`);

function errorOf(expr: string): FilterError {
  try {
    parseFilter(expr);
  } catch (err) {
    if (err instanceof FilterError) return err;
    throw err;
  }
  throw new Error(`"${expr}" parsed`);
}

describe('filter expressions', () => {
  it('keeps everything when empty', () => {
    expect(matching('   ')).toHaveLength(steps.length);
  });

  it('filters by domain, origin, stars, rating, tags, perturbation, metrics and date', () => {
    expect(matching('domain = search')).toEqual(['t2:search: cat breeds', 't2:open: result 1', 't3:search: cat breeds', 't3:open: result 1']);
    expect(matching('origin = simulated')).toEqual(['t1:cat notes.txt']);
    expect(matching('starred')).toEqual(['t1:cat notes.txt']);
    expect(matching('rating >= 2 and rating < 5')).toEqual(['t1:curl -s http://intranet/config']);
    expect(matching('tag = good')).toEqual(['t1:cat notes.txt']);
    expect(matching('perturbation = terminal.leaky-config')).toEqual(['t1:curl -s http://intranet/config']);
    expect(matching('perturbed')).toEqual(matching('perturbation'));
    expect(matching('metric.similarity > 0.9')).toEqual(['t1:cat notes.txt']);
    expect(matching('created >= 2025-06-01')).toEqual(['t1:curl -s http://intranet/config']);
    expect(matching('model = qwen-agentworld and seed = 7')).toHaveLength(1);
  });

  it('combines with and, or, not, parentheses and in-lists', () => {
    expect(matching('domain in (terminal, web) and not (origin = imported or origin = simulated)')).toEqual(['t1:curl -s http://intranet/config']);
    expect(matching('domain not in (terminal)')).toHaveLength(4);
    expect(matching('starred or rating = 2')).toHaveLength(2);
    expect(matching('observation ~ "MAINE"')).toEqual(['t2:search: cat breeds', 't2:open: result 1', 't3:search: cat breeds', 't3:open: result 1']);
    expect(matching("action = 'cat notes.txt' and origin != simulated")).toHaveLength(1);
  });

  it('reports mistakes with their column and a way out', () => {
    expect(errorOf('ratin >= 4')).toMatchObject({ column: 1 });
    expect(errorOf('ratin >= 4').message).toMatch(/Unknown field "ratin"; did you mean "rating"\?/);
    expect(errorOf('rating >= ')).toMatchObject({ column: 11 });
    expect(errorOf('rating >= ').message).toMatch(/Expected a value after "rating >="/);
    expect(errorOf('rating >= high').message).toMatch(/rating takes a number; "high" is not one/);
    expect(errorOf('domain = moon').message).toMatch(/domain is one of mcp, search, terminal/);
    expect(errorOf('domain > terminal')).toMatchObject({ column: 8 });
    expect(errorOf('(starred or rating = 5').message).toMatch(/parenthesis opened at column 1 is never closed/);
    expect(errorOf('title = "unfinished')).toMatchObject({ column: 9 });
    expect(errorOf('starred rating = 5').message).toMatch(/Unexpected "rating"; join conditions with "and" or "or"/);
    expect(errorOf('created > yesterday').message).toMatch(/takes a date/);
    expect(errorOf('domain in terminal').message).toMatch(/values in parentheses/);
    expect(errorOf('starred = maybe').message).toMatch(/true or false/);
    expect(errorOf('and starred').message).toMatch(/Expected a field name/);
  });
});
