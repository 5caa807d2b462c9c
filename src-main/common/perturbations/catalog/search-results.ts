// A search observation as a list of results, so search kinds can drop, insert and rewrite
// results and render them back in the observation's own layout. The layout understood is
// the common plain-text one: an optional header, then numbered results (`[1] Title` or
// `1. Title`), each followed by a URL line, optional metadata lines (`Published: …`) and a
// snippet, results separated by blank lines. Text without numbered results is one page
// with no results, so a kind that adds results still produces a readable list.

export interface SearchResult {
  title: string;
  /** The lines under the title, as they were. */
  lines: string[];
}

export interface SearchPage {
  header: string;
  numbering: 'bracket' | 'dot';
  results: SearchResult[];
  /** Prefix of the URL line (`URL: `, `   `), copied onto inserted results. */
  urlPrefix: string;
}

const RESULT_START = /^\s*(?:\[(\d+)\]|(\d+)[.)])\s+(.*)$/;
const META_LINE = /^\s*(?:published|date|updated|source|last updated)\s*:/i;
const URL_IN_LINE = /https?:\/\/\S+/;

export function parseSearchPage(observation: string): SearchPage {
  const lines = observation.replace(/\s+$/, '').split('\n');
  const header: string[] = [];
  const results: SearchResult[] = [];
  let numbering: SearchPage['numbering'] = 'bracket';
  for (const line of lines) {
    const m = RESULT_START.exec(line);
    if (m) {
      if (results.length === 0) numbering = m[1] !== undefined ? 'bracket' : 'dot';
      results.push({ title: m[3]!.trim(), lines: [] });
    } else if (results.length > 0) {
      results[results.length - 1]!.lines.push(line);
    } else {
      header.push(line);
    }
  }
  for (const r of results) while (r.lines.length > 0 && r.lines[r.lines.length - 1]!.trim() === '') r.lines.pop();
  const urlLine = results[0]?.lines.find((l) => URL_IN_LINE.test(l));
  const urlPrefix = urlLine ? urlLine.slice(0, urlLine.search(URL_IN_LINE)) : 'URL: ';
  return { header: header.join('\n').replace(/\s+$/, ''), numbering, results, urlPrefix };
}

export function renderSearchPage(page: SearchPage): string {
  const blocks = page.results.map((r, i) => {
    const marker = page.numbering === 'bracket' ? `[${i + 1}]` : `${i + 1}.`;
    return [`${marker} ${r.title}`, ...r.lines].join('\n');
  });
  return [page.header, ...blocks].filter((b) => b !== '').join('\n\n');
}

export function urlOf(result: SearchResult): string | undefined {
  for (const l of result.lines) {
    const m = URL_IN_LINE.exec(l);
    if (m) return m[0];
  }
  return undefined;
}

const isSnippetLine = (l: string) => !URL_IN_LINE.test(l) && !META_LINE.test(l) && l.trim() !== '';

export function snippetOf(result: SearchResult): string {
  return result.lines.filter(isSnippetLine).map((l) => l.trim()).join(' ');
}

/** Replaces the snippet lines of a result with one line, in the first snippet line's indentation. */
export function withSnippet(result: SearchResult, snippet: string): SearchResult {
  const first = result.lines.findIndex(isSnippetLine);
  const indent = first >= 0 ? /^\s*/.exec(result.lines[first]!)![0] : '';
  const kept = result.lines.filter((l) => !isSnippetLine(l));
  const at = first >= 0 ? Math.min(first, kept.length) : kept.length;
  return { title: result.title, lines: [...kept.slice(0, at), indent + snippet, ...kept.slice(at)] };
}

/** A new result laid out like the page's existing ones. */
export function newResult(page: SearchPage, title: string, url: string, snippet: string, published?: string): SearchResult {
  const sample = page.results[0]?.lines ?? [];
  const meta = sample.find((l) => META_LINE.test(l));
  const metaLine = meta && published ? `${/^\s*[^:]+:\s*/.exec(meta)![0]}${published}` : undefined;
  const snippetIndent = /^\s*/.exec(sample.find(isSnippetLine) ?? '')![0];
  return { title, lines: [page.urlPrefix + url, ...(metaLine ? [metaLine] : []), snippetIndent + snippet] };
}

/** Metadata lines (dates, sources) of a result, for kinds that age or relabel results. */
export function isMetaLine(line: string): boolean {
  return META_LINE.test(line);
}
