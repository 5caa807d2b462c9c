// Search perturbations: the search engine answers, but with nothing, with old or
// contradicting pages, with spam, behind paywalls, or not at all (rate limited).
// Results keep the observation's layout (see ./search-results.ts).
import { z } from 'zod';
import { defineKind } from '../kind';
import type { Rng } from '../rng';
import { queryOf } from './action-hints';
import { isMetaLine, newResult, parseSearchPage, renderSearchPage, snippetOf, withSnippet } from './search-results';

const noResults = defineKind({
  id: 'search.no-results',
  domain: 'search',
  label: 'No results',
  description: 'The query matches nothing; the engine says so and may suggest a spelling.',
  params: z.object({
    query: z.string().default('').describe('Query echoed in the message; empty = the query of the action'),
    suggestion: z.string().default('').describe('"Did you mean" suggestion; empty = none'),
  }),
  instruction: (p, ctx) =>
    `The search for "${p.query || queryOf(ctx.action)}" returns no results at all. The observation says that nothing was found` +
    (p.suggestion ? ` and suggests "${p.suggestion}" instead.` : ' and lists no results.'),
  transform(observation, p, _rng, ctx) {
    const page = parseSearchPage(observation);
    const message = `No results found for "${p.query || queryOf(ctx.action)}".` + (p.suggestion ? `\nDid you mean: ${p.suggestion}` : '');
    return [page.header, message].filter(Boolean).join('\n\n');
  },
});

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const DATED = new RegExp(`\\b(?:(?:${MONTHS})\\.? (?:\\d{1,2}, )?)((?:19|20)\\d\\d)\\b|\\b((?:19|20)\\d\\d)(-\\d\\d-\\d\\d)\\b`, 'g');

/** Moves every date in a text back by `years`; bare years too when `bareYears` (titles, metadata). */
function age(text: string, years: number, bareYears: boolean): string {
  if (bareYears) return text.replace(/\b(?:19|20)\d\d\b/g, (y) => String(Number(y) - years));
  return text.replace(DATED, (whole: string, y1?: string, y2?: string) => {
    const year = (y1 ?? y2)!;
    return whole.replace(year, String(Number(year) - years));
  });
}

const staleResults = defineKind({
  id: 'search.stale-results',
  domain: 'search',
  label: 'Stale results',
  description: 'The index is old: every result is years out of date and describes the state of things back then.',
  params: z.object({ yearsOld: z.number().int().min(1).max(30).default(5) }),
  instruction: (p) =>
    `The search index is stale: every result was published at least ${p.yearsOld} years ago, shows dates from back then, ` +
    'and describes outdated versions, prices or facts as if they were current. No recent result appears.',
  transform(observation, p) {
    const page = parseSearchPage(observation);
    page.header = age(page.header, p.yearsOld, false);
    page.results = page.results.map((r) => ({
      title: age(r.title, p.yearsOld, true),
      lines: r.lines.map((l) => age(l, p.yearsOld, isMetaLine(l))),
    }));
    return renderSearchPage(page);
  },
});

// Turns a statement into its opposite by its first auxiliary or common verb; other
// sentences get an explicit denial. Crude, but the result reads as a plain contradiction.
const NEGATIONS: [RegExp, string][] = [
  [/\bis\b/, 'is not'], [/\bare\b/, 'are not'], [/\bwas\b/, 'was not'], [/\bwere\b/, 'were not'],
  [/\bcan\b/, 'cannot'], [/\bwill\b/, 'will not'], [/\bhas\b/, 'does not have'], [/\bhave\b/, 'do not have'],
  [/\bsupports\b/, 'does not support'], [/\bprovides\b/, 'does not provide'], [/\bincludes\b/, 'does not include'],
];

export function contradict(sentence: string): string {
  for (const [re, negated] of NEGATIONS) if (re.test(sentence)) return sentence.replace(re, negated);
  return `Contrary to what many sources say, it is not true that ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`;
}

const firstSentence = (text: string) => (/^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text).trim();
const FICTIONAL_HOSTS = ['forum.example.net', 'news.example.org', 'insider.example.com', 'wiki.example.info', 'blog.example.io'];

