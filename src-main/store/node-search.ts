// Full-text search and filters across a workspace (SQLite FTS5). The index is filled lazily:
// nodes are immutable, so everything with a rowid above a high-water mark is simply not
// indexed yet, and a search first indexes those rows in one statement. Imports therefore
// write nothing extra; the first search after a large import pays once. Curation (notes,
// tags) is the only text that changes in place, and it is re-indexed as it changes.
import type Database from 'better-sqlite3';
import type { Curation, Domain, Origin } from '../common/trajectory/model';

export interface NodeSearchQuery {
  text?: string;
  domain?: Domain;
  origin?: Origin;
  starred?: boolean;
  minRating?: number;
  tag?: string;
  trajectoryId?: string;
  limit?: number;
}

export interface NodeSearchHit {
  nodeId: string;
  trajectoryId: string;
  trajectoryTitle: string;
  domain: Domain;
  origin: Origin;
  depth: number;
  /** The action's first line (the initial state's for a root). */
  label: string;
  /** Matched text around the hit; matched words are wrapped in MATCH_START / MATCH_END. */
  snippet: string;
  curation: Curation;
}

export interface NodeSearchResult {
  hits: NodeSearchHit[];
  /** More nodes matched than `limit`; narrow the query to see them. */
  truncated: boolean;
}

/** Control characters that cannot occur in a snippet's text mark where a match starts and ends. */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

const INDEXED_THROUGH = 'search.indexedThrough';

/**
 * Turns what a user typed into an FTS5 query: every word must occur, the last one as a prefix
 * (so results follow the typing). Words are quoted, so FTS5 operators in the text are just words.
 */
export function toFtsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (words.length === 0) return null;
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

interface HitRow {
  id: string;
  trajectory_id: string;
  trajectory_title: string;
  domain: Domain;
  origin: Origin;
  depth: number;
  label: string;
  snippet: string;
  starred: number;
  rating: number | null;
  tags: string;
  note: string;
}

export class NodeSearch {
  constructor(private readonly db: Database.Database) {}

  private indexedThrough(): number {
    const v = this.db.prepare(`SELECT value FROM settings WHERE key = ?`).pluck().get(INDEXED_THROUGH) as string | undefined;
    return v ? Number(v) : 0;
  }

