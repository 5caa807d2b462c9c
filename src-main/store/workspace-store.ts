// The workspace: one SQLite file (better-sqlite3, WAL). Node content is immutable; only
// curation and metrics change after a node is written.
import type Database from 'better-sqlite3';
import { newId } from '../common/trajectory/ids';
import { existsSync, statSync } from 'node:fs';
import {
  Curation,
  EMPTY_CURATION,
  type Domain,
  type NodeRecord,
  type Origin,
  type Provenance,
  type TrajectoryBundle,
  type TrajectoryRecord,
  type TrajectorySummary,
  type WorldSpec,
} from '../common/trajectory/model';
import type { OutlineSource } from '../common/trajectory/outline';
import { MIGRATIONS, SCHEMA_VERSION, WORKSPACE_APPLICATION_ID } from './migrations';
import { NodeEdits } from './node-edits';
import { ChangeLog, logNodeAdded } from './change-log';
import { Deletions, type Deleted, type DeletionSummary, type Restored } from './deletions';
import { TrajectoryVersions, type TrajectoryRevision, type TrajectoryVersion } from './trajectory-versions';
import { NodePaths } from './node-paths';
import { NodeSearch, type NodeSearchQuery, type NodeSearchResult } from './node-search';
import { INSERT_NEW_TRAJECTORY, INSERT_NODE_POSITIONAL, INSERT_PLAIN_NODE, isPlainNode, nodeValues, toNode, toTrajectory, type BundleValues, type NodeRow, type TrajectoryRow } from './rows';
import { WorkspaceError } from './workspace-error';
import { BUSY_TIMEOUT_MS, busyError, canWrite, inspectExisting, openDatabase, openForReading, readOnlyError, setSqliteNativeBinding, sqliteCode } from './workspace-access';

export { WorkspaceError } from './workspace-error';

export interface StoreOptions {
  /** How long a write waits for another process's write (default 5 s). */
  busyTimeoutMs?: number;
}

export interface WorkspaceInfo {
  path: string;
  trajectories: number;
  steps: number;
  byDomain: Record<string, number>;
  byOrigin: Record<string, number>;
}

export interface NewNode {
  parentId: string;
  action: string;
  observation: string;
  reasoning?: string | null;
  /** The acting agent's own reasoning before the action (never the world model's). */
  agentReasoning?: string | null;
  origin: Origin;
  provenance?: Provenance;
  editedFromId?: string | null;
  /** Sim-vs-real metrics, when the node is written beside its real or simulated counterpart. */
  metrics?: Record<string, number> | null;
}

/** Native binding override, set by the Electron door (its Node ABI differs from plain Node's). */
export const useSqliteNativeBinding = setSqliteNativeBinding;

export class WorkspaceStore {
  /** How many deferCheckpoints(true) calls are still open (they nest). */
  private checkpointsDeferred = 0;
  private readonly db: Database.Database;
  private readonly stmt;
  private readonly nodeSearch: NodeSearch;
  private readonly edits: NodeEdits;
  /** Reads along one path of a tree (a prompt's history) without loading the tree. */
  readonly paths: NodePaths;
  /** What other processes wrote, for a studio that shows their changes live. */
  readonly changes: ChangeLog;
  private readonly deletions: Deletions;
  private readonly versions: TrajectoryVersions;