const contradictingResults = defineKind({
  id: 'search.contradicting-results',
  domain: 'search',
  label: 'Contradicting results',
  description: 'A credible-looking result states the opposite of what the other results say.',
  params: z.object({
    claim: z.string().default('').describe('What the contradicting result asserts; empty = the opposite of the top snippet'),
    position: z.number().int().min(1).default(1).describe('Rank the contradicting result appears at'),
  }),
  instruction: (p, ctx) =>
    `The results disagree with each other. The result at rank ${p.position} confidently states ` +
    (p.claim ? `"${p.claim}"` : 'the opposite of what the other results say') +
    `, while the rest support the usual answer for "${queryOf(ctx.action)}". Both sides look equally credible.`,
  transform(observation, p, rng, ctx) {
    const page = parseSearchPage(observation);
    const top = page.results[0];
    const claim = p.claim || contradict(firstSentence(top ? snippetOf(top) : queryOf(ctx.action)));
    const query = queryOf(ctx.action);
    const title = rng.pick([`Correction: ${top?.title ?? query}`, `${query}: what most articles get wrong`, `The truth about ${query}`]);
    const host = rng.pick(FICTIONAL_HOSTS);
    const url = `https://${host}/${query.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
    const at = Math.min(p.position - 1, page.results.length);
    // Dated like the top result, so the contradiction looks just as current.
    const published = top?.lines.find(isMetaLine)?.replace(/^[^:]*:\s*/, '');
    page.results.splice(at, 0, newResult(page, title, url, claim, published));
    return renderSearchPage(page);
  },
});

function spamResult(rng: Rng, query: string) {
  const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'best-deals';
  const year = 2020 + rng.int(6);
  const titles = [
    `${query} – Best ${query} ${year} FREE Download [100% Working]`,
    `Top 10 ${query} Tricks Experts Don't Want You To Know`,
    `${query} | Cheap ${query} Deals | Buy ${query} Online Now`,
  ];
  const snippet = `${query} ${query} best ${query} free ${query} guide ${year}. Click here for the ultimate ${query} download, ${query} tips and ${query} deals!!!`;
  return { title: rng.pick(titles), url: `https://${slug}-free-${rng.between(10, 99)}.example.biz/?ref=${rng.int(1e6)}`, snippet };
}

const spamResults = defineKind({
  id: 'search.spam-results',
  domain: 'search',
  label: 'Spam / SEO results',
  description: 'Keyword-stuffed SEO spam pushes into the results.',
  params: z.object({
    count: z.number().int().min(1).max(10).default(3),
    placement: z.enum(['top', 'interleaved', 'bottom']).default('top'),
  }),
  instruction: (p, ctx) =>
    `${p.count} of the results are SEO spam for "${queryOf(ctx.action)}": keyword-stuffed titles, clickbait, dubious domains and snippets ` +
    `that repeat the query without saying anything useful. They appear ${p.placement === 'interleaved' ? 'mixed in among' : `at the ${p.placement} of`} the genuine results.`,
  transform(observation, p, rng, ctx) {
    const page = parseSearchPage(observation);
    const query = queryOf(ctx.action);
    for (let i = 0; i < p.count; i++) {
      const spam = spamResult(rng, query);
      const result = newResult(page, spam.title, spam.url, spam.snippet);
      const at = p.placement === 'top' ? i : p.placement === 'bottom' ? page.results.length : Math.min(page.results.length, i * 2 + 1);
      page.results.splice(at, 0, result);
    }
    return renderSearchPage(page);
  },
});

const paywalledSnippets = defineKind({
  id: 'search.paywalled-snippets',
  domain: 'search',
  label: 'Paywalled snippets',
  description: 'Some results sit behind a paywall: their snippets stop after a few words with a subscribe notice.',
  params: z.object({
    fraction: z.number().min(0).max(1).default(0.5).describe('Share of results that are paywalled'),
    wordsShown: z.number().int().min(0).default(12),
  }),
  instruction: (p) =>
    `About ${Math.round(p.fraction * 100)}% of the results are paywalled articles: their snippets show only the first ${p.wordsShown} words, ` +
    'then a notice that the rest is for subscribers only.',
  transform(observation, p, rng) {
    const page = parseSearchPage(observation);
    const count = Math.max(page.results.length > 0 && p.fraction > 0 ? 1 : 0, Math.round(page.results.length * p.fraction));
    for (const i of rng.sample(page.results.length, count)) {
      const r = page.results[i]!;
      const words = snippetOf(r).split(/\s+/).slice(0, p.wordsShown).join(' ');
      page.results[i] = withSnippet(r, `${words}… Subscribe to continue reading. This article is available to subscribers only.`);
    }
    return renderSearchPage(page);
  },
});

const rateLimit = defineKind({
  id: 'search.rate-limited',
  domain: 'search',
  label: 'Rate limited',
  description: 'The search API refuses the query: too many requests, daily quota used up, or a bot check.',
  params: z.object({
    style: z.enum(['http-429', 'quota-exceeded', 'unusual-traffic']).default('http-429'),
    retryAfterSeconds: z.number().int().min(0).default(60),
    dailyQuota: z.number().int().positive().default(100),
  }),
  instruction: (p) =>
    ({
      'http-429': `The search API rejects the query with 429 Too Many Requests and asks to retry after ${p.retryAfterSeconds} seconds. No results are returned.`,
      'quota-exceeded': `The search API key has used its daily quota of ${p.dailyQuota} queries; the query is refused with 403 and no results.`,
      'unusual-traffic': 'The search engine suspects automated traffic and shows a verification notice instead of results.',
    })[p.style],
  transform(_observation, p, rng) {
    return {
      'http-429': `Error: 429 Too Many Requests. The search API rate limit has been exceeded. Retry after ${p.retryAfterSeconds} seconds.`,
      'quota-exceeded': `Error: 403 Forbidden. Daily query quota exceeded for this API key (${p.dailyQuota} queries per day). The quota resets at midnight.`,
      'unusual-traffic': `Unusual traffic detected from your network. Complete the verification to continue searching.\nReference ID: ${rng.int(1e9).toString(36).toUpperCase()}`,
    }[p.style];
  },
});

export const SEARCH_KINDS = [noResults, staleResults, contradictingResults, spamResults, paywalledSnippets, rateLimit];

