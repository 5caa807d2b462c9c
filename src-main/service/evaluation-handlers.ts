// Handlers for the evaluation part of the contract (contract/evaluation.ts).
import { join, resolve } from 'node:path';
import { OpenAiCompatibleEngine } from '../engine/openai/openai-engine';
import { loadJudgeSystemPrompts, loadJudgeTemplate } from '../evaluation/judge';
import { runEvaluation } from '../evaluation/run-evaluation';
import type { evaluationApi } from '../common/contract/evaluation';
import { readEvaluatedCase } from '../evaluation/benchmark-case';
import { evaluatedLines, holdsOlderLayout, openRunFolder, RESULT_FILES } from '../evaluation/result-files';
import { subtaskOfLine } from '../evaluation/result-lines';
import { caseScore, scoreRun } from '../evaluation/scores';
import type { HandlersOf, Studio } from './studio';
import { UserError } from '../common/user-error';

export function evaluationHandlers(studio: Studio): HandlersOf<typeof evaluationApi> {
  return {
    'eval.run': (input) => {
      const engine = studio.models.current;
      if (!engine) throw new UserError('No world model is loaded. Load the model to evaluate first (--model DIR|URL on the command line).', 'no-model');
      const judgeSystemPrompts = input.judgePrompts ? loadJudgeSystemPrompts(resolve(input.judgePrompts)) : null;
      const judgeTemplate = loadJudgeTemplate(input.judgeTemplate ? resolve(input.judgeTemplate) : join(studio.extras.resourcesDir, 'judge', 'rubric.md'));
      return studio.jobs.start(
        'evaluation',
        'Evaluating',
        async (job) => {
          const remote = input.judge.kind === 'openai' ? new OpenAiCompatibleEngine({ baseUrl: input.judge.baseUrl, model: input.judge.model }) : null;
          await remote?.load();
          const judgeEngine = remote;
          try {
            const result = await runEvaluation({
              dataDir: resolve(input.dataDir),
              outDir: resolve(input.outDir),
              engine,
              judgeEngine,
              judgeTemplate,
              judgeSystemPrompts,
              judgeMaxTokens: input.judgeMaxTokens,
              concurrency: input.concurrency,
              limit: input.limit,
              sampling: input.sampling,
              signal: job.signal,
              onProgress: (p) => job.progress(p.done, p.total, p.phase, p.etaSeconds),
            });
            const { summary, problems, predicted, resumed, interrupted } = result;
            return { summary, problems, predicted, resumed, interrupted, judged: judgeEngine !== null };
          } finally {
            await remote?.dispose();
          }
        },
        input.jobId,
      );
    },
    'eval.read': ({ outDir }) => {
      const dir = resolve(outDir);
      // Scored from the result files themselves, so a run of the public script (which writes
      // no scores.json) reads the same, and the figures always match the lines.
      const folder = openRunFolder(dir, { repair: false });
      const lines = evaluatedLines(folder);
      if (lines.length === 0 && holdsOlderLayout(folder)) {
        // Resuming predicts each such case again; its new line takes the old one's place.
        throw new UserError(
          `${dir} was written by an older Worldloom, whose result lines (they have no "gen") this version does not read. Run \`worldloom eval\` again with the same --data and --out: it predicts the cases again in the current layout, replacing their old lines in ${RESULT_FILES.predictions}; add --judge URL to judge them again too.`,
          'older-layout',
        );
      }
      if (lines.length === 0) {
        throw new UserError(
          `${dir} holds no ${RESULT_FILES.predictions} or ${RESULT_FILES.judged} with predictions. Point at the --out folder of a worldloom eval run (or of the public evaluation script).`,
          'not-found',
        );
      }
      const cases = lines.map((l) => {
        const { outcome } = l;
        const remarks = [...(outcome?.strengths.map((s) => `+ ${s}`) ?? []), ...(outcome?.weaknesses.map((w) => `− ${w}`) ?? [])].join(' ');
        // The public scoring counts a judged line without "failed": 0 as failed; say so.
        const note = outcome?.error ?? (outcome && !outcome.valid ? 'counted as failed: the line has no "failed": 0' : remarks);
        return {
          key: l.key,
          subtask: subtaskOfLine(l.prediction),
          score: caseScore(outcome),
          judged: l.judged !== null,
          failed: outcome !== null && !outcome.valid,
          note,
          editSimilarity: l.details.metrics.editSimilarity ?? null,
          exactMatch: l.details.metrics.exactMatch ?? null,
        };
      });
      return { summary: scoreRun(lines), cases };
    },
    'eval.case': ({ outDir, key }) => {
      try {
        return readEvaluatedCase(resolve(outDir), key);
      } catch (err) {
        if (err instanceof UserError) throw err;
        throw new UserError((err as Error).message, 'eval-case');
      }
    },
  };
}
