// How much N samples of one action agree with each other: the world model's uncertainty at
// that step. Pairwise edit similarity between the samples, its mean as the agreement (1 =
// every sample the same), the consensus sample (the one closest to all others: a medoid,
// so it is always an observation the model actually wrote), and each sample against the
// real observation when there is one. Pure.
import { editSimilarity } from './edit-distance';

/**
 * Work allowed per pair (see editDistance): enough for exact scores on ordinary observations,
 * and a bounded line-aligned estimate on huge ones, so 16 samples of a long listing stay fast.
 */
export const AGREEMENT_PAIR_BUDGET = 2e6;

export interface SampleAgreement {
  /** pairwise[i][j]: edit similarity of samples i and j (1 on the diagonal). */
  pairwise: number[][];
  /** Mean pairwise similarity; null with fewer than two samples (nothing to agree). */
  agreement: number | null;
  /** 1 − agreement: how far the samples spread; null with fewer than two samples. */
  spread: number | null;
  /** Index of the consensus sample: the highest mean similarity to the others (the first on a tie). */
  consensus: number;
  /** Per sample, its mean similarity to the others (1 for a lone sample). */
  centrality: number[];
  /** How many different observations the samples hold, byte for byte. */
  distinct: number;
  /** Per sample, its edit similarity to the real observation; null when there is none. */
  toReal: number[] | null;
}

/** Agreement among samples of one action, and against the real observation when given. */
export function sampleAgreement(observations: readonly string[], real: string | null = null, budget = AGREEMENT_PAIR_BUDGET): SampleAgreement {
  const n = observations.length;
  const pairwise = observations.map(() => new Array<number>(n).fill(1));
  let sum = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = observations[i]!;
      const b = observations[j]!;
      const s = a === b ? 1 : editSimilarity(a, b, budget);
      pairwise[i]![j] = s;
      pairwise[j]![i] = s;
      sum += s;
    }
  }
  const pairs = (n * (n - 1)) / 2;
  const centrality = pairwise.map((row, i) => (n < 2 ? 1 : (row.reduce((a, b) => a + b, 0) - row[i]!) / (n - 1)));
  let consensus = 0;
  for (let i = 1; i < n; i++) if (centrality[i]! > centrality[consensus]!) consensus = i;
  const agreement = pairs > 0 ? sum / pairs : null;
  return {
    pairwise,
    agreement,
    spread: agreement === null ? null : 1 - agreement,
    consensus,
    centrality,
    distinct: new Set(observations).size,
    toReal: real === null ? null : observations.map((o) => (o === real ? 1 : editSimilarity(o, real, budget))),
  };
}

export type AgreementBand = 'agree' | 'differ' | 'disagree';

/** Where a curator should look: samples that disagree first. Thresholds on mean edit similarity. */
export function agreementBand(agreement: number): AgreementBand {
  if (agreement >= 0.9) return 'agree';
  if (agreement >= 0.6) return 'differ';
  return 'disagree';
}
