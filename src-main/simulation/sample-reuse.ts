// Reusing samples: a sample already made with the same seed, action, prompt, model and
// settings would come out the same, so simulate and replay hand back the node that holds it
// instead of adding an identical one.
import { promptHash } from '../common/prompt/prompt-hash';
import type { Sampling } from '../common/contract/simulation';
import type { WorldModelEngine } from '../common/engine';
import type { NodeRecord } from '../common/trajectory/model';
import type { TemplateFolders } from '../prompt/template-files';
import type { WorkspaceStore } from '../store/workspace-store';
import { samplingRecord } from './generation-parameters';
import { promptForStep } from './step-prompt';

/**
 * For each of `samples` seeds (seed + i), the simulated child of `nodeId` that already holds
 * what that sample would produce: the same action, prompt, model and settings. Null where none.
 * Among several such children, one that `prefer` picks comes first (a replay's own, say).
 */
export async function existingSamples(
  store: WorkspaceStore,
  engine: WorldModelEngine,
  templates: TemplateFolders,
  nodeId: string,
  action: string,
  samples: number,
  sampling: Sampling,
  prefer: (node: NodeRecord) => boolean = () => false,
): Promise<(NodeRecord | null)[]> {
  const children = store.childrenOf(nodeId).filter((c) => c.origin === 'simulated' && c.action === action);
  if (children.length === 0) return new Array<NodeRecord | null>(samples).fill(null);
  const hash = await promptHash((await promptForStep(store, templates, nodeId, action, null)).messages);
  const { modelId, identity } = engine.describe();
  return Array.from({ length: samples }, (_, i) => {
    const wanted = JSON.stringify(samplingRecord({ ...sampling, seed: sampling.seed + i }));
    const same = children.filter(
      (c) =>
        c.provenance.seed === sampling.seed + i &&
        c.provenance.promptHash === hash &&
        c.provenance.modelId === modelId &&
        // Another folder of the same model type is another model: its samples are not these.
        (c.provenance.modelIdentity ?? null) === (identity ?? null) &&
        JSON.stringify(c.provenance.sampling) === wanted &&
        !c.provenance.continued,
    );
    return same.find(prefer) ?? same[0] ?? null;
  });
}

/** The runs of samples still to simulate, as (first sample, how many). */
export function missingRanges(existing: readonly (unknown | null)[]): { start: number; count: number }[] {
  const ranges: { start: number; count: number }[] = [];
  existing.forEach((n, i) => {
    if (n !== null) return;
    const last = ranges.at(-1);
    if (last && last.start + last.count === i) last.count++;
    else ranges.push({ start: i, count: 1 });
  });
  return ranges;
}
