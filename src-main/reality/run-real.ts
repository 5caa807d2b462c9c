// "Run real" on any node: execute its path's actions from the root in a fresh real
// environment and put each real observation beside the step that was not real, as a
// `real` sibling (same parent, same action) whose metrics compare it with that step.
import type { RealEnvironmentSettings } from '../common/contract/reality';
import { compareObservations } from '../common/metrics/compare';
import type { WorkspaceStore } from '../store/workspace-store';
import { pathTo } from '../common/trajectory/build';
import type { NodeRecord } from '../common/trajectory/model';
import { UserError } from '../common/user-error';
import { isRealNode } from './comparison';
import { RealEnvironmentError } from './environment';
import { environmentProvenance, realStep, recordedSettings, type Progress } from './record';
import { openRealEnvironment } from './registry';

export async function runReal(
  store: WorkspaceStore,
  input: { nodeId: string; settings?: RealEnvironmentSettings; confirmedActions: readonly string[] },
  onProgress: Progress = () => {},
  signal?: AbortSignal,
): Promise<{ nodes: NodeRecord[]; sandbox: string }> {
  const node = store.getNode(input.nodeId);
  if (!node) throw new UserError(`Node ${input.nodeId} is not in this workspace.`, 'not-found');
  const trajectory = store.getTrajectory(node.trajectoryId)!;
  const path = pathTo(store.getNodes(trajectory.id), node.id);
  if (path.length < 2) throw new UserError('The root has no action to run: choose a step of the path to run for real.', 'invalid');
  // Settings come only from the caller (the Run real dialog, CLI flags). A trajectory's own
  // provenance is data from a file, and a file never chooses what runs on this machine.
  const settings = input.settings ?? {};
  if (trajectory.domain === 'mcp' && !settings.mcp) {
    const named = recordedSettings(path[0]).mcp;
    throw new RealEnvironmentError(
      named
        ? `Run real needs the MCP server command from you. This trajectory names \`${[named.command, ...named.args].join(' ')}\`, but a command in a trajectory's data never runs by itself: check it in the Run real dialog and confirm it, or give your own.`
        : 'Give the command that starts the MCP server in the Run real dialog (for example `mcp-server-memory` after `npm install -g @modelcontextprotocol/server-memory`, or `node` with the script of the server; the sandbox has no network, so `npx -y` cannot download it there).',
      'start-failed',
    );
  }
  const steps = path.slice(1);
  // The actions come from the trajectory's data (perhaps a shared file): only what the user
  // read and confirmed runs, exactly as confirmed.
  const actions = steps.map((step) => step.action);
  if (actions.length !== input.confirmedActions.length || actions.some((action, i) => action !== input.confirmedActions[i])) {
    throw new UserError(
      `Run real runs only the steps you confirm: the ${actions.length} action${actions.length === 1 ? '' : 's'} of this path were not the ones confirmed. Open Run real again, read the steps and confirm them.`,
      'invalid',
    );
  }
  const env = openRealEnvironment(trajectory.domain, settings);
  const created: NodeRecord[] = [];
  try {
    onProgress(0, steps.length, `Starting the real ${trajectory.domain} environment…`);
    await env.start();
    for (const [i, step] of steps.entries()) {
      if (signal?.aborted) break;
      // Steps already real are run too, so the environment's state follows the path.
      const real = await realStep(env, step.action, i + 1);
      if (!isRealNode(step)) {
        created.push(
          store.addNode({
            parentId: step.parentId!,
            action: step.action,
            observation: real.observation,
            origin: 'real',
            provenance: { engine: 'real', real: real.details, ranRealFor: step.id, confirmedByUser: { steps: actions.length }, ...environmentProvenance(env, settings) },
            metrics: compareObservations(trajectory.domain, step.observation, real.observation, { action: step.action }),
          }),
        );
      }
      onProgress(i + 1, steps.length, step.action);
    }
    return { nodes: created, sandbox: env.sandbox };
  } finally {
    await env.dispose();
  }
}
