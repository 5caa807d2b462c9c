// Drill-down: an evaluated sample opens as a trajectory in the workspace — the real turns up
// to the evaluated one, with the model's prediction as a simulated sibling of the real
// observation, metrics attached, so the sim-vs-real view can put them side by side. The
// result line carries the whole benchmark record, so the run's folder is all it needs,
// whichever tool (Worldloom or the public script) wrote it.
import { AwbLine, domainOf } from '../formats/agentworldbench';
import { contentKey } from '../formats/content-key';
import type { WorkspaceStore } from '../store/workspace-store';
import { chainBundle } from '../common/trajectory/build';
import { newId } from '../common/trajectory/ids';
import type { NodeRecord } from '../common/trajectory/model';
import { actionFromPrompt, observationFromResponse, promptForAction, responseForObservation } from '../common/trajectory/turn-format';
import { turnOf } from './benchmark-data';
import { evaluatedLines, openRunFolder, RESULT_FILES } from './result-files';
import { genOf, predictionProvenanceOf } from './result-lines';

export interface OpenedSample {
  trajectoryId: string;
  realNodeId: string;
  predictedNodeId: string;
}

export function openEvaluatedSample(store: WorkspaceStore, outDir: string, key: string): OpenedSample {
  const [evaluated] = evaluatedLines(openRunFolder(outDir, { repair: false }), [key]);
  if (!evaluated) throw new Error(`${outDir} has no prediction for ${key} yet; run worldloom eval to finish it.`);
  const { prediction, details, outcome } = evaluated;
  const parsed = AwbLine.safeParse(prediction);
  const turnIdx = turnOf(prediction.turn_idx);
  if (!parsed.success || turnIdx > parsed.data.prompt.length || turnIdx > parsed.data.response.length) {
    throw new Error(`The line for ${key} in ${outDir} does not hold an AgentWorldBench record with turn ${turnIdx}, so it cannot be opened.`);
  }
  const line = parsed.data;
  const domain = evaluated.domain ?? domainOf(line.task, '');
  if (!domain) throw new Error(`${key}: the task "${line.task}" names no domain Worldloom knows, so it cannot be opened.`);
  // A sample predicted again (a new `gen`) opens as a new trajectory.
  const sourceKey = contentKey(['eval-sample', outDir, key, genOf(prediction) ?? '']);
  const existing = store.listTrajectories().find((t) => t.sourceKey === sourceKey);
  if (existing) {
    const predicted = store.getNodes(existing.id).find((n) => n.origin === 'simulated')!;
    return { trajectoryId: existing.id, realNodeId: predicted.provenance.comparedWith as string, predictedNodeId: predicted.id };
  }
  const source = { format: 'agentworldbench', file: RESULT_FILES.predictions, sampleId: String(line.id) };
  const bundle = chainBundle(
    {
      title: `eval · ${key}`,
      domain,
      systemPrompt: line.system_str,
      sourceKey,
      rootProvenance: { source: { ...source, task: line.task } },
      steps: line.prompt.slice(0, turnIdx).map((p, i) => {
        const action = actionFromPrompt(p);
        const observation = observationFromResponse(line.response[i]!);
        // The benchmark's own text is kept where the parts do not rebuild it (GUI blocks, other
        // layouts), so simulating from this trajectory sends the model what the evaluation sent.
        const raw = {
          ...(promptForAction(i + 1, action) !== p ? { rawAction: p } : {}),
          ...(responseForObservation(observation) !== line.response[i] ? { rawObservation: line.response[i]! } : {}),
        };
        return { action, observation, origin: 'real' as const, provenance: { source: { ...source, ...raw } } };
      }),
    },
    newId,
    new Date().toISOString(),
  );
  const real = bundle.nodes[bundle.nodes.length - 1]!;
  const { model, sampling } = predictionProvenanceOf(prediction);
  const predicted: NodeRecord = {
    ...real,
    id: newId(),
    observation: details.prediction,
    reasoning: details.reasoning,
    origin: 'simulated',
    provenance: {
      ...(model ? { modelId: model } : {}),
      ...(sampling ? { sampling } : {}),
      evaluation: { outDir, key, judge: outcome },
      rawOutput: genOf(prediction),
      comparedWith: real.id,
    },
    metrics: details.metrics,
  };
  store.transaction(() => store.insertBundle({ trajectory: bundle.trajectory, nodes: [...bundle.nodes, predicted] }));
  return { trajectoryId: bundle.trajectory.id, realNodeId: real.id, predictedNodeId: predicted.id };
}
