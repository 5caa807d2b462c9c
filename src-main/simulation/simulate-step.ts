// Simulating one step: the world model predicts the observation of `action` taken at a
// node, K samples at once, each becoming a `simulated` child with full provenance. A sample
// that ran out of tokens before its observation was complete never becomes a node: it comes
// back as incomplete, to be continued or retried with a larger budget.
import type { Continuation, IncompleteSample, Sampling, SimulateResult } from '../common/contract/simulation';
import type { EngineDescription, GenerateRequest, GenerateResult, WorldModelEngine } from '../common/engine';
import { checkConsistency } from '../common/perturbations/consistency';
import { incompleteness, parseModelOutput, type Incompleteness } from '../common/prompt/model-output';
import { promptHash } from '../common/prompt/prompt-hash';
import type { TemplateFolders } from '../prompt/template-files';
import { refuseOversizedPrompt } from './prompt-size';
import { UserError } from '../common/user-error';
import type { WorkspaceStore } from '../store/workspace-store';
import type { NodeRecord, Origin, WorldSpec } from '../common/trajectory/model';
import { engineRequestParts, samplingRecord } from './generation-parameters';
import { promptForStep } from './step-prompt';

export interface SimulateStepInput {
  nodeId: string;
  action: string;
  samples: number;
  /** The settings in force (GenerationParameters.resolve); sample i uses seed + i. */
  sampling: Sampling;
  /** Resume one incomplete sample from what it wrote (send its seed in `sampling`). */
  continuation?: Continuation;
  /** Extra provenance to record on every new node (e.g. the perturbation applied, the real step replayed). */
  provenance?: Record<string, unknown>;
  controlInstruction?: string | null;
  /** Metrics to store with each new node, from its observation (e.g. against the real one, for replay). */
  metricsFor?: (observation: string) => Record<string, number>;
  /** Who made the node, when not the studio's own simulate (`agent`: mcp-serve, policy expansion). */
  origin?: Origin;
  /** A deterministic change of each parsed observation before it is stored (a transform-mode perturbation). */
  transformObservation?: (observation: string) => string;
  /**
   * Resolves when this step may write: a fan-out (fan-out.ts) stores steps in the order they
   * were given, whatever order their generations finish in.
   */
  storeTurn?: () => Promise<void>;
}

/** One streamed piece of a sample, with its running token count and the run's elapsed time. */
export interface SampleProgress {
  sample: number;
  text: string;
  completionTokens: number;
  elapsedMs: number;
}

/** The chat messages the world model sees for `action` after `nodeId`. */
export async function messagesForStep(
  store: WorkspaceStore,
  templates: TemplateFolders,
  nodeId: string,
  action: string,
  controlInstruction?: string | null,
) {
  return (await promptForStep(store, templates, nodeId, action, controlInstruction)).messages;
}

const INCOMPLETE_WHILE: Record<Incompleteness, string> = {
  reasoning: 'while reasoning',
  'no-observation': 'after reasoning, before writing the observation',
  observation: 'while writing the observation',
};

/** "ran out of tokens while reasoning (32768 used)": what the user is told, in the panel and the CLI. */
export function incompleteMessage(reason: Incompleteness, completionTokens: number): string {
  return `ran out of tokens ${INCOMPLETE_WHILE[reason]} (${completionTokens} used)`;
}