  private constructor(
    readonly path: string,
    db: Database.Database,
    /** Opened where this user may not write: reads work, every write says so. */
    readonly readOnly = false,
    private readonly busyTimeoutMs = BUSY_TIMEOUT_MS,
  ) {
    this.db = db;
    this.stmt = {
      insertTrajectory: db.prepare(
        `INSERT INTO trajectories (id, title, domain, system_prompt, world_spec, source_key, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertNode: db.prepare(INSERT_NODE_POSITIONAL),
      insertPlainNode: db.prepare(INSERT_PLAIN_NODE),
      // A trajectory whose id or source key is already there is left as it is (no row, no log entry).
      insertNewTrajectory: db.prepare(INSERT_NEW_TRAJECTORY),
      trajectoryById: db.prepare(`SELECT * FROM trajectories WHERE id = ?`),
      nodeById: db.prepare(`SELECT * FROM nodes WHERE id = ?`),
      childrenOf: db.prepare(`SELECT * FROM nodes WHERE parent_id = ? ORDER BY rowid`),
      nodesOf: db.prepare(`SELECT * FROM nodes WHERE trajectory_id = ? ORDER BY rowid`),
      // A row's label needs only the start of the action; the observation is read whole for its key.
      outlineOf: db.prepare(
        `SELECT id, parent_id, edited_from_id, depth, origin, substr(action, 1, 400) AS action, observation, starred, rating, tags
         FROM nodes WHERE trajectory_id = ? ORDER BY rowid`,
      ),
    };
    this.nodeSearch = new NodeSearch(db);
    this.edits = new NodeEdits(db, this.nodeSearch);
    this.paths = new NodePaths(db);
    this.changes = new ChangeLog(db);
    this.deletions = new Deletions(db, this.nodeSearch);
    this.versions = new TrajectoryVersions(db);
  }

  /** Opens an existing workspace, migrating it forward if it is older; read-only where it cannot be written. */
  static open(path: string, options: StoreOptions = {}): WorkspaceStore {
    if (!existsSync(path)) {
      throw new WorkspaceError(`No workspace at ${path}. Check the path, or create a workspace there (New workspace… on the start screen; from the command line, importing into it creates it).`, 'not-found');
    }
    if (statSync(path).size === 0) {
      throw new WorkspaceError(`${path} is an empty file, not a Worldloom workspace. It was left untouched.`, 'not-a-workspace');
    }
    inspectExisting(path);
    if (!canWrite(path)) return WorkspaceStore.connectForReading(path);
    return WorkspaceStore.connect(path, options);
  }

  /** Creates a new workspace file; refuses to overwrite anything that exists. */
  static create(path: string, options: StoreOptions = {}): WorkspaceStore {
    if (existsSync(path)) {
      throw new WorkspaceError(`${path} already exists. Open it instead, or choose a new file name.`, 'exists');
    }
    return WorkspaceStore.connect(path, options);
  }

  static openOrCreate(path: string, options: StoreOptions = {}): WorkspaceStore {
    return existsSync(path) ? WorkspaceStore.open(path, options) : WorkspaceStore.create(path, options);
  }

  private static connectForReading(path: string): WorkspaceStore {
    const db = openForReading(path);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version < SCHEMA_VERSION) {
      db.close();
      throw new WorkspaceError(
        `${path} was written by an older Worldloom and must be upgraded before it can be read, but this user may not write it. ` +
          'Copy it to a folder you can write to and open the copy.',
        'read-only',
      );
    }
    return new WorkspaceStore(path, db, true);
  }

  private static connect(path: string, options: StoreOptions): WorkspaceStore {
    const db = openDatabase(path, false);
    const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
    try {
      // Set first: even the switch to WAL waits for another process that is writing.
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      // 64 MB page cache: large imports and big trees stay in memory instead of re-reading pages.
      db.pragma('cache_size = -65536');
      // Migrations that rebuild a table need foreign keys off (SQLite ignores the pragma inside
      // a transaction); migrate() checks every reference before it commits each step.
      db.pragma('foreign_keys = OFF');
      migrate(db);
      db.pragma('foreign_keys = ON');
    } catch (err) {
      db.close();
      if (sqliteCode(err) === 'SQLITE_BUSY') throw busyError(path, busyTimeoutMs);
      throw err;
    }
    return new WorkspaceStore(path, db, false, busyTimeoutMs);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /**
   * Runs `fn` in one transaction: all of it is written or none of it. The transaction takes
   * the write lock at its start (BEGIN IMMEDIATE), waiting up to the busy timeout for another
   * process: a deferred one that reads first could not wait when it comes to write.
   */
  transaction<T>(fn: () => T): T {
    if (this.readOnly) throw readOnlyError(this.path);
    try {
      return this.db.transaction(() => this.changes.ownWrite(fn)).immediate();
    } catch (err) {
      const code = sqliteCode(err);
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT') throw busyError(this.path, this.busyTimeoutMs);
      if (code?.startsWith('SQLITE_READONLY')) throw readOnlyError(this.path);
      throw err;
    }
  }

  /** Removes whole trajectories (what a cancelled import wrote), their search text included. */
  removeTrajectories(ids: readonly string[]): void {
    this.transaction(() => {
      for (const id of ids) {
        this.nodeSearch.forgetTrajectory(id);
        this.db.prepare(`DELETE FROM nodes WHERE trajectory_id = ?`).run(id);
        this.db.prepare(`DELETE FROM trajectories WHERE id = ?`).run(id);
      }
      this.nodeSearch.afterRowsDeleted();
    });
  }

  /**
   * Steps an import adds under a trajectory already here (a resumed session's turns, continuing
   * the trajectory of the session it resumed), parents before children, in one transaction.
   */
  appendImportedNodes(nodes: readonly NodeRecord[]): void {
    this.transaction(() => {
      for (const n of nodes) {
        this.writeNode(n);
        logNodeAdded(this.db, n.trajectoryId, n.id);
      }
    });
  }

  /** Takes back steps `appendImportedNodes` added (a cancelled import), their search text included. */
  removeImportedNodes(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.transaction(() => {
      // Children before parents: a node's parent must stay while it is there.
      for (const id of [...ids].reverse()) {
        this.nodeSearch.forgetText(id);
        this.db.prepare(`DELETE FROM nodes WHERE id = ?`).run(id);
      }
      this.nodeSearch.afterRowsDeleted();
    });
  }

  /** Whether a trajectory imported from the source with this key is here. */
  hasSourceKey(sourceKey: string): boolean {
    return this.db.prepare(`SELECT 1 FROM trajectories WHERE source_key = ?`).get(sourceKey) !== undefined;
  }

  /**
   * The roots of the trajectories imported from `format` whose session (provenance source.sampleId)
   * is one of `sampleIds`, or that name `resumedFrom` among the sessions they resumed (claudeCode.resumedFrom).
   */
  importedRoots(format: string, match: { sampleIds: readonly string[] } | { resumedFrom: string }): { trajectoryId: string; rootId: string; provenance: Record<string, unknown> }[] {
    const roots = `SELECT id, trajectory_id, provenance FROM nodes WHERE parent_id IS NULL AND json_extract(provenance, '$.source.format') = ?`;
    const rows = (
      'sampleIds' in match
        ? this.db.prepare(`${roots} AND json_extract(provenance, '$.source.sampleId') IN (SELECT value FROM json_each(?))`).all(format, JSON.stringify(match.sampleIds))
        : this.db.prepare(`${roots} AND EXISTS (SELECT 1 FROM json_each(provenance, '$.claudeCode.resumedFrom') WHERE value = ?)`).all(format, match.resumedFrom)
    ) as { id: string; trajectory_id: string; provenance: string }[];
    return rows.map((r) => ({ trajectoryId: r.trajectory_id, rootId: r.id, provenance: JSON.parse(r.provenance) as Record<string, unknown> }));
  }

  /**
   * Writes a whole trajectory. Call inside `transaction` when writing many. Its one
   * 'trajectory-added' entry (a trigger) covers its nodes: no entry per node.
   */
  insertBundle(bundle: TrajectoryBundle): void {
    if (!this.db.inTransaction) return this.transaction(() => this.insertBundle(bundle));
    this.writeBundle(bundle);
  }

  /**
   * Writes an import's batch of whole trajectories (`bundleValues`) in one transaction, each
   * unless one with its id or source key is already there; returns the ids of those written.
   * `bundleValues` checked that every reference of a bundle's nodes points inside it, so
   * SQLite's foreign-key lookups (two index searches per node) are switched off for this
   * transaction only; inside another transaction the switch cannot change and they stay on.
   */
  insertNewBundles(batch: readonly BundleValues[]): string[] {
    if (this.readOnly) throw readOnlyError(this.path);
    const inserted: string[] = [];
    const nested = this.db.inTransaction;
    if (!nested) this.db.pragma('foreign_keys = OFF');
    try {
      this.transaction(() => {
        for (const v of batch) if (this.writeBundleValues(v)) inserted.push(v[0] as string);
      });
    } finally {
      if (!nested) this.db.pragma('foreign_keys = ON');
    }
    return inserted;
  }

  /** One trajectory of `insertNewBundles`; false when it was already there. Values bound one by one: faster than a list. */
  private writeBundleValues(v: BundleValues): boolean {
    if (this.stmt.insertNewTrajectory.run(v[0], v[1], v[2], v[3], v[4], v[5], v[6]).changes === 0) return false;
    const nodes = v[7] as number;
    const plain = this.stmt.insertPlainNode;
    for (let k = 0, i = 8; k < nodes; k++) {
      const count = v[i] as number;
      if (count === 9) plain.run(v[i + 1], v[i + 2], v[i + 3], v[i + 4], v[i + 5], v[i + 6], v[i + 7], v[i + 8], v[i + 9]);
      else this.stmt.insertNode.run(v.slice(i + 1, i + 1 + count));
      i += count + 1;
    }
    return true;
  }

  /**
   * While an import runs: a checkpoint (copying the write-ahead log into the file, with two
   * fsyncs) once per 64 MiB written instead of SQLite's default 4 MiB, so a large import pays
   * for a few instead of hundreds. `false` puts the default back and checkpoints what was
   * deferred, unless another connection is reading (then the next commit does it). Calls nest:
   * an import of many files defers once around them all, so each small file (an agent's
   * session) does not pay for a checkpoint of its own; only the outermost `false` checkpoints.
   */
  deferCheckpoints(defer: boolean): void {
    if (this.readOnly || !this.db.open) return;
    if (defer && this.checkpointsDeferred++ > 0) return;
    if (!defer && this.checkpointsDeferred > 0 && --this.checkpointsDeferred > 0) return;
    if (defer) {
      this.db.pragma(`wal_autocheckpoint = ${(64 * 1024 * 1024) / (this.db.pragma('page_size', { simple: true }) as number)}`);
      return;
    }
    this.db.pragma('wal_autocheckpoint = 1000');
    if (this.db.inTransaction) return;
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Only sooner than the next commit would: a failure here (a full disk) must not hide the import's own error.
    }
  }

  private writeBundle(bundle: TrajectoryBundle): void {
    const t = bundle.trajectory;
    // Positional values: binding named parameters costs more, once per trajectory of an import.
    this.stmt.insertTrajectory.run(t.id, t.title, t.domain, t.systemPrompt, t.worldSpec ? JSON.stringify(t.worldSpec) : null, t.sourceKey, t.createdAt);
    for (const n of bundle.nodes) this.writeNode(n);
  }

  private writeNode(n: NodeRecord): void {
    // Values passed one by one: better-sqlite3 binds them faster than an array of them.
    if (isPlainNode(n)) {
      this.stmt.insertPlainNode.run(n.id, n.trajectoryId, n.parentId, n.depth, n.action, n.observation, n.origin, JSON.stringify(n.provenance), n.createdAt);
    } else this.stmt.insertNode.run(nodeValues(n));
  }

  createTrajectory(input: {
    title: string;
    domain: Domain;
    systemPrompt: string;
    initialState: string;
    worldSpec?: WorldSpec | null;
  }): TrajectoryBundle {
    const now = new Date().toISOString();
    const id = newId();
    const bundle: TrajectoryBundle = {
      trajectory: {
        id,
        title: input.title,
        domain: input.domain,
        systemPrompt: input.systemPrompt,
        worldSpec: input.worldSpec ?? null,
        createdAt: now,
        sourceKey: null,
      },
      nodes: [
        {
          id: newId(),
          trajectoryId: id,
          parentId: null,
          editedFromId: null,
          depth: 0,
          action: '',
          observation: input.initialState,
          reasoning: null,
          origin: 'manual',
          provenance: {},
          curation: EMPTY_CURATION,
          metrics: null,
          createdAt: now,
        },
      ],
    };
    this.transaction(() => this.insertBundle(bundle));
    return bundle;
  }

  /** Adds a child node under `parentId` (a new step, a sample, or an edit of a sibling). */
  addNode(input: NewNode): NodeRecord {
    const parent = this.getNode(input.parentId);
    if (!parent) throw new WorkspaceError(`Node ${input.parentId} does not exist in this workspace.`, 'invalid');
    const node: NodeRecord = {
      id: newId(),
      trajectoryId: parent.trajectoryId,
      parentId: parent.id,
      editedFromId: input.editedFromId ?? null,
      depth: parent.depth + 1,
      action: input.action,
      observation: input.observation,
      reasoning: input.reasoning ?? null,
      ...(input.agentReasoning != null ? { agentReasoning: input.agentReasoning } : {}),
      origin: input.origin,
      provenance: input.provenance ?? {},
      curation: EMPTY_CURATION,
      metrics: input.metrics ?? null,
      createdAt: new Date().toISOString(),
    };
    this.transaction(() => {
      this.writeNode(node);
      logNodeAdded(this.db, node.trajectoryId, node.id);
    });
    return node;
  }

  setCuration(nodeId: string, patch: Partial<Curation>): NodeRecord {
    const node = this.getNode(nodeId);
    if (!node) throw new WorkspaceError(`Node ${nodeId} does not exist in this workspace.`, 'invalid');
    const next = Curation.parse({ ...node.curation, ...patch });
    this.transaction(() => {
      // Notes and tags are searchable, so the index follows them.
      this.nodeSearch.forgetText(nodeId);
      this.db
        .prepare(`UPDATE nodes SET starred = ?, rating = ?, tags = ?, note = ? WHERE id = ?`)
        .run(next.starred ? 1 : 0, next.rating, JSON.stringify(next.tags), next.note, nodeId);
      this.nodeSearch.indexText(nodeId);
    });
    return { ...node, curation: next };
  }

  /** Saves an edited state as a new node beside the original; the original stays. */
  editNode(id: string, change: { action: string; observation: string }): NodeRecord {
    return this.transaction(() => this.edits.edit(id, change));
  }

  /** Undoes an edit by removing the node it created (a leaf); `redoEdit` puts it back. */
  undoEdit(id: string): NodeRecord {
    return this.transaction(() => this.edits.undo(id));
  }

  redoEdit(id: string): NodeRecord {
    return this.transaction(() => this.edits.redo(id));
  }

  /** Full-text search and filters across every trajectory. */
  searchNodes(query: NodeSearchQuery): NodeSearchResult {
    return this.nodeSearch.search(query);
  }

  /** Indexes for search whatever was written since the last search; returns how many nodes. */
  indexForSearch(): number {
    return this.nodeSearch.catchUp();
  }

  listTags(): { tag: string; count: number }[] {
    return this.nodeSearch.tags();
  }

  getTrajectory(id: string): TrajectoryRecord | undefined {
    const row = this.stmt.trajectoryById.get(id) as TrajectoryRow | undefined;
    return row && toTrajectory(row);
  }

  getNode(id: string): NodeRecord | undefined {
    const row = this.stmt.nodeById.get(id) as NodeRow | undefined;
    return row && toNode(row);
  }

  /** A node's children (its steps, samples and edits below it), oldest first: the one children query. */
  childrenOf(parentId: string): NodeRecord[] {
    return (this.stmt.childrenOf.all(parentId) as NodeRow[]).map(toNode);
  }

  /** All nodes of a trajectory, parents before children. */
  getNodes(trajectoryId: string): NodeRecord[] {
    return (this.stmt.nodesOf.all(trajectoryId) as NodeRow[]).map(toNode);
  }

  /**
   * Only the nodes of a trajectory that are two or more samples (neither real nor imported) of
   * one action from one state, or a perturbed one, with the recorded steps of the same action
   * beside them: what sibling agreement and sample labels need, without loading a large tree whole.
   */
  getSiblingSamples(trajectoryId: string): NodeRecord[] {
    const rows = this.db
      .prepare(
        `SELECT n.* FROM nodes n JOIN (
           SELECT parent_id, action FROM nodes
           WHERE trajectory_id = ? AND parent_id IS NOT NULL AND origin NOT IN ('real', 'imported')
           GROUP BY parent_id, action HAVING COUNT(*) >= 2 OR SUM(origin = 'perturbed') >= 1
         ) g ON g.parent_id = n.parent_id AND g.action = n.action
         ORDER BY n.rowid`,
      )
      .all(trajectoryId) as NodeRow[];
    return rows.map(toNode);
  }

  /** What the tree's outline needs of each node of a trajectory, parents before children. */
  getOutlineSources(trajectoryId: string): OutlineSource[] {
    const rows = this.stmt.outlineOf.all(trajectoryId) as Pick<NodeRow, 'id' | 'parent_id' | 'edited_from_id' | 'depth' | 'origin' | 'action' | 'observation' | 'starred' | 'rating' | 'tags'>[];
    return rows.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      editedFromId: r.edited_from_id,
      depth: r.depth,
      origin: r.origin,
      action: r.action,
      observation: r.observation,
      starred: r.starred === 1,
      rating: r.rating,
      tags: r.tags === '[]' ? [] : (JSON.parse(r.tags) as string[]),
    }));
  }

  listTrajectories(): TrajectorySummary[] {
    const rows = this.db
      .prepare(
        `SELECT t.*, COUNT(n.id) - 1 AS steps, COALESCE(MAX(n.depth), 0) AS max_depth
         FROM trajectories t LEFT JOIN nodes n ON n.trajectory_id = t.id
         GROUP BY t.id ORDER BY t.rowid`,
      )
      .all() as (TrajectoryRow & { steps: number; max_depth: number })[];
    return rows.map((r) => ({ ...toTrajectory(r), steps: Math.max(0, r.steps), maxDepth: r.max_depth }));
  }

  *iterateBundles(ids?: readonly string[]): Iterable<TrajectoryBundle> {
    const trajectoryIds =
      ids ?? (this.db.prepare(`SELECT id FROM trajectories ORDER BY rowid`).pluck().all() as string[]);
    for (const id of trajectoryIds) {
      const trajectory = this.getTrajectory(id);
      if (trajectory) yield { trajectory, nodes: this.getNodes(id) };
    }
  }

  info(): WorkspaceInfo {
    const count = (sql: string) => this.db.prepare(sql).pluck().get() as number;
    const group = (sql: string) =>
      Object.fromEntries((this.db.prepare(sql).raw().all() as [string, number][]).map(([k, v]) => [k, v]));
    return {
      path: this.path,
      trajectories: count(`SELECT COUNT(*) FROM trajectories`),
      steps: count(`SELECT COUNT(*) FROM nodes WHERE parent_id IS NOT NULL`),
      byDomain: group(`SELECT domain, COUNT(*) FROM trajectories GROUP BY domain ORDER BY domain`),
      byOrigin: group(
        `SELECT origin, COUNT(*) FROM nodes WHERE parent_id IS NOT NULL GROUP BY origin ORDER BY origin`,
      ),
    };
  }

  getSetting(key: string): string | undefined {
    return this.db.prepare(`SELECT value FROM settings WHERE key = ?`).pluck().get(key) as string | undefined;
  }

  setSetting(key: string, value: string): void {
    this.transaction(() =>
      this.db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(key, value),
    );
  }

  /** A trajectory's world specification is settings, not content: it may change (the old one is kept as a version). */
  setWorldSpec(trajectoryId: string, worldSpec: WorldSpec | null): void {
    this.reviseTrajectory(trajectoryId, { worldSpec });
  }

  /** Changes a trajectory's title, description or world specification; what was there is kept as a version. */
  reviseTrajectory(id: string, change: TrajectoryRevision): { trajectory: TrajectoryRecord; keptVersion: number | null } {
    return this.transaction(() => this.versions.revise(id, change));
  }

  /** A trajectory's earlier titles, descriptions and world specifications, newest first. */
  trajectoryVersions(id: string): TrajectoryVersion[] {
    return this.versions.list(id);
  }

  restoreTrajectoryVersion(id: string, version: number): { trajectory: TrajectoryRecord; keptVersion: number | null } {
    return this.transaction(() => this.versions.restore(id, version));
  }

  /** Deletes nodes with the steps below them and the edits made of them; `restoreDeletion` takes it back. */
  deleteNodes(ids: readonly string[], label: string): Deleted {
    return this.transaction(() => this.deletions.deleteNodes(ids, label));
  }

  /** Deletes whole trajectories; `restoreDeletion` takes it back. */
  deleteTrajectories(ids: readonly string[], label: string): Deleted {
    return this.transaction(() => this.deletions.deleteTrajectories(ids, label));
  }

  restoreDeletion(deletionId: string): Restored & { deletion: DeletionSummary } {
    return this.transaction(() => this.deletions.restore(deletionId));
  }

  /**
   * Drops the change log's oldest entries, only if no other process is writing right now (then
   * it waits for the next time): opening a workspace never waits for the write lock.
   */
  pruneChangeLog(): void {
    if (this.readOnly) return;
    this.db.pragma('busy_timeout = 0');
    try {
      this.db.transaction(() => this.changes.prune()).immediate();
    } catch (err) {
      if (!sqliteCode(err)?.startsWith('SQLITE_BUSY')) throw err;
    } finally {
      this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    }
  }

  /** Deletions that can still be taken back, newest first. */
  listDeletions(limit?: number): DeletionSummary[] {
    return this.deletions.list(limit);
  }

  /** A deleted node as it was, while its deletion is kept. */
  deletedNode(id: string): NodeRecord | undefined {
    return this.deletions.deletedNode(id);
  }

  integrityCheck(): string {
    return this.db.pragma('integrity_check', { simple: true }) as string;
  }
}

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new WorkspaceError(`Workspace schema ${version} is newer than this Worldloom (${SCHEMA_VERSION}).`, 'newer-schema');
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      // Another process may have migrated it while this one waited for the lock.
      if ((db.pragma('user_version', { simple: true }) as number) > v) return;
      db.exec(MIGRATIONS[v]!);
      const broken = db.pragma('foreign_key_check') as unknown[];
      if (broken.length > 0) {
        throw new WorkspaceError(
          `Upgrading the workspace to schema ${v + 1} found ${broken.length} broken references; nothing was changed. Keep the file and report this.`,
          'invalid',
        );
      }
      db.pragma(`application_id = ${WORKSPACE_APPLICATION_ID}`);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
