// Replay: put the world model through a recorded real trajectory. At each recorded step
// the model sees the real history up to it (the same prompt as any simulation, built by
// messagesForStep) and predicts the observation; the prediction is stored as a
// `simulated` sibling of the real node, with its metrics against the real observation.
import type { Sampling } from '../contract/simulation';
import { DEFAULT_SAMPLING, type WorldModelEngine } from '../engine/engine';
import { compareObservations } from '../metrics/compare';
import { parseModelOutput } from '../prompt/model-output';
import { promptHash } from '../prompt/prompt-hash';
import type { TemplateFolders } from '../prompt/template-files';
import { refuseOversizedPrompt } from '../service/prompt-size';
import { UserError } from '../service/user-error';
import { messagesForStep } from '../simulation/simulate-step';
import type { WorkspaceStore } from '../store/workspace-store';
import type { NodeRecord } from '../trajectory/model';
import { recordedChain } from './comparison';
import type { Progress } from './record';

export async function replayTrajectory(
  store: WorkspaceStore,
  engine: WorldModelEngine,
  templates: TemplateFolders,
  input: { trajectoryId: string; sampling: Partial<Sampling> },
  onProgress: Progress = () => {},
  signal?: AbortSignal,
): Promise<{ nodes: NodeRecord[]; cancelled: boolean }> {
  const trajectory = store.getTrajectory(input.trajectoryId);
  if (!trajectory) throw new UserError(`Trajectory ${input.trajectoryId} is not in this workspace.`, 'not-found');
  const chain = recordedChain(store.getNodes(trajectory.id));
  if (chain.length < 2) {
    throw new UserError(`"${trajectory.title}" has no recorded real steps to replay. Record or import a real session (asciinema cast, MCP log, SWE-agent or ATIF trajectory) first.`, 'invalid');
  }
  // Greedy unless asked otherwise: a replay should say what the model most expects.
  const sampling = { ...DEFAULT_SAMPLING, temperature: 0, ...input.sampling };
  const description = engine.describe();
  const nodes: NodeRecord[] = [];
  const steps = chain.slice(1);
  for (const [i, real] of steps.entries()) {
    onProgress(i, steps.length, `Simulating step ${i + 1} of ${steps.length}: ${real.action.slice(0, 80)}`);
    const messages = await messagesForStep(store, templates, real.parentId!, real.action);
    refuseOversizedPrompt(messages, description.contextLength, `The prompt for step ${i + 1}`);
    const [result] = await engine.generate([{ id: '0', messages, sampling }], () => {}, signal);
    if (!result || result.finishReason === 'cancelled') return { nodes, cancelled: true };
    if (result.finishReason === 'error') throw new UserError(`The world model could not simulate step ${i + 1}: ${result.error ?? 'unknown error'}`, 'engine-failed');
    const { observation, reasoning } = parseModelOutput(result.text);
    nodes.push(
      store.addNode({
        parentId: real.parentId!,
        action: real.action,
        observation,
        reasoning,
        origin: 'simulated',
        provenance: {
          engine: description.kind,
          modelId: description.modelId,
          device: description.device,
          sampling: { ...sampling },
          seed: sampling.seed,
          promptHash: await promptHash(messages),
          tokens: { prompt: result.promptTokens, completion: result.completionTokens },
          timings: { ...result.timings, cachedPromptTokens: result.cachedPromptTokens },
          finishReason: result.finishReason,
          rawOutput: result.text,
          replayOf: real.id,
        },
        metrics: compareObservations(trajectory.domain, observation, real.observation, { action: real.action }),
      }),
    );
  }
  onProgress(steps.length, steps.length, 'Replay finished');
  return { nodes, cancelled: false };
}
