// Puts recorded sessions into a workspace as recorded trajectories, node for node the way
// `worldloom record` stores them (src-main/reality/record.ts): the recorder's description as
// the system prompt, the initial state as a real root, every step a real node. The demo
// workspace's files are imported beside them, as the app's demo import does.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileHead, fileSource } from '../../src-main/parsing/sources';
import { importTrajectories } from '../../src-main/formats/import-trajectories';
import type { WorkspaceStore } from '../../src-main/store/workspace-store';
import { chainBundle } from '../../src-main/common/trajectory/build';
import { newId } from '../../src-main/common/trajectory/ids';
import type { RecordedSession } from './paths';

export function addRecordedSession(store: WorkspaceStore, session: RecordedSession): string {
  const now = new Date().toISOString();
  const bundle = chainBundle(
    {
      title: session.id,
      domain: session.domain,
      systemPrompt: session.systemPrompt,
      initialState: session.initialState,
      rootProvenance: { recordedAt: now },
      steps: session.steps.map((s) => ({ action: s.action, observation: s.observation, origin: 'real' as const, provenance: { engine: 'real' } })),
    },
    newId,
    now,
  );
  bundle.nodes[0]!.origin = 'real';
  store.transaction(() => store.insertBundle(bundle));
  return bundle.trajectory.id;
}

/** Imports every demo file; returns the ids of the trajectories it added. */
export function addDemoTrajectories(store: WorkspaceStore, demoDir: string): string[] {
  const before = new Set(store.listTrajectories().map((t) => t.id));
  for (const file of readdirSync(demoDir).filter((f) => f.endsWith('.jsonl')).sort()) {
    importTrajectories(store, fileSource(join(demoDir, file)), { head: fileHead(join(demoDir, file)) });
  }
  return store.listTrajectories().map((t) => t.id).filter((id) => !before.has(id));
}