  private setIndexedThrough(rowid: number): void {
    this.db
      .prepare(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`)
      .run(INDEXED_THROUGH, String(rowid));
  }

  /** Indexes every node written since the last search. Returns how many were indexed. */
  catchUp(): number {
    // A workspace opened read-only is searched as far as it was indexed when last written.
    if (this.db.readonly) return 0;
    return this.db.transaction(() => {
      const from = this.indexedThrough();
      const to = (this.db.prepare(`SELECT COALESCE(MAX(rowid), 0) FROM nodes`).pluck().get() as number) ?? 0;
      if (to <= from) return 0;
      const added = this.db
        .prepare(
          `INSERT INTO node_text (rowid, action, observation, note, tags)
           SELECT rowid, action, observation, note, tags FROM nodes WHERE rowid > ? AND rowid <= ?`,
        )
        .run(from, to).changes;
      this.setIndexedThrough(to);
      return added;
    }).immediate();
  }

  /** Call before a node's note or tags change in place: drops its old text from the index. */
  forgetText(id: string): void {
    this.removeIndexed(id);
  }

  /** Call after a node's note or tags changed in place: indexes its new text. */
  indexText(id: string): void {
    this.db
      .prepare(
        `INSERT INTO node_text (rowid, action, observation, note, tags)
         SELECT rowid, action, observation, note, tags FROM nodes WHERE id = ? AND rowid <= ?`,
      )
      .run(id, this.indexedThrough());
  }

  /**
   * Call before a node row is deleted. Besides dropping its text, it lowers the high-water
   * mark to the largest rowid that remains, because SQLite may hand the deleted rowid to the
   * next node and that node must still be indexed.
   */
  forgetNode(id: string): void {
    this.removeIndexed(id);
    const through = this.indexedThrough();
    const remaining = this.db.prepare(`SELECT COALESCE(MAX(rowid), 0) FROM nodes WHERE id <> ?`).pluck().get(id) as number;
    if (remaining < through) this.setIndexedThrough(remaining);
  }

  /**
   * Call before a trajectory's rows are deleted (a cancelled import takes back what it
   * wrote): drops their text; the caller then lowers the mark with `afterRowsDeleted`.
   */
  forgetTrajectory(trajectoryId: string): void {
    this.db
      .prepare(
        `INSERT INTO node_text (node_text, rowid, action, observation, note, tags)
         SELECT 'delete', rowid, action, observation, note, tags FROM nodes WHERE trajectory_id = ? AND rowid <= ?`,
      )
      .run(trajectoryId, this.indexedThrough());
  }

  /** After rows were deleted: SQLite may hand their rowids to the next nodes, which must still be indexed. */
  afterRowsDeleted(): void {
    const remaining = this.db.prepare(`SELECT COALESCE(MAX(rowid), 0) FROM nodes`).pluck().get() as number;
    if (remaining < this.indexedThrough()) this.setIndexedThrough(remaining);
  }

  private removeIndexed(id: string): void {
    // An external-content index deletes by the exact text it indexed, which is still in the row.
    this.db
      .prepare(
        `INSERT INTO node_text (node_text, rowid, action, observation, note, tags)
         SELECT 'delete', rowid, action, observation, note, tags FROM nodes WHERE id = ? AND rowid <= ?`,
      )
      .run(id, this.indexedThrough());
  }

  search(query: NodeSearchQuery): NodeSearchResult {
    const limit = Math.max(1, Math.min(query.limit ?? 200, 1000));
    const where: string[] = [];
    const params: unknown[] = [];
    const filter = (clause: string, ...values: unknown[]) => {
      where.push(clause);
      params.push(...values);
    };
    const fts = query.text ? toFtsQuery(query.text) : null;
    if (query.domain) filter('t.domain = ?', query.domain);
    if (query.origin) filter('n.origin = ?', query.origin);
    if (query.starred) filter('n.starred = 1');
    if (query.minRating) filter('n.rating >= ?', query.minRating);
    if (query.tag) filter('EXISTS (SELECT 1 FROM json_each(n.tags) WHERE json_each.value = ?)', query.tag);
    if (query.trajectoryId) filter('n.trajectory_id = ?', query.trajectoryId);

    const label = `substr(CASE WHEN n.parent_id IS NULL THEN n.observation ELSE n.action END, 1, 200)`;
    const columns = `n.id, n.trajectory_id, t.title AS trajectory_title, t.domain, n.origin, n.depth, ${label} AS label,
      n.starred, n.rating, n.tags, n.note`;
    let rows: HitRow[];
    if (fts) {
      this.catchUp();
      rows = this.db
        .prepare(
          `SELECT ${columns}, snippet(node_text, -1, '${MATCH_START}', '${MATCH_END}', '…', 16) AS snippet
           FROM node_text JOIN nodes n ON n.rowid = node_text.rowid JOIN trajectories t ON t.id = n.trajectory_id
           WHERE node_text MATCH ?${where.map((w) => ` AND ${w}`).join('')}
           ORDER BY rank LIMIT ?`,
        )
        .all(fts, ...params, limit + 1) as HitRow[];
    } else if (query.text?.trim()) {
      rows = [];
    } else {
      rows = this.db
        .prepare(
          `SELECT ${columns}, substr(n.observation, 1, 200) AS snippet
           FROM nodes n JOIN trajectories t ON t.id = n.trajectory_id
           ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY n.rowid DESC LIMIT ?`,
        )
        .all(...params, limit + 1) as HitRow[];
    }
    return { hits: rows.slice(0, limit).map(toHit), truncated: rows.length > limit };
  }

  /** Every tag in the workspace with how many nodes carry it, most used first. */
  tags(): { tag: string; count: number }[] {
    return this.db
      .prepare(
        `SELECT json_each.value AS tag, COUNT(*) AS count FROM nodes, json_each(nodes.tags)
         WHERE nodes.tags <> '[]' GROUP BY json_each.value ORDER BY count DESC, tag`,
      )
      .all() as { tag: string; count: number }[];
  }
}

function toHit(r: HitRow): NodeSearchHit {
  return {
    nodeId: r.id,
    trajectoryId: r.trajectory_id,
    trajectoryTitle: r.trajectory_title,
    domain: r.domain,
    origin: r.origin,
    depth: r.depth,
    label: r.label.split('\n', 1)[0] ?? '',
    snippet: r.snippet,
    curation: { starred: r.starred === 1, rating: r.rating, tags: JSON.parse(r.tags) as string[], note: r.note },
  };
}
