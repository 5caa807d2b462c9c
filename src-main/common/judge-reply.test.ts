import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUBRIC, readJudgeReply } from './judge-reply';

/** Recorded judge replies: the public reply shape, older flat shapes and malformed ones. */
const recorded = JSON.parse(readFileSync(new URL('../evaluation/fixtures/judge-replies.json', import.meta.url), 'utf8')) as {
  name: string;
  reply: string;
  /** Expected per dimension in rubric order (0 = no score); null when the reply must be refused. */
  scores: number[] | null;
  total?: number;
  strengths?: string[];
  weaknesses?: string[];
}[];

describe('reading judge replies', () => {
  for (const { name, reply, scores, total, strengths, weaknesses } of recorded) {
    it(scores ? `reads ${name}` : `refuses ${name}`, () => {
      const reading = readJudgeReply(reply);
      if (!scores) {
        expect(reading.ok).toBe(false);
        return;
      }
      if (!reading.ok) throw new Error(`refused: ${reading.reason}`);
      const { verdict } = reading;
      expect(RUBRIC.map((d) => verdict.scores[d])).toEqual(scores);
      const given = scores.filter((s) => s > 0);
      expect(verdict.totalScore).toBeCloseTo(total ?? given.reduce((a, b) => a + b, 0) / given.length, 10);
      if (strengths) expect(verdict.strengths).toEqual(strengths);
      if (weaknesses) expect(verdict.weaknesses).toEqual(weaknesses);
    });
  }
});
