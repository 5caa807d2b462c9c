// A trajectory's own fields (title, environment description, world specification) may change;
// each change keeps what was there before as a numbered version, so an earlier description
// can always be read and put back. Nodes simulated before a change keep their prompt hash.
import type Database from 'better-sqlite3';
import type { TrajectoryRecord, WorldSpec } from '../common/trajectory/model';
import { toTrajectory, type TrajectoryRow } from './rows';
import { WorkspaceError } from './workspace-error';

export interface TrajectoryRevision {
  title?: string;
  systemPrompt?: string;
  worldSpec?: WorldSpec | null;
}

export interface TrajectoryVersion {
  version: number;
  title: string;
  systemPrompt: string;
  worldSpec: WorldSpec | null;
  /** When this version stopped being the current one. */
  replacedAt: string;
}

interface VersionRow {
  version: number;
  title: string;
  system_prompt: string;
  world_spec: string | null;
  replaced_at: string;
}

export class TrajectoryVersions {
  constructor(private readonly db: Database.Database) {}

  private current(id: string): TrajectoryRecord {
    const row = this.db.prepare(`SELECT * FROM trajectories WHERE id = ?`).get(id) as TrajectoryRow | undefined;
    if (!row) throw new WorkspaceError(`Trajectory ${id} does not exist in this workspace.`, 'not-found');
    return toTrajectory(row);
  }

  /**
   * Changes a trajectory's own fields, keeping the fields as they were as a new version.
   * Call inside a transaction. Returns the record as it is now and the number of the version kept.
   */
  revise(id: string, change: TrajectoryRevision): { trajectory: TrajectoryRecord; keptVersion: number | null } {
    const before = this.current(id);
    const after: TrajectoryRecord = {
      ...before,
      title: change.title ?? before.title,
      systemPrompt: change.systemPrompt ?? before.systemPrompt,
      worldSpec: change.worldSpec === undefined ? before.worldSpec : change.worldSpec,
    };
    if (after.title.trim() === '') throw new WorkspaceError('A trajectory needs a title: type one, or press Esc to keep the old one.', 'invalid');
    const same =
      after.title === before.title && after.systemPrompt === before.systemPrompt && JSON.stringify(after.worldSpec) === JSON.stringify(before.worldSpec);
    if (same) return { trajectory: before, keptVersion: null };
    const keptVersion =
      ((this.db.prepare(`SELECT COALESCE(MAX(version), 0) FROM trajectory_versions WHERE trajectory_id = ?`).pluck().get(id) as number) ?? 0) + 1;
    this.db
      .prepare(`INSERT INTO trajectory_versions (trajectory_id, version, title, system_prompt, world_spec, replaced_at) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(id, keptVersion, before.title, before.systemPrompt, before.worldSpec ? JSON.stringify(before.worldSpec) : null, new Date().toISOString());
    this.db
      .prepare(`UPDATE trajectories SET title = ?, system_prompt = ?, world_spec = ? WHERE id = ?`)
      .run(after.title, after.systemPrompt, after.worldSpec ? JSON.stringify(after.worldSpec) : null, id);
    return { trajectory: after, keptVersion };
  }

  /** Earlier versions, newest first. */
  list(id: string): TrajectoryVersion[] {
    this.current(id);
    const rows = this.db.prepare(`SELECT * FROM trajectory_versions WHERE trajectory_id = ? ORDER BY version DESC`).all(id) as VersionRow[];
    return rows.map((r) => ({
      version: r.version,
      title: r.title,
      systemPrompt: r.system_prompt,
      worldSpec: r.world_spec ? (JSON.parse(r.world_spec) as WorldSpec) : null,
      replacedAt: r.replaced_at,
    }));
  }

  /** Makes an earlier version current again; the current one is kept as a version in turn. Call inside a transaction. */
  restore(id: string, version: number): { trajectory: TrajectoryRecord; keptVersion: number | null } {
    const kept = this.list(id).find((v) => v.version === version);
    if (!kept) throw new WorkspaceError(`Trajectory ${id} has no version ${version}.`, 'not-found');
    return this.revise(id, { title: kept.title, systemPrompt: kept.systemPrompt, worldSpec: kept.worldSpec });
  }
}
