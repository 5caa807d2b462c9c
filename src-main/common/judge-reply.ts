// Reading a judge's reply. The rubric (resources/judge/rubric.md) asks for the reply the
// public AgentWorldBench judge gives — {"strengths": […], "weaknesses": […], "scores": {…}}
// inside <final_evaluation> tags — and it is read by the rules of the public script's
// parser (QwenLM/Qwen-AgentWorld eval/lwm_eval_utils), so one reply scores the same in
// either tool:
// - reasoning is dropped (an unclosed <think> runs to the answer tag); the last
//   <final_evaluation> block is read (to the end of the reply when it is not closed),
//   else the whole reply;
// - of the JSON objects there, the last one with a "scores" object is the answer;
//   trailing commas, single-quoted and unquoted keys are repaired, and an object that
//   still does not parse gives up its "scores" part alone;
// - a score may be a float (rounded half to even, like Python's round) or a string such
//   as "4" or "4/5"; above 5 counts as 5; missing or unreadable counts as 0, which means
//   "no score" and is left out of every mean;
// - the reply counts as read when it has a "scores" object, even a partial one.
// One difference, on purpose: a score of 0 or below is "no score" here, where the public
// parser would keep a negative number and let it into the means.
// Flat replies ({"format": 4, …} or "Format: 4" lines), what this rubric asked for before,
// are still read, but only when they give all five as whole numbers from 1 to 5.
import { closingBracket, isObject, textList } from './json-values';

export const RUBRIC = ['format', 'factuality', 'consistency', 'realism', 'quality'] as const;
export type RubricDimension = (typeof RUBRIC)[number];
/** 1..5 per dimension; 0 where the judge gave no usable score. */
export type RubricScores = Record<RubricDimension, number>;

export interface JudgeVerdict {
  scores: RubricScores;
  /** Mean of the dimensions that have a score (the public `total_score`); 0 when none has. */
  totalScore: number;
  strengths: string[];
  weaknesses: string[];
}

export type JudgeReading = { ok: true; verdict: JudgeVerdict } | { ok: false; reason: string };

/** The tag the rubric asks the judge to put its answer in. */
const ANSWER_TAG = 'final_evaluation';

/** Mean of the scores above 0, as the public parser computes `total_score`. */
function totalScoreOf(scores: RubricScores): number {
  const given = RUBRIC.map((d) => scores[d]).filter((s) => s > 0);
  return given.length > 0 ? given.reduce((a, b) => a + b, 0) / given.length : 0;
}

function roundHalfToEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** A score inside a "scores" object: lenient, 0 when unusable. */
function lenientScore(value: unknown): number {
  let n = 0;
  if (typeof value === 'number' && Number.isFinite(value)) n = Number.isInteger(value) ? value : roundHalfToEven(value);
  else if (typeof value === 'string') {
    const whole = /^\s*([+-]?\d+)\s*$/.exec(value.split('/')[0]!);
    if (whole) n = Number(whole[1]);
  }
  return n > 0 ? Math.min(5, n) : 0;
}

/** A score in a flat reply: a whole number from 1 to 5 (or "4", "4/5"), else null. */
function strictScore(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value.trim().replace(/\/\s*5$/, '')) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 5 ? n : null;
}

const lowerKeys = (obj: Record<string, unknown>) => Object.fromEntries(Object.entries(obj).map(([k, v]) => [k.toLowerCase().trim(), v]));

/** A read reply: the scores with their total, and the lists as strings. */
function accepted(scores: RubricScores, strengths: unknown, weaknesses: unknown): JudgeReading {
  return { ok: true, verdict: { scores, totalScore: totalScoreOf(scores), strengths: textList(strengths), weaknesses: textList(weaknesses) } };
}

/**
 * The reply without reasoning: closed <think> blocks, everything before a lone </think>,
 * and from a lone <think> up to the answer tag (or the end when there is none).
 */
