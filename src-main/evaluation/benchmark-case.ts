// Drill-down into one evaluated case, read from the run's folder alone: the real turns up
// to the evaluated one, the real observation, and the model's prediction beside it, with
// its metrics and judgement. Benchmark data is test data: it is shown, never written into
// the workspace, so no later export of real trajectories can carry it into training data.
// The result line carries the whole benchmark record, so the folder is all it needs,
// whichever tool (Worldloom or the public script) wrote it.
import type { BenchmarkCaseView } from '../common/contract/evaluation';
import { actionFromPrompt, observationFromResponse } from '../common/trajectory/turn-format';
import { AwbLine, domainOf } from '../parsing/agentworldbench-line';
import { turnOf } from './benchmark-data';
import { evaluatedLines, openRunFolder } from './result-files';
import { predictionProvenanceOf, subtaskOfLine } from './result-lines';
import { caseScore } from './scores';

export function readEvaluatedCase(outDir: string, key: string): BenchmarkCaseView {
  const [evaluated] = evaluatedLines(openRunFolder(outDir, { repair: false }), [key]);
  if (!evaluated) throw new Error(`${outDir} has no prediction for ${key} yet; run worldloom eval to finish it.`);
  const { prediction, details, outcome } = evaluated;
  const parsed = AwbLine.safeParse(prediction);
  const turnIdx = turnOf(prediction.turn_idx);
  if (!parsed.success || turnIdx < 1 || turnIdx > parsed.data.prompt.length || turnIdx > parsed.data.response.length) {
    throw new Error(`The line for ${key} in ${outDir} does not hold an AgentWorldBench record with turn ${turnIdx}, so it cannot be shown.`);
  }
  const line = parsed.data;
  const domain = evaluated.domain ?? domainOf(line.task, '');
  if (!domain) throw new Error(`${key}: the task "${line.task}" names no domain Worldloom knows, so it cannot be shown.`);
  const turns = line.prompt.slice(0, turnIdx).map((p, i) => ({ action: actionFromPrompt(p), observation: observationFromResponse(line.response[i]!) }));
  const evaluatedTurn = turns.pop()!;
  return {
    key,
    subtask: subtaskOfLine(prediction),
    domain,
    systemPrompt: line.system_str,
    history: turns,
    action: evaluatedTurn.action,
    real: details.reference || evaluatedTurn.observation,
    predicted: details.prediction,
    reasoning: details.reasoning,
    metrics: details.metrics,
    model: predictionProvenanceOf(prediction).model,
    judge: outcome
      ? {
          valid: outcome.valid,
          score: caseScore(outcome),
          scores: outcome.scores,
          strengths: outcome.strengths,
          weaknesses: outcome.weaknesses,
          error: outcome.error,
        }
      : null,
  };
}
