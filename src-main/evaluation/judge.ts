// Judging one prediction with the rubric through any engine (an OpenAI-compatible judge
// endpoint or the local model). Like the public script, a call that fails or a reply that
// cannot be read is tried again, three times in all.
import { readFileSync } from 'node:fs';
import { DEFAULT_SAMPLING, type WorldModelEngine } from '../engine/engine';
import { fillTemplate, stripLeadingComment } from '../prompt/template';
import { actionPrompt, earlierTurns, referenceObservation, type BenchmarkSample } from './benchmark-data';
import { readJudgeReply, type JudgeVerdict } from './judge-reply';

export interface Judgement {
  /** Null when no attempt gave a readable reply. */
  verdict: JudgeVerdict | null;
  attempts: number;
  /** Why the last attempt failed. */
  error?: string;
  /** The judge's last reply. */
  raw: string;
}

/**
 * Room for the answer with its lists of strengths and weaknesses. A judge that reasons
 * first needs more (`--judge-max-tokens`; the public script allows 32768).
 */
export const DEFAULT_JUDGE_MAX_TOKENS = 1024;

export function loadJudgeTemplate(file: string): string {
  return stripLeadingComment(readFileSync(file, 'utf8'));
}

function judgePrompt(template: string, sample: BenchmarkSample, prediction: string): string {
  const history = earlierTurns(sample)
    .map(({ prompt, response }) => `${prompt}\n\n${response}`)
    .join('\n\n');
  return fillTemplate(template, {
    domain: sample.domain,
    system: sample.line.system_str,
    history: history || '(this is the first turn)',
    action: actionPrompt(sample),
    reference: referenceObservation(sample),
    prediction,
  });
}

export async function judge(
  engine: WorldModelEngine,
  template: string,
  sample: BenchmarkSample,
  prediction: string,
  options: { attempts?: number; maxTokens?: number; signal?: AbortSignal } = {},
): Promise<Judgement> {
  const attempts = options.attempts ?? 3;
  const maxTokens = options.maxTokens ?? DEFAULT_JUDGE_MAX_TOKENS;
  const prompt = judgePrompt(template, sample, prediction);
  let raw = '';
  let error = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const [result] = await engine.generate(
        [
          {
            id: sample.key,
            messages: [{ role: 'user', content: prompt }],
            // Later attempts sample a little so a judge stuck on a malformed reply can recover.
            sampling: { ...DEFAULT_SAMPLING, temperature: attempt === 1 ? 0 : 0.3, seed: attempt, maxTokens },
          },
        ],
        () => {},
        options.signal,
      );
      raw = result!.text;
      if (result!.finishReason === 'error') throw new Error(result!.error ?? 'the judge failed');
      const reading = readJudgeReply(raw);
      if (reading.ok) return { verdict: reading.verdict, attempts: attempt, raw };
      error = `unreadable judge reply: ${reading.reason}`;
    } catch (err) {
      if (options.signal?.aborted) throw err;
      error = (err as Error).message;
    }
  }
  return { verdict: null, attempts, error, raw };
}
