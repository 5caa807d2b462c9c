import { useEffect } from 'react';
import { DOMAINS, ORIGINS } from '../../../../src-main/common/trajectory/model';
import { clearSearch, hasQuery, openSearchHit, refreshTags, setSearchFilters } from '../../state/search-actions';
import { useUiStore } from '../../state/workspace-actions';
import { HitSnippet } from './HitSnippet';
import { actionLine } from '../text';
import { plural } from '../../../../src-main/common/plural';

/** Full-text search and filters across every trajectory in the workspace; a result opens its node. */
export function SearchPanel() {
  const { filters, hits, truncated, searching, tags } = useUiStore((s) => s.search);
  const active = hasQuery(filters);
  // Only results show the selection: without a search, moving through the tree leaves the panel alone.
  const selectedId = useUiStore((s) => (active ? s.selectedNodeId : null));

  useEffect(() => {
    void refreshTags().catch(() => undefined);
  }, [active]);

  return (
    <section className="search-panel" aria-label="Search">
      <input
        type="search"
        aria-label="Search the workspace"
        placeholder="Search actions, states, notes, tags (/)"
        value={filters.text}
        onChange={(e) => setSearchFilters({ text: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Escape') clearSearch();
          if (e.key === 'Enter' && hits[0]) void openSearchHit(hits[0].trajectoryId, hits[0].nodeId);
        }}
        data-shortcut-target="search"
      />
      <div className="filters">
        <select aria-label="Domain" value={filters.domain} onChange={(e) => setSearchFilters({ domain: e.target.value as typeof filters.domain })}>
          <option value="">any domain</option>
          {DOMAINS.map((d) => (
            <option key={d}>{d}</option>
          ))}
        </select>
        <select aria-label="Origin" value={filters.origin} onChange={(e) => setSearchFilters({ origin: e.target.value as typeof filters.origin })}>
          <option value="">any origin</option>
          {ORIGINS.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
        <select aria-label="Minimum rating" value={filters.minRating} onChange={(e) => setSearchFilters({ minRating: Number(e.target.value) })}>
          <option value={0}>any rating</option>
          {[1, 2, 3, 4, 5].map((r) => (
            <option key={r} value={r}>
              {r === 5 ? '5' : `${r}+`}
            </option>
          ))}
        </select>
        <select aria-label="Tag" value={filters.tag} onChange={(e) => setSearchFilters({ tag: e.target.value })}>
          <option value="">any tag</option>
          {tags.map((t) => (
            <option key={t.tag} value={t.tag}>
              {t.tag} ({t.count})
            </option>
          ))}
        </select>
        <label className="check">
          <input type="checkbox" checked={filters.starred} onChange={(e) => setSearchFilters({ starred: e.target.checked })} /> starred
        </label>
        {active && (
          <button className="link" onClick={clearSearch}>
            clear
          </button>
        )}
      </div>
      {active && (
        <div className="search-results">
          <p className="muted small" role="status" aria-live="polite">
            {searching ? 'Searching…' : truncated ? `${hits.length}+ nodes found` : `${plural(hits.length, 'node')} found`}
          </p>
          <ul aria-label="Search results">
            {hits.map((h) => (
              <li key={h.nodeId}>
                <button className={`hit${h.nodeId === selectedId ? ' selected' : ''}`} onClick={() => void openSearchHit(h.trajectoryId, h.nodeId)}>
                  <span className="hit-head">
                    <span className={`badge origin-${h.origin}`}>{h.depth === 0 ? 'start' : h.origin}</span>
                    <span className="hit-label">{actionLine(h.label) || '(no action)'}</span>
                    {h.curation.starred && <span className="star">★</span>}
                  </span>
                  <span className="hit-where muted small">
                    {h.trajectoryTitle} · step {h.depth} · {h.domain}
                    {h.curation.tags.length > 0 && ` · ${h.curation.tags.join(', ')}`}
                  </span>
                  <HitSnippet snippet={h.snippet} />
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
