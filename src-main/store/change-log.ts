// What other processes wrote to the workspace. Triggers (migration 4) log every change of a
// node or trajectory in `change_log`; this connection remembers which entries its own writes
// made (every write of the store runs in `ownWrite`, inside its transaction, where no other
// writer can add entries), so a reader here sees exactly what the CLI, another window or a
// recorder wrote. `PRAGMA data_version` changes only when another
// connection commits, so polling it costs nothing while nobody else writes.
import type Database from 'better-sqlite3';

/** Entries older than the newest this many are dropped when a workspace is opened for writing. */
const KEPT_ENTRIES = 50_000;

export type ChangeKind = 'node-added' | 'node-removed' | 'node-marked' | 'trajectory-added' | 'trajectory-changed' | 'trajectory-removed';

export interface ChangeEntry {
  seq: number;
  kind: ChangeKind;
  trajectoryId: string;
  nodeId: string | null;
  /** For a removed node: its parent, original, depth, origin and creation time, as JSON. */
  removed: string | null;
}

/**
 * Logs nodes added one by one (not as part of a whole new trajectory, which its
 * 'trajectory-added' entry covers). Call inside the write's transaction.
 */
export function logNodeAdded(db: Database.Database, trajectoryId: string, nodeId: string): void {
  db.prepare(`INSERT INTO change_log (kind, trajectory_id, node_id) VALUES ('node-added', ?, ?)`).run(trajectoryId, nodeId);
}

export class ChangeLog {
  private dataVersion: number;
  /** Entries this connection's own writes made, as [first, last] ranges, until a read passes them. */
  private own: [number, number][] = [];

  constructor(private readonly db: Database.Database) {
    this.dataVersion = this.readDataVersion();
  }

  /** Runs one write of this connection; call inside its transaction, so the entries it makes are its own. */
  ownWrite<T>(write: () => T): T {
    const before = this.latest();
    const result = write();
    const after = this.latest();
    if (after > before) this.own.push([before + 1, after]);
    return result;
  }

  private readDataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /** Drops the oldest entries; every reader starts from the newest when it starts. Call inside a transaction. */
  prune(): void {
    this.db.prepare(`DELETE FROM change_log WHERE seq <= (SELECT MAX(seq) FROM change_log) - ?`).run(KEPT_ENTRIES);
  }

  /** The newest entry's number: a reader starting now reads what comes after it. */
  latest(): number {
    return (this.db.prepare(`SELECT COALESCE(MAX(seq), 0) FROM change_log`).pluck().get() as number) ?? 0;
  }

  /** True when another connection committed since the last call. */
  othersWrote(): boolean {
    const now = this.readDataVersion();
    if (now === this.dataVersion) return false;
    this.dataVersion = now;
    return true;
  }

  /**
   * Entries after `since` that other connections wrote, oldest first, at most `limit`, and the
   * number to read from next time. `gap` is true when entries after `since` were already dropped.
   */
  since(since: number, limit: number): { entries: ChangeEntry[]; next: number; more: boolean; gap: boolean } {
    const oldest = this.db.prepare(`SELECT MIN(seq) FROM change_log`).pluck().get() as number | null;
    const gap = oldest !== null && oldest > since + 1 && since > 0;
    const rows = this.db
      .prepare(
        `SELECT seq, kind, trajectory_id AS trajectoryId, node_id AS nodeId, removed FROM change_log
         WHERE seq > ? ORDER BY seq LIMIT ?`,
      )
      .all(since, limit + 1) as ChangeEntry[];
    const more = rows.length > limit;
    const read = rows.slice(0, limit);
    const next = read.length ? read.at(-1)!.seq : since;
    const mine = (seq: number) => this.own.some(([first, last]) => seq >= first && seq <= last);
    const entries = read.filter((e) => !mine(e.seq));
    this.own = this.own.filter(([, last]) => last > next);
    return { entries, next, more, gap };
  }
}
