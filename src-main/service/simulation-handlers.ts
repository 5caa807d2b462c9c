// Handlers for the simulation part of the contract (contract/simulation.ts).
import { randomInt } from 'node:crypto';
import type { simulationApi } from '../common/contract/simulation';
import { fanOutLabel } from '../simulation/fan-out';
import { promptHash } from '../common/prompt/prompt-hash';
import { instructionOfNode } from '../simulation/perturb-step';
import { generationParameters, engineRequestParts } from '../simulation/generation-parameters';
import { installGpuRuntime } from '../simulation/gpu-runtime';
import { promptForStep } from '../simulation/step-prompt';
import { readSimulatePanel, writeSamplingOverrides, writeSimulatePanel } from '../store/workspace-settings';
import { workspaceRegistry } from '../simulation/workspace-perturbations';
import type { HandlersOf, Studio } from './studio';
import { UserError } from '../common/user-error';

export function simulationHandlers(studio: Studio): HandlersOf<typeof simulationApi> {
  const settings = () => generationParameters(studio.models.current, studio.workspace);
  return {
    'model.state': () => studio.models.state(),
    'model.load': ({ spec }) => studio.loadModel(spec),
    'model.unload': () => studio.unloadModel(),
    'model.installGpuRuntime': ({ jobId }) =>
      studio.jobs.start(
        'gpu-install',
        'Downloading the CUDA runtime for onnxruntime…',
        async (job) => {
          let lines = 0;
          const log = await installGpuRuntime((line) => job.progress(++lines, null, line), job.signal);
          return { log };
        },
        jobId,
      ),
    'sampling.get': () => settings().describe(),
    'sampling.setWorkspace': ({ overrides }) => {
      writeSamplingOverrides(studio.requireStore(), overrides);
      return settings().describe();
    },
    'simulate.run': ({ jobId, nodeId, action, samples, sampling, continuation }) => {
      // Checked and resolved before the job starts: a bad setting is refused at once.
      const prepared = studio.simulator.prepare({ nodeId, action, samples, sampling, continuation, reuse: true, reason: 'simulated' });
      const store = prepared.store;
      return studio.jobs.start(
        'simulate',
        samples > 1 ? `Simulating ${samples} samples` : 'Simulating',
        async (job) => {
          // The panel opens as it was left: how many samples, and the seed this run used.
          if (!store.readOnly) writeSimulatePanel(store, { samples, seed: prepared.sampling.seed });
          return studio.simulator.run(
            prepared,
            ({ sample, text, completionTokens, elapsedMs }) => studio.emit('simulate.token', { jobId, sample, text, completionTokens, elapsedMs }),
            job.signal,
          );
        },
        jobId,
      );
    },
    'simulate.resample': ({ jobId, nodeIds, samples, sampling }) => {
      const store = studio.requireStore();
      const steps = nodeIds.map((id) => {
        const node = store.getNode(id);
        if (!node) throw new UserError(`Node ${id} is not in this workspace.`, 'not-found');
        if (!node.parentId) throw new UserError(`Node ${id} is the initial state of its trajectory: it was not simulated from a step, so there is nothing to resample.`, 'invalid');
        return node;
      });
      // One fresh seed for all of them unless the call names one: their prompts differ, so the samples do too.
      const seed = sampling.seed ?? randomInt(0, 2 ** 31 - 1);
      const prepared = steps.map((node) =>
        studio.simulator.prepare({ nodeId: node.parentId!, action: node.action, samples, sampling: { ...sampling, seed }, reuse: true, reason: 'simulated' }),
      );
      return studio.jobs.start(
        'simulate',
        `Resampling ${steps.length} step${steps.length === 1 ? '' : 's'}`,
        async (job) => {
          const outcome = await studio.simulator.runMany(prepared, {
            signal: job.signal,
            describe: (i) => `node ${steps[i]!.id}: ${steps[i]!.action.slice(0, 60)}`,
            onProgress: (p) => job.steps(p, `Resampling: ${fanOutLabel(p)}`),
          });
          const results = outcome.results.map((r, i) => ({ r, node: steps[i]! })).filter((x) => x.r !== undefined);
          return {
            nodes: results.flatMap(({ r }) => r!.nodes),
            incomplete: results.flatMap(({ r, node }) => r!.incomplete.map((cut) => ({ ...cut, nodeId: node.id }))),
            failures: outcome.failures.map(({ step, message }) => ({ step, message })),
            cancelled: outcome.notStarted > 0 || results.some(({ r }) => r!.cancelled),
            seed,
          };
        },
        jobId,
      );
    },
    'simulate.remembered': () => readSimulatePanel(studio.requireStore()),
    'simulate.prompt': async ({ nodeId, action, sampling }) => {
      const store = studio.requireStore();
      const node = store.getNode(nodeId);
      if (!node) throw new UserError(`Node ${nodeId} is not in this workspace.`, 'not-found');
      // Without an action: the prompt that produced this node, from its parent, as recorded.
      if (action === undefined && !node.parentId) {
        throw new UserError('The initial state was not simulated from a prompt; choose a step below it, or give an action.', 'invalid');
      }
      const at = action === undefined ? node.parentId! : nodeId;
      const step = action ?? node.action;
      const recorded = action === undefined ? recordedThinking(node.provenance.sampling) : {};
      const instruction = action === undefined ? instructionOfNode(store, node, workspaceRegistry(store)) : null;
      const prompt = await promptForStep(store, studio.templates, at, step, instruction);
      const { templateKwargs = {} } = engineRequestParts(settings().resolve({ ...recorded, ...sampling }));
      const engine = studio.models.current;
      let rendered: string | null = null;
      let renderNote: string;
      if (!engine) renderNote = 'No model is loaded: the chat template is applied by the model that receives the messages.';
      else if (!engine.renderPrompt) renderNote = `${engine.describe().modelId || 'This server'} applies its chat template itself; these messages are what it receives.`;
      else {
        rendered = await engine.renderPrompt(prompt.messages, templateKwargs);
        renderNote = `Rendered with the chat template of ${engine.describe().modelId}.`;
      }
      return { messages: prompt.messages, templateKwargs, rendered, renderNote, source: prompt.source, promptHash: await promptHash(prompt.messages) };
    },
  };
}

/** The thinking switch a node was simulated with, so its exact prompt is shown as it was sent. */
function recordedThinking(sampling: unknown): { thinking?: boolean } {
  const thinking = (sampling as { thinking?: unknown } | undefined)?.thinking;
  return typeof thinking === 'boolean' ? { thinking } : {};
}
