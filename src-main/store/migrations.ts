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
  // 4: what a curator deletes stays recoverable (deleted rows kept apart, column for column, with
  // their rowids so a restore puts them back in place and search stays valid); the earlier
  // versions of a trajectory's description and world specification; and a log of every change,
  // written by triggers, so a studio sees what another process (the CLI, another window) wrote.
  `
  CREATE TABLE deletions (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN ('nodes','trajectories')),
    label         TEXT NOT NULL,
    roots         TEXT NOT NULL,
    trajectory_id TEXT,
    nodes         INTEGER NOT NULL,
    trajectories  INTEGER NOT NULL,
    deleted_at    TEXT NOT NULL
  );
  CREATE TABLE deleted_trajectories (
    deletion_id   TEXT NOT NULL REFERENCES deletions(id) ON DELETE CASCADE,
    row_id        INTEGER NOT NULL,
    id            TEXT NOT NULL,
    title         TEXT NOT NULL,
    domain        TEXT NOT NULL,
    system_prompt TEXT NOT NULL,
    world_spec    TEXT,
    source_key    TEXT,
    created_at    TEXT NOT NULL
  );
  CREATE INDEX deleted_trajectories_by_deletion ON deleted_trajectories(deletion_id);
  CREATE TABLE deleted_nodes (
    deletion_id     TEXT NOT NULL REFERENCES deletions(id) ON DELETE CASCADE,
    row_id          INTEGER NOT NULL,
    id              TEXT NOT NULL,
    trajectory_id   TEXT NOT NULL,
    parent_id       TEXT,
    edited_from_id  TEXT,
    depth           INTEGER NOT NULL,
    action          TEXT NOT NULL,
    observation     TEXT NOT NULL,
    reasoning       TEXT,
    origin          TEXT NOT NULL,
    provenance      TEXT NOT NULL,
    starred         INTEGER NOT NULL,
    rating          INTEGER,
    tags            TEXT NOT NULL,
    note            TEXT NOT NULL,
    metrics         TEXT,
    created_at      TEXT NOT NULL,
    agent_reasoning TEXT
  );
  CREATE INDEX deleted_nodes_by_deletion ON deleted_nodes(deletion_id);
  CREATE INDEX deleted_nodes_by_id ON deleted_nodes(id);
  CREATE INDEX nodes_by_edited_from ON nodes(edited_from_id) WHERE edited_from_id IS NOT NULL;
  CREATE TABLE trajectory_versions (
    trajectory_id TEXT NOT NULL,
    version       INTEGER NOT NULL,
    title         TEXT NOT NULL,
    system_prompt TEXT NOT NULL,
    world_spec    TEXT,
    replaced_at   TEXT NOT NULL,
    PRIMARY KEY (trajectory_id, version)
  );
  CREATE TABLE change_log (
    seq           INTEGER PRIMARY KEY,
    kind          TEXT NOT NULL,
    trajectory_id TEXT NOT NULL,
    node_id       TEXT,
    removed       TEXT
  );
  CREATE TRIGGER log_node_added AFTER INSERT ON nodes BEGIN
    INSERT INTO change_log (kind, trajectory_id, node_id) VALUES ('node-added', new.trajectory_id, new.id);
  END;
  CREATE TRIGGER log_node_removed AFTER DELETE ON nodes BEGIN
    INSERT INTO change_log (kind, trajectory_id, node_id, removed) VALUES ('node-removed', old.trajectory_id, old.id,
      json_object('parentId', old.parent_id, 'editedFromId', old.edited_from_id, 'depth', old.depth, 'origin', old.origin, 'createdAt', old.created_at));
  END;
  CREATE TRIGGER log_node_marked AFTER UPDATE OF starred, rating, tags, note ON nodes BEGIN
    INSERT INTO change_log (kind, trajectory_id, node_id) VALUES ('node-marked', new.trajectory_id, new.id);
  END;
  CREATE TRIGGER log_trajectory_added AFTER INSERT ON trajectories BEGIN
    INSERT INTO change_log (kind, trajectory_id) VALUES ('trajectory-added', new.id);
  END;
  CREATE TRIGGER log_trajectory_changed AFTER UPDATE ON trajectories BEGIN
    INSERT INTO change_log (kind, trajectory_id) VALUES ('trajectory-changed', new.id);
  END;
  CREATE TRIGGER log_trajectory_removed AFTER DELETE ON trajectories BEGIN
    INSERT INTO change_log (kind, trajectory_id) VALUES ('trajectory-removed', old.id);
  END;
  `,
  // 5: whole trajectories written in one transaction (an import) log themselves once each
  // ('trajectory-added'), not once more per node: a reader of that entry reads the whole
  // trajectory. The writer marks such a transaction with the one row of node_log_quiet and
  // removes it before committing, so no other connection ever sees it; a node added to an
  // existing trajectory is logged as before.
  `
  CREATE TABLE node_log_quiet (id INTEGER PRIMARY KEY CHECK (id = 1));
  DROP TRIGGER log_node_added;
  CREATE TRIGGER log_node_added AFTER INSERT ON nodes
  WHEN NOT EXISTS (SELECT 1 FROM node_log_quiet)
  BEGIN
    INSERT INTO change_log (kind, trajectory_id, node_id) VALUES ('node-added', new.trajectory_id, new.id);
  END;
  `,
  // 6: a node's 'node-added' entry is written by the store where it adds single nodes (a step,
  // a sample, an edit, a redo, a restore), no longer by a trigger: a row trigger runs for every
  // row, even when its WHEN is false, and cost about a third of an import's inserts. Whole
  // trajectories are still logged once each by log_trajectory_added.
  `
  DROP TRIGGER log_node_added;
  DROP TABLE node_log_quiet;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
