// Per-step comparison of a simulated observation with the real one, as the record stored
// in NodeRecord.metrics, and the mean over many steps for per-domain and overall reports.
import type { Domain } from '../trajectory/model';
import { editSimilarity } from './edit-distance';
import { jsonStructureMatch } from './json-structure';
import { diffLines, lineSimilarity } from './line-diff';
import { terminalConsistency } from './terminal-state';
import { exactMatch, tokenF1 } from './text-match';

/** Metric names as stored in NodeRecord.metrics. Scores are 0..1; line counts are counts. */
export const METRICS = {
  exactMatch: 'exactMatch',
  editSimilarity: 'editSimilarity',
  tokenF1: 'tokenF1',
  linesAdded: 'linesAdded',
  linesRemoved: 'linesRemoved',
  lineSimilarity: 'lineSimilarity',
  jsonStructure: 'jsonStructure',
  promptConsistency: 'promptConsistency',
  cwdConsistency: 'cwdConsistency',
} as const;

export type MetricsRecord = Record<string, number>;

export interface CompareContext {
  /** The action that produced both observations (lets `pwd` output count as the working directory). */
  action?: string;
}

/**
 * Every metric that applies to the domain. Metrics that cannot be judged for this pair
 * (no prompt in the real terminal text, a real MCP result that is not JSON) are left out
 * rather than scored 0, so they do not drag aggregates down.
 */
export function compareObservations(domain: Domain, simulated: string, real: string, context: CompareContext = {}): MetricsRecord {
  const lines = diffLines(real, simulated);
  const record: MetricsRecord = {
    [METRICS.exactMatch]: exactMatch(simulated, real),
    [METRICS.editSimilarity]: editSimilarity(simulated, real),
    [METRICS.tokenF1]: tokenF1(simulated, real),
    [METRICS.linesAdded]: lines.added,
    [METRICS.linesRemoved]: lines.removed,
    [METRICS.lineSimilarity]: lineSimilarity(lines),
  };
  if (domain === 'mcp') {
    const structure = jsonStructureMatch(simulated, real);
    // A real result that is not JSON gives nothing to compare shapes against.
    if (!structure.reason?.startsWith('the real')) record[METRICS.jsonStructure] = structure.score;
  }
  if (domain === 'terminal') {
    const state = terminalConsistency(simulated, real, context.action);
    if (state.prompt !== undefined) record[METRICS.promptConsistency] = state.prompt;
    if (state.cwd !== undefined) record[METRICS.cwdConsistency] = state.cwd;
  }
  return record;
}

/** Mean of each metric over the records that have it (missing, null and NaN values are skipped). */
export function aggregate(records: Iterable<MetricsRecord | null | undefined>): MetricsRecord {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const record of records) {
    if (!record) continue;
    for (const [name, value] of Object.entries(record)) {
      if (!Number.isFinite(value)) continue;
      const s = sums.get(name) ?? { sum: 0, n: 0 };
      s.sum += value;
      s.n++;
      sums.set(name, s);
    }
  }
  const means: MetricsRecord = {};
  for (const [name, { sum, n }] of sums) means[name] = sum / n;
  return means;
}