export async function simulateStep(
  store: WorkspaceStore,
  engine: WorldModelEngine,
  templates: TemplateFolders,
  input: SimulateStepInput,
  onToken: (progress: SampleProgress) => void,
  signal?: AbortSignal,
): Promise<SimulateResult> {
  const continuation = input.continuation;
  if (continuation && input.samples !== 1) {
    throw new UserError('Continuing an incomplete sample resumes that one sample: ask for 1 sample, with its seed.', 'invalid');
  }
  const { messages } = await promptForStep(store, templates, input.nodeId, input.action, input.controlInstruction);
  // Counting characters is free; tokenizing a prompt that cannot fit is not.
  refuseOversizedPrompt(messages, engine.describe().contextLength);
  const hash = await promptHash(messages);
  const earlierTokens = continuation?.completionTokens ?? 0;
  const requests: GenerateRequest[] = Array.from({ length: input.samples }, (_, i) => {
    const parts = engineRequestParts({ ...input.sampling, seed: input.sampling.seed + i });
    return { id: String(i), messages, ...parts, ...(continuation ? { continuation: continuation.text } : {}) };
  });
  const started = performance.now();
  const streamed = new Array<number>(input.samples).fill(0);
  // In-process, a token's event names its id (the think block the prompt opened, and text
  // held back until a character was complete, come without one); a server streams one chunk per token.
  const countsEvents = engine.describe().kind === 'openai';
  const results = await engine.generate(
    requests,
    (e) => {
      const sample = Number(e.requestId);
      if (countsEvents || e.tokenId !== undefined) streamed[sample] = (streamed[sample] ?? 0) + 1;
      onToken({ sample, text: e.text, completionTokens: earlierTokens + streamed[sample]!, elapsedMs: performance.now() - started });
    },
    signal,
  );
  const seconds = (performance.now() - started) / 1000;
  const description = engine.describe();
  const cancelled = results.some((r) => r.finishReason === 'cancelled');
  const failed = results.find((r) => r.finishReason === 'error');
  if (failed && results.every((r) => r.finishReason === 'error')) {
    throw new UserError(`The world model could not simulate this step: ${failed.error ?? 'unknown error'}`, 'engine-failed');
  }
  const completionTokens = results.reduce((n, r) => n + r.completionTokens, 0);
  // A continued sample is judged and stored whole: what it wrote before and what it wrote now.
  const whole = results.map((r): GenerateResult => (continuation ? { ...r, text: continuation.text + r.text, completionTokens: earlierTokens + r.completionTokens } : r));
  const nodes: NodeRecord[] = [];
  const incomplete: IncompleteSample[] = [];
  // A cancelled job writes nothing: the user stopped it, so half-made samples are not kept.
  if (!cancelled) {
    await input.storeTurn?.();
    const worldSpec = store.getTrajectory(store.getNode(input.nodeId)!.trajectoryId)!.worldSpec;
    store.transaction(() => {
      whole.forEach((r, i) => {
        if (r.finishReason === 'error') return;
        const sampling = { ...input.sampling, seed: input.sampling.seed + i };
        const reason = incompleteness(r.text, r.finishReason);
        if (reason) {
          incomplete.push(incompleteSample(i, sampling, r, reason));
          return;
        }
        nodes.push(
          recordSample(store, {
            parentId: input.nodeId,
            action: input.action,
            result: r,
            sampling,
            engine: description,
            promptHash: hash,
            worldSpec,
            provenance: { ...input.provenance, ...(continuation ? { continued: true } : {}) },
            metricsFor: input.metricsFor,
            origin: input.origin,
            transformObservation: input.transformObservation,
          }),
        );
      });
    });
  }
  return {
    nodes,
    incomplete,
    cancelled,
    tokensPerSecond: seconds > 0 ? completionTokens / seconds : 0,
    device: description.device,
    sampling: input.sampling,
  };
}

function incompleteSample(sample: number, sampling: Sampling, r: GenerateResult, reason: Incompleteness): IncompleteSample {
  return {
    sample,
    seed: sampling.seed,
    reason,
    message: incompleteMessage(reason, r.completionTokens),
    completionTokens: r.completionTokens,
    text: r.text,
    reasoning: parseModelOutput(r.text).reasoning ?? '',
    maxTokens: sampling.maxTokens,
  };
}

export interface SampleToRecord {
  parentId: string;
  action: string;
  result: GenerateResult;
  sampling: Sampling;
  engine: EngineDescription;
  promptHash: string;
  worldSpec: WorldSpec | null;
  provenance?: Record<string, unknown>;
  metricsFor?: (observation: string) => Record<string, number>;
  origin?: Origin;
  transformObservation?: (observation: string) => string;
}

/** Writes one generated sample as a node: `perturbed` when a perturbation shaped it, else `simulated`. */
export function recordSample(store: WorkspaceStore, sample: SampleToRecord): NodeRecord {
  const parsed = parseModelOutput(sample.result.text);
  const reasoning = parsed.reasoning;
  const observation = sample.transformObservation ? sample.transformObservation(parsed.observation) : parsed.observation;
  // Observations that contradict the trajectory's world specification are flagged, not hidden.
  const contradictions = sample.worldSpec ? checkConsistency(sample.worldSpec, observation) : [];
  const r = sample.result;
  return store.addNode({
    parentId: sample.parentId,
    action: sample.action,
    observation,
    reasoning,
    origin: sample.origin ?? (sample.provenance?.perturbations ? 'perturbed' : 'simulated'),
    provenance: {
      engine: sample.engine.kind,
      modelId: sample.engine.modelId,
      ...(sample.engine.identity ? { modelIdentity: sample.engine.identity } : {}),
      ...(sample.engine.name ? { modelName: sample.engine.name } : {}),
      device: sample.engine.device,
      sampling: samplingRecord(sample.sampling),
      seed: sample.sampling.seed,
      promptHash: sample.promptHash,
      tokens: { prompt: r.promptTokens, completion: r.completionTokens },
      timings: { ...r.timings, cachedPromptTokens: r.cachedPromptTokens },
      finishReason: r.finishReason,
      rawOutput: r.text,
      ...(contradictions.length ? { worldSpecContradictions: contradictions } : {}),
      ...sample.provenance,
    },
    metrics: sample.metricsFor?.(observation) ?? null,
  });
}
