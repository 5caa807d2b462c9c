// Judging one prediction with the rubric through any engine (an OpenAI-compatible judge
// endpoint or the local model). Like the public script, a call that fails or a reply that
// cannot be read is tried again, three times in all, and a judge may reason for as long as
// the public script lets it (32,768 tokens). With the public per-domain judge system prompts
// (--judge-prompts DIR, read as the public script lays them out: DIR/<domain>/
// judge_system_prompt.txt) each domain's prompt goes first as the system message.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_JUDGE_MAX_TOKENS } from '../common/contract/evaluation';
import type { ChatMessage, WorldModelEngine } from '../common/engine';
import { DOMAINS } from '../common/trajectory/model';
import { fillTemplate, stripLeadingComment } from '../common/prompt/template';
import { actionPrompt, earlierTurns, referenceObservation, type BenchmarkCase } from './benchmark-data';
import { readJudgeReply, type JudgeVerdict } from '../common/judge-reply';

export interface Judgement {
  /** Null when no attempt gave a readable reply. */
  verdict: JudgeVerdict | null;
  attempts: number;
  /** Why the last attempt failed. */
  error?: string;
  /** The judge's last reply. */
  raw: string;
}

/** The public script's judge budget, defined once in the contract. */
export { DEFAULT_JUDGE_MAX_TOKENS };

/** The file name the public repository gives each domain's judge system prompt. */
export const JUDGE_SYSTEM_PROMPT_FILE = 'judge_system_prompt.txt';

export function loadJudgeTemplate(file: string): string {
  return stripLeadingComment(readFileSync(file, 'utf8'));
}

/**
 * Each domain's judge system prompt from DIR/<domain>/judge_system_prompt.txt, keyed by
 * subtask. A domain without a file gets none, as in the public script (an empty system
 * message); a folder with no such file at all is refused, since its scores would not compare.
 */
export function loadJudgeSystemPrompts(dir: string): Record<string, string> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new Error(`--judge-prompts ${dir} is not a folder. Point it at a folder holding <domain>/${JUDGE_SYSTEM_PROMPT_FILE} files (e.g. the prompts/ folder of QwenLM/Qwen-AgentWorld).`);
  }
  const prompts: Record<string, string> = {};
  for (const domain of DOMAINS) {
    const file = join(dir, domain, JUDGE_SYSTEM_PROMPT_FILE);
    if (existsSync(file)) prompts[domain] = readFileSync(file, 'utf8');
  }
  if (Object.keys(prompts).length === 0) {
    throw new Error(`--judge-prompts ${dir} holds no ${JUDGE_SYSTEM_PROMPT_FILE} in any domain folder (${DOMAINS.map((d) => `${d}/`).join(', ')}).`);
  }
  return prompts;
}

function judgePrompt(template: string, benchmarkCase: BenchmarkCase, prediction: string): string {
  const history = earlierTurns(benchmarkCase)
    .map(({ prompt, response }) => `${prompt}\n\n${response}`)
    .join('\n\n');
  return fillTemplate(template, {
    domain: benchmarkCase.domain,
    system: benchmarkCase.line.system_str,
    history: history || '(this is the first turn)',
    action: actionPrompt(benchmarkCase),
    reference: referenceObservation(benchmarkCase),
    prediction,
  });
}

export async function judge(
  engine: WorldModelEngine,
  template: string,
  benchmarkCase: BenchmarkCase,
  prediction: string,
  options: { attempts?: number; maxTokens?: number; systemPrompt?: string | null; signal?: AbortSignal } = {},
): Promise<Judgement> {
  const attempts = options.attempts ?? 3;
  const maxTokens = options.maxTokens ?? DEFAULT_JUDGE_MAX_TOKENS;
  const messages: ChatMessage[] = [
    // With the public prompts every line sends a system message, an empty one where a domain has none.
    ...(options.systemPrompt != null ? [{ role: 'system' as const, content: options.systemPrompt }] : []),
    { role: 'user', content: judgePrompt(template, benchmarkCase, prediction) },
  ];
  let raw = '';
  let error = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const [result] = await engine.generate(
        [
          {
            id: benchmarkCase.key,
            messages,
            // Later attempts sample a little so a judge stuck on a malformed reply can recover.
            sampling: { temperature: attempt === 1 ? 0 : 0.3, topK: 0, topP: 1, seed: attempt, maxTokens, stop: [] },
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