function withoutReasoning(reply: string): string {
  let text = reply.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const close = text.toLowerCase().lastIndexOf('</think>');
  if (close >= 0) text = text.slice(close + '</think>'.length);
  const open = text.search(/<think>/i);
  if (open < 0) return text;
  const answer = text.slice(open).search(new RegExp(`<${ANSWER_TAG}>`, 'i'));
  return text.slice(0, open) + (answer >= 0 ? text.slice(open + answer) : '');
}

/** The content of the last answer block (to the end when unclosed), else the whole text. */
function answerText(text: string): string {
  const opens = [...text.matchAll(new RegExp(`<${ANSWER_TAG}>`, 'gi'))];
  const last = opens[opens.length - 1];
  if (!last) return text;
  const rest = text.slice(last.index + last[0].length);
  const close = new RegExp(`</${ANSWER_TAG}>`, 'i').exec(rest);
  const inner = (close ? rest.slice(0, close.index) : rest).trim();
  return inner || text;
}

/** Every balanced {...} block in the text, in order of where it starts, skipping braces inside strings. */
function jsonObjects(text: string): string[] {
  const found: string[] = [];
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    const end = closingBracket(text, start);
    if (end >= 0) found.push(text.slice(start, end + 1));
  }
  return found;
}

function repaired(candidate: string): string {
  return candidate
    .replace(/,(\s*[}\]])/g, '$1')
    .replace(/'(\w+)'(\s*:)/g, '"$1"$2')
    .replace(/([{,])\s*(\w+)\s*:/g, '$1"$2":');
}

/** The candidate as an object: as written, else repaired, else its "scores" part alone. */
function parseCandidate(candidate: string): Record<string, unknown> | null {
  for (const text of [candidate, repaired(candidate)]) {
    try {
      const value: unknown = JSON.parse(text);
      return isObject(value) ? value : null;
    } catch {
      // Try the next, more forgiving reading.
    }
  }
  const scoresOnly = /"scores"\s*:\s*\{[^{}]*\}/i.exec(repaired(candidate));
  if (!scoresOnly) return null;
  try {
    return JSON.parse(`{${scoresOnly[0]}}`) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function fromScoresObject(obj: Record<string, unknown>): JudgeReading | null {
  const top = lowerKeys(obj);
  if (!isObject(top.scores)) return null;
  const given = lowerKeys(top.scores);
  const scores = Object.fromEntries(RUBRIC.map((d) => [d, lenientScore(given[d])])) as RubricScores;
  return accepted(scores, top.strengths, top.weaknesses);
}

function fromFlatObject(obj: Record<string, unknown>): JudgeReading {
  const given = lowerKeys(obj);
  const scores: Partial<RubricScores> = {};
  for (const dim of RUBRIC) {
    const s = strictScore(given[dim]);
    if (s === null) return { ok: false, reason: `"${dim}" is missing or not a whole number from 1 to 5` };
    scores[dim] = s;
  }
  return accepted(scores as RubricScores, given.strengths, given.weaknesses);
}

export function readJudgeReply(reply: string): JudgeReading {
  const text = answerText(withoutReasoning(reply));
  const objects = jsonObjects(text)
    .map(parseCandidate)
    .filter((o): o is Record<string, unknown> => o !== null)
    .reverse();
  for (const obj of objects) {
    const reading = fromScoresObject(obj);
    if (reading) return reading;
  }
  let lastProblem = 'no JSON object with a "scores" object was found';
  for (const obj of objects) {
    const reading = fromFlatObject(obj);
    if (reading.ok) return reading;
    lastProblem = reading.reason;
  }
  // "Format: 4" / "- **Realism**: 5/5" lines.
  const scores: Partial<RubricScores> = {};
  for (const dim of RUBRIC) {
    const m = new RegExp(`${dim}\\W{0,6}?[:=]\\s*\\**\\s*([1-5])(?![.\\d])(?:\\s*/\\s*5)?`, 'i').exec(text);
    if (m) scores[dim] = Number(m[1]);
  }
  if (RUBRIC.every((d) => scores[d] !== undefined)) return accepted(scores as RubricScores, [], []);
  return { ok: false, reason: lastProblem };
}
