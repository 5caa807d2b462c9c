// Versioned schema migrations for a workspace file. `PRAGMA user_version` holds the
// number of migrations applied; `PRAGMA application_id` marks the file as a Worldloom
// workspace so any other SQLite file is refused rather than altered.

/** "WLOM" as a big-endian 32-bit integer. */
export const WORKSPACE_APPLICATION_ID = 0x574c4f4d;

export const MIGRATIONS: readonly string[] = [
  // 1: trajectories and immutable nodes, with provenance, curation and metrics from day one.
  `
  CREATE TABLE trajectories (
    id            TEXT PRIMARY KEY,
    title         TEXT NOT NULL,
    domain        TEXT NOT NULL,
    system_prompt TEXT NOT NULL,
    world_spec    TEXT,
    source_key    TEXT UNIQUE,
    created_at    TEXT NOT NULL
  );
  CREATE TABLE nodes (
    id             TEXT PRIMARY KEY,
    trajectory_id  TEXT NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
    parent_id      TEXT REFERENCES nodes(id),
    edited_from_id TEXT REFERENCES nodes(id),
    depth          INTEGER NOT NULL,
    action         TEXT NOT NULL,
    observation    TEXT NOT NULL,
    reasoning      TEXT,
    origin         TEXT NOT NULL CHECK (origin IN ('real','simulated','edited','imported','perturbed','manual')),
    provenance     TEXT NOT NULL DEFAULT '{}',
    starred        INTEGER NOT NULL DEFAULT 0,
    rating         INTEGER CHECK (rating BETWEEN 1 AND 5),
    tags           TEXT NOT NULL DEFAULT '[]',
    note           TEXT NOT NULL DEFAULT '',
    metrics        TEXT,
    created_at     TEXT NOT NULL
  );
  CREATE INDEX nodes_by_trajectory ON nodes(trajectory_id);
  CREATE INDEX nodes_by_parent ON nodes(parent_id);
  CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 2: full-text search over what a curator reads and writes, and the history that lets an
  // undone edit be redone. The index is external-content (it stores no second copy of the
  // text) and is filled lazily by NodeSearch, so imports pay nothing for it.
  `
  CREATE VIRTUAL TABLE node_text USING fts5(
    action, observation, note, tags,
    content = 'nodes', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TABLE undone_edits (
    id            TEXT PRIMARY KEY,
    trajectory_id TEXT NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
    node          TEXT NOT NULL,
    undone_at     TEXT NOT NULL
  );
  `,
  // 3: the agent's own reasoning (SWE-agent `thought`, ATIF `reasoning_content`) apart from the
  // world model's, and origin `agent` for steps an agent or a policy took in a simulated world.
  // SQLite cannot alter a CHECK constraint, so the table is rebuilt (the documented 12-step
  // procedure; migrate() runs it with foreign keys off and checks them after). Rowids are kept
  // so the external-content search index stays valid.
  `
  CREATE TABLE nodes_v3 (
    id              TEXT PRIMARY KEY,
    trajectory_id   TEXT NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
    parent_id       TEXT REFERENCES nodes(id),
    edited_from_id  TEXT REFERENCES nodes(id),
    depth           INTEGER NOT NULL,
    action          TEXT NOT NULL,
    observation     TEXT NOT NULL,
    reasoning       TEXT,
    origin          TEXT NOT NULL CHECK (origin IN ('real','simulated','edited','imported','perturbed','manual','agent')),
    provenance      TEXT NOT NULL DEFAULT '{}',
    starred         INTEGER NOT NULL DEFAULT 0,
    rating          INTEGER CHECK (rating BETWEEN 1 AND 5),
    tags            TEXT NOT NULL DEFAULT '[]',
    note            TEXT NOT NULL DEFAULT '',
    metrics         TEXT,
    created_at      TEXT NOT NULL,
    agent_reasoning TEXT
  );
  INSERT INTO nodes_v3 (rowid, id, trajectory_id, parent_id, edited_from_id, depth, action, observation, reasoning,
    origin, provenance, starred, rating, tags, note, metrics, created_at)
  SELECT rowid, id, trajectory_id, parent_id, edited_from_id, depth, action, observation, reasoning,
    origin, provenance, starred, rating, tags, note, metrics, created_at FROM nodes;
  DROP TABLE nodes;
  ALTER TABLE nodes_v3 RENAME TO nodes;
  CREATE INDEX nodes_by_trajectory ON nodes(trajectory_id);
  CREATE INDEX nodes_by_parent ON nodes(parent_id);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
