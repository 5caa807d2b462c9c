// The model card's evaluation table is the shipped model's eval-results.json, row for row, so
// the card cannot drift from what `npm run eval:nano` measured.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_DIR } from './paths';

interface Score {
  steps: number;
  exact: number;
  similarity: number;
}
const results = JSON.parse(readFileSync(join(import.meta.dirname, 'eval-results.json'), 'utf8')) as {
  report: Record<string, Record<string, Score>>;
  perturbations: { hitRate: number; exactLinesRate: number };
};
const card = readFileSync(join(MODEL_DIR, 'MODEL_CARD.md'), 'utf8');
const section = (title: string) => card.split(/^## /m).find((part) => part.startsWith(title)) ?? '';

describe('MODEL_CARD.md', () => {
  it('opens with Hugging Face metadata and the sections of a model card', () => {
    expect(card).toMatch(/^---\nlicense: apache-2\.0\n[\s\S]*?\n---\n/);
    for (const title of ['Intended use', 'Training data', 'Training procedure', 'Evaluation', 'Limitations']) expect(section(title), title).not.toBe('');
  });

  it('reports every evaluated set as eval-results.json has it, beside its best baseline', () => {
    const rows = section('Evaluation').split('\n').filter((line) => /^\| [a-z]/.test(line) && !line.startsWith('| sessions'));
    expect(rows.map((row) => row.split('|')[1]!.trim())).toEqual(Object.keys(results.report));
    for (const row of rows) {
      const [name, steps, exact, similarity, baseline] = row.split('|').slice(1, 6).map((cell) => cell.trim());
      const systems = results.report[name!]!;
      const model = systems['worldloom-nano']!;
      expect([Number(steps), Number(exact), Number(similarity)], name).toEqual([model.steps, Number(model.exact.toFixed(3)), Number(model.similarity.toFixed(3))]);
      const [bestName, best] = Object.entries(systems).filter(([system]) => system !== 'worldloom-nano').sort((a, b) => b[1].similarity - a[1].similarity)[0]!;
      expect(baseline, name).toBe(`${bestName} ${best.similarity.toFixed(3)}`);
    }
    const percent = (rate: number) => `${Math.round(rate * 100)} %`;
    expect(section('Evaluation')).toContain(`condition shows in ${percent(results.perturbations.hitRate)} of the predictions, its exact lines in ${percent(results.perturbations.exactLinesRate)}`);
  });
});
