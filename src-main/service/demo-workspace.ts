// The demo workspace: real recorded trajectories (resources/demo/*.jsonl, recorded in the
// terminal sandbox and from the reference MCP memory server) copied into a workspace of the
// user's own on first use, so `npm start` opens something to simulate from at once.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceInfo } from '../common/contract/api';
import { fileHead, fileSource } from '../parsing/sources';
import { importTrajectories } from '../formats/import-trajectories';
import { configDir } from './recent-workspaces';
import type { Studio } from './studio';

/** Where the demo workspace lives: made the first time the app's start screen opens it. */
export function demoWorkspacePath(): string {
  return join(configDir(), 'demo.worldloom');
}

export function openDemoWorkspace(studio: Studio): WorkspaceInfo {
  mkdirSync(configDir(), { recursive: true });
  const info = studio.openWorkspace(demoWorkspacePath(), 'open-or-create');
  // Filled whenever it is empty, not only when first created, so a first open whose import
  // failed (or was closed before it began) does not leave an empty demo for good.
  if (info.trajectories > 0) return info;
  const dir = join(studio.extras.resourcesDir, 'demo');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort() : [];
  if (files.length === 0) {
    throw new Error(`The demo trajectories are missing (expected *.jsonl in ${dir}). Reinstall Worldloom, or create a workspace of your own and import trajectories into it.`);
  }
  for (const file of files) importTrajectories(studio.requireStore(), fileSource(join(dir, file)), { head: fileHead(join(dir, file)) });
  studio.emit('workspace.changed', { reason: 'imported' });
  return studio.requireStore().info();
}

/**
 * The demo benchmark: the demo trajectories written as AgentWorldBench files
 * (`worldloom export --format agentworldbench`: its terminal sessions, 14 cases), so the
 * Evaluation panel can be tried before one has the benchmark. Null where it is not installed.
 */
export function demoBenchmarkDir(studio: Studio): string | null {
  const dir = join(studio.extras.resourcesDir, 'demo', 'agentworldbench');
  return existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('_test.jsonl')) ? dir : null;
}
