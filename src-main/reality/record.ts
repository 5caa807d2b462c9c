// Recording: run a list of actions in a fresh real environment and store what happened as
// a new trajectory whose every node is `real`. The root keeps how the environment was
// started, so "run real" can start the same kind of environment again later.
import type { RealDomain, RealEnvironmentSettings } from '../common/contract/reality';
import type { WorkspaceStore } from '../store/workspace-store';
import { chainBundle } from '../common/trajectory/build';
import { newId } from '../common/trajectory/ids';
import type { NodeRecord, Provenance } from '../common/trajectory/model';
import { RealEnvironmentError, type RealEnvironment } from './environment';
import { openRealEnvironment } from './registry';

export type Progress = (done: number, total: number, label: string) => void;

/** Settings as kept in a workspace: without environment variables, which may hold secrets. */
export function keptSettings(settings: RealEnvironmentSettings): RealEnvironmentSettings {
  if (!settings.mcp?.env) return settings;
  const { env: _secrets, ...mcp } = settings.mcp;
  return { ...settings, mcp };
}

/** Environment settings a trajectory was recorded with, if its root has them. */
export function recordedSettings(root: NodeRecord | undefined): RealEnvironmentSettings {
  const environment = root?.provenance.environment as { settings?: RealEnvironmentSettings } | undefined;
  return environment?.settings ?? {};
}

export function environmentProvenance(env: RealEnvironment, settings: RealEnvironmentSettings): Provenance {
  return { environment: { domain: env.domain, sandbox: env.sandbox, settings: keptSettings(settings) } };
}

/** Runs `action` as step `index` (1-based), naming the step when the environment rejects it. */
export async function realStep(env: RealEnvironment, action: string, index: number) {
  try {
    return await env.step(action);
  } catch (err) {
    if (err instanceof RealEnvironmentError) throw new RealEnvironmentError(`Step ${index} (${action.slice(0, 80)}): ${err.message}`, err.code as never);
    throw err;
  }
}

/**
 * Records `actions` as a new real trajectory. The root is stored once the environment has
 * started and each step as soon as it completes, so a process killed mid-recording keeps
 * every step it finished.
 */
export async function recordTrajectory(
  store: WorkspaceStore,
  input: { domain: RealDomain; actions: readonly string[]; title?: string; settings: RealEnvironmentSettings },
  onProgress: Progress = () => {},
  signal?: AbortSignal,
): Promise<{ trajectoryId: string; steps: number; sandbox: string }> {
  const env = openRealEnvironment(input.domain, input.settings);
  try {
    onProgress(0, input.actions.length, `Starting the real ${input.domain} environment…`);
    const initialState = await env.start();
    const now = new Date().toISOString();
    const bundle = chainBundle(
      {
        title: input.title?.trim() || `Recorded ${input.domain} session ${now.slice(0, 16).replace('T', ' ')}`,
        domain: input.domain,
        systemPrompt: env.description(),
        initialState,
        rootProvenance: { ...environmentProvenance(env, input.settings), recordedAt: now },
        steps: [],
      },
      newId,
      now,
    );
    // What the environment showed before the first action is real too.
    bundle.nodes[0]!.origin = 'real';
    store.transaction(() => store.insertBundle(bundle));
    let parent: NodeRecord = bundle.nodes[0]!;
    let steps = 0;
    for (const [i, action] of input.actions.entries()) {
      if (signal?.aborted) break;
      const step = await realStep(env, action, i + 1);
      parent = store.addNode({ parentId: parent.id, action, observation: step.observation, origin: 'real', provenance: { engine: 'real', real: step.details } });
      steps++;
      onProgress(i + 1, input.actions.length, action);
    }
    return { trajectoryId: bundle.trajectory.id, steps, sandbox: env.sandbox };
  } finally {
    await env.dispose();
  }
}
