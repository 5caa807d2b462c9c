// What every benchmark reports: figures measured in one run, each a ratio against a peer
// or a limit measured in the same run (the machines are shared and noisy).
export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** measured / peer (or / limit); lower is better unless `higherIsBetter`. */
  ratio?: number;
  goal?: number;
  higherIsBetter?: boolean;
  note?: string;
}

export interface BenchSuite {
  name: string;
  run(): Promise<Figure[]>;
}

export function meetsGoal(f: Figure): boolean | null {
  if (f.ratio === undefined || f.goal === undefined) return null;
  return f.higherIsBetter ? f.ratio >= f.goal : f.ratio <= f.goal;
}

/** The middle value (the upper middle of an even count): what a round on a drifting machine reads as. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function timeIt<T>(fn: () => T): { ms: number; result: T } {
  const start = performance.now();
  const result = fn();
  return { ms: performance.now() - start, result };
}

/**
 * Resampling ×8 from ≥ 1,500 tokens of history with prefix reuse against none, on one model
 * folder (median of `rounds` alternating rounds; a figure whose tokens differ counts as failed).
 */
export async function resampleFigure(folder: string, label: string, rounds: number): Promise<Figure> {
  // Imported here so suites that never resample do not load the engine.
  const { benchEngine } = await import('../src-main/testing/engine-bench');
  const { resample } = await benchEngine(folder, { providers: ['cpu'], historyTokens: 1500, samples: 8, maxTokens: 32, rounds });
  const identical = resample.identical;
  return {
    name: `${label}resample ×8 from ${resample.promptTokens} tokens, prefix reuse vs none`,
    value: resample.reuseMs,
    unit: 'ms',
    ratio: identical ? resample.speedup : 0,
    goal: 4,
    higherIsBetter: true,
    note:
      `no reuse ${resample.noReuseMs.toFixed(0)} ms; ${resample.cachedPromptTokens} prompt tokens from the cache; 32 sampled tokens each; ` +
      `median of ${rounds} alternating rounds (${resample.speedups.map((x) => x.toFixed(1)).join(', ')}×); ` +
      (identical ? 'identical tokens with and without reuse' : 'TOKENS DIFFER with and without reuse'),
  };
}
