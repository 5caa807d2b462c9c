import { describe, expect, it } from 'vitest';
import { fixture, perturb } from '../../../testing/perturbation-fixtures';
import { parseSearchPage, snippetOf, urlOf } from './search-results';
import { contradict } from './search';

const page = fixture('search-results.txt');
const results = (text: string) => parseSearchPage(text).results;

describe('search perturbations', () => {
  it('no results: keeps the header, says nothing was found, with an optional suggestion', () => {
    expect(perturb('search.no-results')).toBe('Search results for "tokio vs async-std":\n\nNo results found for "tokio vs async-std".');
    expect(perturb('search.no-results', { params: { suggestion: 'tokio vs async std' } })).toMatch(/\nDid you mean: tokio vs async std$/);
  });

  it('stale results: every date and dated title moves back, nothing else changes', () => {
    const out = perturb('search.stale-results', { params: { yearsOld: 6 } });
    expect(out).toContain('[1] Tokio vs async-std: choosing an async runtime in 2018');
    expect(out).toContain('Published: 2018-05-12');
    expect(out).toContain('Published: 2019-01-08');
    expect(out).toContain('Benchmarks: Rust async runtimes compared (March 2018)');
    expect(out).toContain('on 16 cores');
    expect(results(out)).toHaveLength(4);
  });

  it('contradicting results: a dated result at the asked rank states the opposite of the top snippet', () => {
    const out = perturb('search.contradicting-results', { params: { position: 2 } });
    const rs = results(out);
    expect(rs).toHaveLength(5);
    expect(snippetOf(rs[1]!)).toBe('Tokio is not the most widely used async runtime for Rust.');
    expect(rs[1]!.lines).toContain('Published: 2024-05-12');
    expect(out).toMatch(/^\[2\] /m);
    expect(out).toMatch(/^\[5\] Is async-std still maintained\?$/m);
    const claimed = results(perturb('search.contradicting-results', { params: { claim: 'async-std is faster than tokio in every benchmark.' } }));
    expect(snippetOf(claimed[0]!)).toBe('async-std is faster than tokio in every benchmark.');
    const hosts = new Set([1, 2, 3, 4, 5, 6].map((seed) => urlOf(results(perturb('search.contradicting-results', { seed }))[0]!)));
    expect(hosts.size).toBeGreaterThan(1);
  });

  it('contradict negates the first verb it knows, else denies the sentence', () => {
    expect(contradict('The library supports Windows.')).toBe('The library does not support Windows.');
    expect(contradict('Prices rose sharply.')).toBe('Contrary to what many sources say, it is not true that prices rose sharply.');
  });

  it('spam results: keyword-stuffed results with dubious URLs where asked, numbering redone', () => {
    const top = results(perturb('search.spam-results', { params: { count: 2 } }));
    expect(top).toHaveLength(6);
    expect(urlOf(top[0]!)).toMatch(/^https:\/\/tokio-vs-async-std-free-\d+\.example\.biz\/\?ref=\d+$/);
    expect(snippetOf(top[1]!)).toContain('tokio vs async-std tokio vs async-std best');
    expect(top[2]!.title).toBe('Tokio vs async-std: choosing an async runtime in 2024');
    const bottom = results(perturb('search.spam-results', { params: { count: 1, placement: 'bottom' } }));
    expect(urlOf(bottom[4]!)).toContain('.example.biz');
    expect(perturb('search.spam-results', { seed: 1 })).not.toBe(perturb('search.spam-results', { seed: 2 }));
  });

  it('paywalled snippets: the seed picks which results, snippets stop after N words', () => {
    const out = results(perturb('search.paywalled-snippets', { params: { fraction: 0.5, wordsShown: 5 } }));
    const walled = out.filter((r) => snippetOf(r).endsWith('This article is available to subscribers only.'));
    expect(walled).toHaveLength(2);
    for (const r of walled) expect(snippetOf(r)).toMatch(/^(\S+ ){4}\S+… Subscribe to continue reading\./);
    expect(walled.every((r) => urlOf(r))).toBe(true);
    const picks = new Set([1, 2, 3, 4, 5, 6].map((seed) => perturb('search.paywalled-snippets', { seed })));
    expect(picks.size).toBeGreaterThan(1);
  });

  it('rate limited: the whole answer is the API refusal', () => {
    expect(perturb('search.rate-limited', { params: { retryAfterSeconds: 90 } })).toBe(
      'Error: 429 Too Many Requests. The search API rate limit has been exceeded. Retry after 90 seconds.',
    );
    expect(perturb('search.rate-limited', { params: { style: 'quota-exceeded', dailyQuota: 1000 } })).toContain('(1000 queries per day)');
    expect(perturb('search.rate-limited', { params: { style: 'unusual-traffic' } })).toMatch(/^Unusual traffic detected.*\nReference ID: [0-9A-Z]+$/);
  });

  it('reads "1." numbering and keeps it', () => {
    const dotted = page.replace(/^\[(\d)\]/gm, '$1.');
    expect(perturb('search.spam-results', { observation: dotted, params: { count: 1 } })).toMatch(/^5\. Is async-std still maintained\?$/m);
  });
});
