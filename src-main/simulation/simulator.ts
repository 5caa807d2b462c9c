// The one simulator. Every way a step gets simulated (the simulate panel and the CLI, an
// agent's step, policy expansion, replay) goes through it in the same order: resolve the
// settings in force (the model's, the workspace's, the call's), hand back the samples already
// made with them, simulate the missing ones (simulateStep generates and stores), and announce
// the new nodes to every UI. Callers add only what is theirs: who acted, what is perturbed,
// what the prediction is measured against.
import type { Sampling, SamplingOverrides, SimulateResult } from '../common/contract/simulation';
import type { WorldModelEngine } from '../common/engine';
import type { NodeRecord } from '../common/trajectory/model';
import { UserError } from '../common/user-error';
import type { TemplateFolders } from '../prompt/template-files';
import type { WorkspaceStore } from '../store/workspace-store';
import { generationParameters } from './generation-parameters';
import { existingSamples, missingRanges } from './sample-reuse';
import { simulateStep, type SampleProgress, type SimulateStepInput } from './simulate-step';
import { fanOut, type FanOutOutcome, type FanOutProgress, type StoreTurn } from './fan-out';

/** What a fan-out of simulations needs besides the steps: cancel, progress, and names for failures. */
export interface ManySimulations {
  signal?: AbortSignal;
  onProgress?: (progress: FanOutProgress) => void;
  /** Names step i for the job's list of failures. */
  describe: (index: number) => string;
  /** Asked before each launch: false stops launching (a budget ran out). */
  mayStart?: () => boolean;
  /** Told of each step's result as it finishes, e.g. to count a token budget. */
  onResult?: (result: SimulateResult, index: number) => void;
}

/** What the simulator needs of the core that owns it (the Studio), or of a script. */
export interface SimulationCore {
  readonly models: { readonly current: WorldModelEngine | null };
  requireStore(): WorkspaceStore;
  readonly templates: TemplateFolders;
  /** Tells every UI about new nodes of one trajectory. */
  announceNodesAdded(reason: string, nodes: readonly NodeRecord[]): void;
}

export interface SimulationRequest extends Omit<SimulateStepInput, 'samples' | 'sampling'> {
  /** 1 unless said otherwise; sample i uses the resolved seed + i. */
  samples?: number;
  /** The call's settings, over the workspace's and the model's. */
  sampling?: SamplingOverrides;
  /**
   * Hand back samples already made with the same seed, action, prompt, model and settings
   * instead of making identical ones: `true`, or a preference among several (a replay's own).
   * A continuation always generates.
   */
  reuse?: boolean | ((node: NodeRecord) => boolean);
  /** Why the nodes were added, as the `nodes.added` event says (`simulated`, `agent`, `replayed`). */
  reason: string;
}

/** A request checked against what is loaded and open, with its settings resolved: ready to run. */
export interface PreparedSimulation {
  readonly engine: WorldModelEngine;
  readonly store: WorkspaceStore;
  readonly request: SimulationRequest;
  readonly sampling: Sampling;
}

export const NO_MODEL_MESSAGE = 'No world model is loaded. Open the model panel and pick a model folder or an endpoint (on the command line: --model DIR|URL).';

export class Simulator {
  constructor(private readonly core: SimulationCore) {}

  /** The loaded world model; a clear refusal when there is none. */
  engine(): WorldModelEngine {
    const engine = this.core.models.current;
    if (!engine) throw new UserError(NO_MODEL_MESSAGE, 'no-model');
    return engine;
  }

  /** The open workspace; a clear refusal when there is none. */
  store(): WorkspaceStore {
    return this.core.requireStore();
  }

  get templates(): TemplateFolders {
    return this.core.templates;
  }

  /**
   * Checks the request and resolves its settings now, so a bad setting is refused before a job
   * starts and the caller knows the seed it will run with.
   */
  prepare(request: SimulationRequest): PreparedSimulation {
    const engine = this.engine();
    const store = this.store();
    return { engine, store, request, sampling: generationParameters(engine, store).resolve(request.sampling ?? {}) };
  }

  /** Prepares and runs `request`. */
  simulate(request: SimulationRequest, onToken?: (progress: SampleProgress) => void, signal?: AbortSignal): Promise<SimulateResult> {
    return this.run(this.prepare(request), onToken, signal);
  }

  /**
   * How many steps of `samples` samples each run at once: the loaded engine's request limit
   * shared among their samples (one at a time for an engine that says nothing).
   */
  stepsAtOnce(samples = 1): number {
    const requests = this.engine().describe().concurrency?.requests ?? 1;
    return Math.max(1, Math.floor(requests / Math.max(1, samples)));
  }

  /**
   * Runs many prepared simulations at once, up to what the engine takes (fan-out.ts): results
   * and stored nodes in the order given, a failed step named while the rest keep their results.
   */
  runMany(prepared: readonly PreparedSimulation[], options: ManySimulations): Promise<FanOutOutcome<SimulateResult>> {
    const samples = Math.max(1, ...prepared.map((p) => p.request.samples ?? 1));
    return fanOut(prepared, {
      limit: prepared.length ? this.stepsAtOnce(samples) : 1,
      signal: options.signal,
      mayStart: options.mayStart,
      onResult: options.onResult,
      onProgress: options.onProgress,
      describe: (_item, index) => options.describe(index),
      run: (item, _index, turn) => this.run(item, undefined, options.signal, turn),
    });
  }

  async run(
    prepared: PreparedSimulation,
    onToken: (progress: SampleProgress) => void = () => {},
    signal?: AbortSignal,
    /** In a fan-out: resolves when this step may store (steps store in the order given). */
    storeTurn?: StoreTurn,
  ): Promise<SimulateResult> {
    const { engine, store, sampling } = prepared;
    const { samples = 1, reuse = false, reason, sampling: _overrides, ...step } = prepared.request;
    const prefer = typeof reuse === 'function' ? reuse : undefined;
    const existing =
      reuse && !step.continuation
        ? await existingSamples(store, engine, this.templates, step.nodeId, step.action, samples, sampling, prefer)
        : new Array<NodeRecord | null>(samples).fill(null);
    const made: NodeRecord[] = [];
    const incomplete: SimulateResult['incomplete'] = [];
    let last: SimulateResult | null = null;
    let cancelled = false;
    for (const range of missingRanges(existing)) {
      const result = await simulateStep(
        store,
        engine,
        this.templates,
        { ...step, samples: range.count, sampling: { ...sampling, seed: sampling.seed + range.start }, storeTurn },
        (progress) => onToken({ ...progress, sample: progress.sample + range.start }),
        signal,
      );
      last = result;
      for (const node of result.nodes) existing[Number(node.provenance.seed) - sampling.seed] = node;
      made.push(...result.nodes);
      incomplete.push(...result.incomplete.map((i) => ({ ...i, sample: i.sample + range.start })));
      if (result.cancelled) {
        cancelled = true;
        break;
      }
    }
    this.core.announceNodesAdded(reason, made);
    const nodes = existing.filter((n): n is NodeRecord => n !== null);
    return {
      nodes,
      incomplete,
      cancelled,
      tokensPerSecond: last?.tokensPerSecond ?? 0,
      device: last?.device ?? engine.describe().device,
      sampling,
      reused: nodes.filter((n) => !made.includes(n)).map((n) => n.id),
    };
  }
}
