// The evaluation slice: one evaluation run read from its folder (written by `worldloom
// eval` or by the public AgentWorldBench script), and drill-down into its samples.
import { call } from '../api/client';
import { notify, selectTrajectory } from './store';
import { areaHook } from './studio';

export const useEvaluation = areaHook('evaluation');

export async function readEvaluation(outDir: string): Promise<void> {
  try {
    const { summary, samples } = await call('eval.read', { outDir });
    useEvaluation.setState({ outDir, summary, samples });
  } catch (err) {
    notify('error', 'Could not read the evaluation', [(err as Error).message]);
  }
}

export async function openSample(key: string): Promise<void> {
  const { outDir } = useEvaluation.getState();
  try {
    const opened = await call('eval.openSample', { outDir, key });
    await selectTrajectory(opened.trajectoryId, opened.predictedNodeId);
  } catch (err) {
    notify('error', `Could not open ${key}`, [(err as Error).message]);
  }
}
