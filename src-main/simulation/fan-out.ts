// Many simulations at once (DESIGN.md "Model engines": a server or a llama.cpp context takes
// dozens of requests together). Every path that makes many independent steps (policy
// expansion, replay, a perturbation sweep, resampling several nodes, evaluation) hands them
// here: up to `limit` run at once, yet each result is stored in the order the steps were
// given, never in order of completion, so the same command with the same seeds makes the
// same nodes whether one or sixteen ran together. A step that fails is named and the rest keep
// their results; cancelling stops launching, and every step in flight ends as its engine
// cancels it (what finished stays).

/** What the progress of a fan-out says: finished, running, failed, and the rate so far. */
export interface FanOutProgress {
  done: number;
  inFlight: number;
  failed: number;
  total: number;
  /** Steps finished per second since the fan-out began. */
  perSecond: number;
}

/** A step that failed after its engine's own retries, named so the user can run it again. */
export interface FanOutFailure {
  index: number;
  /** The step in the user's words ("step 3 of 'git log'", "node 1a2b…: ls"). */
  step: string;
  message: string;
}

/**
 * Hands each step its turn to store: `turn()` resolves once every earlier step has stored (or
 * failed, or was never started because the fan-out stopped), so storing happens in step order.
 */
export type StoreTurn = () => Promise<void>;

export interface FanOutOptions<T, R> {
  /** Steps in flight at once; at least 1. */
  limit: number;
  signal?: AbortSignal;
  /** Runs one step; awaits `turn()` just before it writes anything. */
  run(item: T, index: number, turn: StoreTurn): Promise<R>;
  /** Names a step for its failure. */
  describe(item: T, index: number): string;
  /** Asked before each launch: false stops launching (a token or time budget ran out). */
  mayStart?(): boolean;
  /** Told of each step's result as it finishes (in order of completion), e.g. to count a budget. */
  onResult?(result: R, index: number): void;
  onProgress?(progress: FanOutProgress): void;
}

export interface FanOutOutcome<R> {
  /** In step order; undefined for a step that failed or never started. */
  results: (R | undefined)[];
  failures: FanOutFailure[];
  /** Steps that were never started (cancelled, or `mayStart` said no). */
  notStarted: number;
}

/** Resolves turn i once every step before i has settled; steps settle in any order. */
class StoreOrder {
  private readonly settled: boolean[];
  private readonly gates: Promise<void>[];
  private readonly opens: (() => void)[] = [];
  private next = 0;

  constructor(count: number) {
    this.settled = new Array<boolean>(count).fill(false);
    this.gates = Array.from({ length: count + 1 }, (_, i) => (i === 0 ? Promise.resolve() : new Promise<void>((open) => (this.opens[i] = open))));
  }

  /** Resolves when every step before `index` has settled. */
  turn(index: number): Promise<void> {
    return this.gates[index]!;
  }

  settle(index: number): void {
    this.settled[index] = true;
    while (this.next < this.settled.length && this.settled[this.next]) {
      this.next++;
      this.opens[this.next]?.();
    }
  }
}

/** Runs `items` with up to `limit` in flight; see the file comment for the guarantees. */
export async function fanOut<T, R>(items: readonly T[], options: FanOutOptions<T, R>): Promise<FanOutOutcome<R>> {
  const limit = Math.max(1, Math.floor(options.limit));
  const order = new StoreOrder(items.length);
  const results = new Array<R | undefined>(items.length);
  const failures: FanOutFailure[] = [];
  const began = performance.now();
  let done = 0;
  let inFlight = 0;
  let launched = 0;
  let stopped = false;
  const report = () => {
    const seconds = (performance.now() - began) / 1000;
    options.onProgress?.({ done, inFlight, failed: failures.length, total: items.length, perSecond: seconds > 0 ? done / seconds : 0 });
  };

  const runOne = async (index: number): Promise<void> => {
    const item = items[index]!;
    try {
      const result = await options.run(item, index, () => order.turn(index));
      results[index] = result;
      done++;
      options.onResult?.(result, index);
    } catch (error) {
      failures.push({ index, step: options.describe(item, index), message: (error as Error).message });
    } finally {
      inFlight--;
      order.settle(index);
      report();
    }
  };

  // Workers take the next step in order, so lower steps always start first and a step waiting
  // for its turn to store never waits on one that has not started.
  const worker = async (): Promise<void> => {
    while (!stopped && launched < items.length) {
      if (options.signal?.aborted || (options.mayStart && !options.mayStart())) {
        stopped = true;
        break;
      }
      const index = launched++;
      inFlight++;
      report();
      await runOne(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  // Steps never started settle too, so nothing waits on them.
  for (let i = launched; i < items.length; i++) order.settle(i);
  failures.sort((a, b) => a.index - b.index);
  return { results, failures, notStarted: items.length - launched };
}

/** "12 done · 4 in flight · 1 failed · 3.2/s": what the CLI and the job panel show while steps run. */
export function fanOutLabel(progress: FanOutProgress, what = 'steps'): string {
  const rate = progress.perSecond >= 10 ? progress.perSecond.toFixed(0) : progress.perSecond.toFixed(1);
  return (
    `${progress.done} of ${progress.total} ${what} done · ${progress.inFlight} in flight` +
    (progress.failed ? ` · ${progress.failed} failed` : '') +
    ` · ${rate}/s`
  );
}
